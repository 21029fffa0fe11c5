package io.github.sparkzarr.zarr.v3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.corpus.CorpusDir;
import io.github.sparkzarr.zarr.corpus.ExpectedValues;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Reads every array of the v3 corpus zarrita wrote (integration-tests/zarrita/generate_v3_corpus.mjs)
 * and compares every value with what zarrita read back, plus the groups and implicit groups. Reads
 * a freshly generated corpus when {@code zarr.corpus.dir} names one (see {@link CorpusDir}).
 */
class V3CorpusTest {
  static final ObjectMapper JSON = new ObjectMapper();

  static HadoopStore store(Path dir, String name) throws Exception {
    return new HadoopStore(dir.resolve(name).toUri().toString(), new Configuration());
  }

  @TestFactory
  List<DynamicTest> everyArrayReadsExactly() throws Exception {
    Path dir = CorpusDir.of("v3");
    JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode entry : manifest.get("arrays")) {
      tests.add(DynamicTest.dynamicTest(entry.get("path").asText(), () -> check(dir, entry)));
    }
    assertTrue(tests.size() > 60, "the corpus should hold over 60 arrays, found " + tests.size());
    return tests;
  }

  static void check(Path dir, JsonNode entry) throws Exception {
    try (HadoopStore s = store(dir, entry.get("store").asText())) {
      ZarrArray array = ZarrArray.open(s, entry.get("path").asText());
      assertEquals(3, array.metadata().zarrFormat());
      assertArrayEquals(JSON.treeToValue(entry.get("shape"), long[].class), array.metadata().shape());
      assertArrayEquals(JSON.treeToValue(entry.get("chunks"), int[].class), array.metadata().chunkShape());
      if (entry.has("dimension_names")) {
        List<String> names = new ArrayList<>();
        entry.get("dimension_names").forEach(n -> names.add(n.isNull() ? null : n.asText()));
        assertEquals(names, array.metadata().dimensionNames());
      }
      if (entry.has("attributes")) {
        assertEquals(entry.get("attributes"), array.metadata().attributes());
      }
      ChunkData data = array.readAll();
      JsonNode expected = entry.get("expected");
      byte[] bytes = Files.readAllBytes(dir.resolve(expected.get("file").asText()));
      String diff = expected.get("format").asText().equals("json")
          ? ExpectedValues.compareJson(data, bytes)
          : ExpectedValues.compareRaw(data, bytes);
      assertNull(diff, () -> entry.get("note") + ": " + diff);
    }
  }

  @Test
  void groupsImplicitGroupsAndChildren() throws Exception {
    Path dir = CorpusDir.of("v3");
    JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile());
    try (HadoopStore s = store(dir, "v3.zarr")) {
      ZarrHierarchy h = ZarrHierarchy.open(s);
      for (JsonNode g : manifest.get("groups")) {
        var group = h.openGroup(g.get("path").asText());
        assertEquals(3, group.zarrFormat());
        assertEquals(g.get("attributes"), group.attributes());
      }
      for (JsonNode g : manifest.get("implicit_groups")) {
        assertEquals(Optional.of(ZarrHierarchy.NodeType.GROUP), h.nodeType(g.get("path").asText()));
      }
      assertEquals(List.of("dtypes", "fill", "implicit", "keys", "layout"), h.children(""));
      assertEquals(List.of("implicit/a/arr"), h.children("implicit/a"));
      assertEquals(Optional.empty(), h.nodeType("dtypes/int32_bytes_le/c"), "chunk directories are not groups");
      assertEquals(Optional.empty(), h.nodeType("nothing"));
    }
  }
}
