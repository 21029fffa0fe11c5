package io.github.sparkzarr.zarr.v1;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.ZarrFormat;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.corpus.CorpusDir;
import io.github.sparkzarr.zarr.corpus.ExpectedValues;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V1Metadata;
import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.MemoryStore;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Zarr v1: reads the stores integration-tests/generate_v1_corpus.py wrote from the spec with numpy
 * and numcodecs, and has that script's spec-based reader check v1 stores we write. Reads a freshly
 * generated corpus when {@code zarr.corpus.dir} names one (see {@link CorpusDir}).
 */
class V1Test {
  static final ObjectMapper JSON = new ObjectMapper();

  @TestFactory
  List<DynamicTest> everyV1ArrayReadsExactly() throws Exception {
    Path dir = CorpusDir.of("v1");
    JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode e : manifest.get("arrays")) {
      tests.add(DynamicTest.dynamicTest(e.get("store").asText(), () -> {
        try (HadoopStore s = new HadoopStore(dir.resolve(e.get("store").asText()).toUri().toString(), new Configuration())) {
          ZarrArray a = ZarrArray.open(s, "");
          assertEquals(1, a.metadata().zarrFormat());
          assertEquals(e.get("attributes"), a.metadata().attributes());
          byte[] expected = Files.readAllBytes(dir.resolve(e.get("expected").get("file").asText()));
          String diff = ExpectedValues.compareRaw(a.readAll(), expected);
          assertNull(diff, diff);
        }
      }));
    }
    assertEquals(6, tests.size());
    return tests;
  }

  @Test
  void ourV1WritesReadBackAndTheSpecReaderAgrees() throws Exception {
    Path dir = CorpusDir.of("v1");
    Path out = Path.of("target/roundtrip-v1");
    deleteRecursively(out.toFile());
    Files.createDirectories(out.resolve("expected"));
    JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile());
    ObjectNode ours = Json.object();
    var arrays = ours.putArray("arrays");
    for (JsonNode e : manifest.get("arrays")) {
      String name = e.get("store").asText();
      try (HadoopStore src = new HadoopStore(dir.resolve(name).toUri().toString(), new Configuration());
          HadoopStore dst = new HadoopStore(out.resolve(name).toUri().toString(), new Configuration())) {
        ZarrArray source = ZarrArray.open(src, "");
        ChunkData values = source.readAll();
        ZarrArray copy = ZarrHierarchy.writeArrayV1(dst, "", source.metadata());
        copy.write(new long[values.shape().length], values);
        ZarrArray reread = ZarrHierarchy.open(dst, ZarrFormat.V1).openArray("");
        assertArrayEquals(values.bytes(), reread.readAll().bytes(), name);
        Files.write(out.resolve("expected/" + name + ".bin"), values.bytes());
        ObjectNode entry = arrays.addObject();
        entry.setAll((ObjectNode) e.deepCopy());
        ((ObjectNode) entry.get("expected")).put("file", "expected/" + name + ".bin").remove("sha256");
      }
    }
    Files.write(out.resolve("manifest.json"), Json.write(ours));
    File python = new File("/usr/bin/python3");
    Assumptions.assumeTrue(python.canExecute(), "no /usr/bin/python3: spec reader check skipped");
    Process p = new ProcessBuilder(python.getPath(), "integration-tests/generate_v1_corpus.py", "--verify",
        out.resolve("manifest.json").toString()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(5, TimeUnit.MINUTES);
    Assumptions.assumeFalse(output.contains("No module named"), "numpy/numcodecs missing: " + output);
    assertEquals(0, p.exitValue(), "the spec-based v1 reader disagrees:\n" + output);
    assertTrue(output.contains("6 passed, 0 failed"), output);
  }

  @Test
  void badV1MetadataNamesTheKey() throws Exception {
    MemoryStore store = new MemoryStore("mem://v1");
    store.set("a/meta", ("{\"zarr_format\":1,\"shape\":[4],\"chunks\":[2],\"dtype\":\"<i4\","
        + "\"compression\":\"snappy\",\"compression_opts\":null,\"fill_value\":0,\"order\":\"C\"}")
        .getBytes(StandardCharsets.UTF_8));
    ZarrException e = assertThrows(ZarrException.class, () -> ZarrHierarchy.open(store).openArray("a"));
    assertEquals("a/" + V1Metadata.META_KEY, e.key());
    assertTrue(e.getMessage().contains("unknown v1 compression 'snappy'"), e.getMessage());
  }

  static void deleteRecursively(File f) {
    File[] children = f.listFiles();
    if (children != null) {
      for (File c : children) {
        deleteRecursively(c);
      }
    }
    f.delete();
  }
}
