package io.github.sparkzarr.zarr.v3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrFormat;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.MemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Copies every array and group of the committed v3 draft corpus into a new store with our draft
 * writer, reads it back, and has zarr-python 2.13 check every value and group
 * (generate_v3draft_corpus.py --verify).
 */
class V3DraftRoundTripTest {
  static final Path CORPUS = Path.of("src/test/resources/corpus/v3draft");
  static final Path OUT = Path.of("target/roundtrip-v3draft");
  static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void ourDraftWritesReadBackAndZarrPythonAgrees() throws Exception {
    deleteRecursively(OUT);
    JsonNode manifest = JSON.readTree(CORPUS.resolve("manifest.json").toFile());
    ObjectNode ours = Json.object();
    ArrayNode arrays = ours.putArray("arrays");
    ArrayNode groups = ours.putArray("groups");
    try (HadoopStore src = store(CORPUS.resolve("draft.zarr")); HadoopStore dst = store(OUT.resolve("draft.zarr"))) {
      ZarrHierarchy source = ZarrHierarchy.open(src);
      for (JsonNode g : manifest.get("groups")) {
        if (g.get("store").asText().equals("draft.zarr") && !g.get("implicit").asBoolean()) {
          String path = g.get("path").asText();
          ZarrHierarchy.writeGroupV3Draft(dst, path, source.openGroup(path).attributes());
          groups.add(g);
        }
      }
      int count = 0;
      for (JsonNode e : manifest.get("arrays")) {
        if (!e.get("store").asText().equals("draft.zarr")) {
          continue;
        }
        String path = e.get("path").asText();
        ZarrArray original = source.openArray(path);
        ChunkData values = original.readAll();
        ZarrArray copy = ZarrHierarchy.writeArrayV3Draft(dst, path, original.metadata());
        copy.write(new long[values.shape().length], values);
        ZarrArray reread = ZarrHierarchy.open(dst, ZarrFormat.V3_DRAFT).openArray(path);
        assertArrayEquals(values.bytes(), reread.readAll().bytes(), path);
        String file = "expected/" + path + ".bin";
        Files.createDirectories(OUT.resolve(file).getParent());
        Files.write(OUT.resolve(file), values.bytes());
        ObjectNode entry = arrays.addObject();
        entry.setAll((ObjectNode) e.deepCopy());
        ((ObjectNode) entry.get("expected")).put("file", file).remove("sha256");
        count++;
      }
      assertTrue(count > 50, "copied " + count + " arrays");
      for (JsonNode g : manifest.get("groups")) {
        if (g.get("implicit").asBoolean() && g.get("store").asText().equals("draft.zarr")) {
          groups.add(g);
        }
      }
    }
    Files.write(OUT.resolve("manifest.json"), Json.write(ours));
    assertEquals(arrays.size(), JSON.readTree(OUT.resolve("manifest.json").toFile()).get("arrays").size());
    ExternalTools.runPython("zarr-python v3 draft check", "integration-tests/generate_v3draft_corpus.py",
        "--verify", OUT.resolve("manifest.json").toString());
  }

  @Test
  void dimensionNamesAreKeptAsXarrayAttributes() throws Exception {
    MemoryStore store = new MemoryStore("mem://dims");
    try (HadoopStore src = store(CORPUS.resolve("draft.zarr"))) {
      ArrayMetadata md = ZarrArray.open(src, "grp/with_attrs").metadata();
      ArrayMetadata named = new ArrayMetadata(3, md.shape(), md.chunkShape(), md.dataType(), md.fillValue(),
          md.codec(), md.chunkKeyEncoding(), List.of("y", "x"), md.attributes());
      ZarrHierarchy.writeArrayV3Draft(store, "named", named);
    }
    ArrayMetadata reread = ZarrHierarchy.open(store).openArray("named").metadata();
    assertEquals(List.of("y", "x"), reread.dimensionNames());
    assertEquals("K", reread.attributes().get("units").asText());
  }

  static HadoopStore store(Path dir) throws IOException {
    return new HadoopStore(dir.toUri().toString(), new Configuration());
  }

  static void deleteRecursively(Path dir) throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> paths = Files.walk(dir)) {
        for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
          Files.delete(p);
        }
      }
    }
  }
}
