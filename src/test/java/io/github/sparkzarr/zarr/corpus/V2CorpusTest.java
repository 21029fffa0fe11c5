package io.github.sparkzarr.zarr.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Reads every array of the corpus zarr-python 2.13 wrote (integration-tests/generate_v2_corpus.py)
 * and compares every value with what zarr-python read. The committed corpus is used unless the
 * system property {@code zarr.corpus.dir} names a freshly generated one (CI sets it).
 */
class V2CorpusTest {

  static Path corpusDir(String name) {
    return CorpusDir.of(name);
  }

  @TestFactory
  List<DynamicTest> everyArrayReadsExactly() throws Exception {
    Path dir = corpusDir("v2");
    JsonNode manifest = ExpectedValues.JSON.readTree(dir.resolve("manifest.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode entry : manifest.get("arrays")) {
      String name = entry.get("store").asText() + "/" + entry.get("path").asText();
      tests.add(DynamicTest.dynamicTest(name, () -> check(dir, entry)));
    }
    assertTrue(tests.size() > 100, "the corpus should hold over 100 arrays, found " + tests.size());
    return tests;
  }

  private static void check(Path dir, JsonNode entry) throws Exception {
    Path store = dir.resolve(entry.get("store").asText());
    try (HadoopStore s = new HadoopStore(store.toUri().toString(), new Configuration())) {
      ZarrArray array = ZarrArray.open(s, entry.get("path").asText());
      long[] shape = new long[entry.get("shape").size()];
      for (int i = 0; i < shape.length; i++) {
        shape[i] = entry.get("shape").get(i).asLong();
      }
      assertArrayEquals(shape, array.metadata().shape());
      ChunkData data = array.readAll();
      JsonNode expected = entry.get("expected");
      byte[] bytes = Files.readAllBytes(dir.resolve(expected.get("file").asText()));
      String diff = expected.get("format").asText().equals("json")
          ? ExpectedValues.compareJson(data, bytes)
          : ExpectedValues.compareRaw(data, bytes);
      assertNull(diff, () -> entry.get("note") + ": " + diff);
    }
  }
}
