package io.github.sparkzarr.zarr.corpus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrFormat;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.ZarrHierarchy.NodeType;
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
 * Reads every array of the 2022 v3 draft corpus zarr-python 2.13 wrote
 * (integration-tests/generate_v3draft_corpus.py), in its own layout and without the root/
 * segment, and compares every value with what zarr-python read; plus groups and implicit groups.
 */
class V3DraftCorpusTest {

  static HadoopStore store(Path dir, String name) throws Exception {
    return new HadoopStore(dir.resolve(name).toUri().toString(), new Configuration());
  }

  @TestFactory
  List<DynamicTest> everyArrayReadsExactly() throws Exception {
    Path dir = CorpusDir.of("v3draft");
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
    try (HadoopStore s = store(dir, entry.get("store").asText())) {
      ZarrArray array = ZarrArray.open(s, entry.get("path").asText());
      assertEquals(3, array.metadata().zarrFormat());
      assertArrayEquals(ExpectedValues.JSON.treeToValue(entry.get("shape"), long[].class), array.metadata().shape());
      assertArrayEquals(ExpectedValues.JSON.treeToValue(entry.get("chunks"), int[].class), array.metadata().chunkShape());
      assertEquals(entry.get("separator").asText().charAt(0), array.metadata().chunkKeyEncoding().separator());
      if (entry.has("attributes")) {
        assertEquals(entry.get("attributes"), array.metadata().attributes());
      }
      byte[] expected = Files.readAllBytes(dir.resolve(entry.get("expected").get("file").asText()));
      String diff = ExpectedValues.compareRaw(array.readAll(), expected);
      assertNull(diff, () -> entry.get("note") + ": " + diff);
    }
  }

  @Test
  void groupsImplicitGroupsAndChildrenInBothLayouts() throws Exception {
    Path dir = CorpusDir.of("v3draft");
    JsonNode manifest = ExpectedValues.JSON.readTree(dir.resolve("manifest.json").toFile());
    for (JsonNode g : manifest.get("groups")) {
      try (HadoopStore s = store(dir, g.get("store").asText())) {
        ZarrHierarchy h = ZarrHierarchy.open(s);
        String path = g.get("path").asText();
        assertEquals(Optional.of(NodeType.GROUP), h.nodeType(path), path);
        assertEquals(g.get("attributes"), h.openGroup(path).attributes(), path);
      }
    }
    for (String name : List.of("draft.zarr", "draft_noroot.zarr")) {
      try (HadoopStore s = store(dir, name)) {
        ZarrHierarchy h = ZarrHierarchy.open(s, ZarrFormat.V3_DRAFT);
        assertEquals(List.of("codecs", "dtypes", "grp", "implicit", "layout"), h.children(""), name);
        assertEquals(List.of("grp/sub", "grp/with_attrs"), h.children("grp"), name);
        assertEquals(List.of("implicit/deeper/arr"), h.children("implicit/deeper"), name);
        assertEquals(Optional.of(NodeType.ARRAY), h.nodeType("grp/with_attrs"), name);
        assertEquals(Optional.empty(), h.nodeType("nothing"), name);
      }
    }
  }

  @Test
  void chunksAreKeyedUnderTheDataDirectory() throws Exception {
    Path dir = CorpusDir.of("v3draft");
    try (HadoopStore s = store(dir, "draft.zarr"); HadoopStore n = store(dir, "draft_noroot.zarr")) {
      assertEquals("data/root/layout/separator_dot_2d/c0.1",
          ZarrArray.open(s, "layout/separator_dot_2d").chunkKey(new long[] {0, 1}));
      assertEquals("data/root/grp/with_attrs/c1/0", ZarrArray.open(s, "grp/with_attrs").chunkKey(new long[] {1, 0}));
      assertEquals("data/root/layout/zero_d/c0", ZarrArray.open(s, "layout/zero_d").chunkKey(new long[0]));
      assertEquals("data/grp/with_attrs/c1/0", ZarrArray.open(n, "grp/with_attrs").chunkKey(new long[] {1, 0}));
      assertTrue(s.exists("data/root/layout/zero_d/c0"));
    }
  }
}
