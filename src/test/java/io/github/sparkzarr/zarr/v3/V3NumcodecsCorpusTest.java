package io.github.sparkzarr.zarr.v3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.corpus.CorpusDir;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Reads every array of the corpus with zarr-python 3's {@code numcodecs.*} codecs, encoded by
 * numcodecs as zarr-python 3 runs them (integration-tests/generate_v3_numcodecs_corpus.py), and
 * compares every value with what numcodecs decodes.
 */
class V3NumcodecsCorpusTest {

  @TestFactory
  List<DynamicTest> everyArrayReadsAsNumcodecsDecodesIt() throws Exception {
    Path dir = CorpusDir.of("v3-numcodecs");
    JsonNode manifest = V3CorpusTest.JSON.readTree(dir.resolve("manifest.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode entry : manifest.get("arrays")) {
      tests.add(DynamicTest.dynamicTest(entry.get("path").asText(), () -> V3CorpusTest.check(dir, entry)));
    }
    assertEquals(19, tests.size());
    return tests;
  }

  /** Written back as read: an append to such an array keeps its chain. */
  @Test
  void chainsWriteThemselvesBackUnchanged() throws Exception {
    Path dir = CorpusDir.of("v3-numcodecs");
    JsonNode manifest = V3CorpusTest.JSON.readTree(dir.resolve("manifest.json").toFile());
    for (JsonNode entry : manifest.get("arrays")) {
      try (HadoopStore s = V3CorpusTest.store(dir, entry.get("store").asText())) {
        ZarrArray array = ZarrArray.open(s, entry.get("path").asText());
        assertTrue(array.metadata().codec() instanceof V3ChunkCodec);
        assertEquals(entry.get("codecs"), ((V3ChunkCodec) array.metadata().codec()).toJson(),
            entry.get("path").asText());
      }
    }
  }
}
