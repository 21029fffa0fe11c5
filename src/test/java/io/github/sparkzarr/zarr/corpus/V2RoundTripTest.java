package io.github.sparkzarr.zarr.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Writes arrays of every dtype, compressor and filter with our core, checks we read them back,
 * then has zarr-python 2.13 read them (integration-tests/verify_with_zarr_python.py).
 */
class V2RoundTripTest {
  private static final Path OUT = Path.of("target/roundtrip-v2");
  private static final String STORE = "ours.zarr";
  /** Non-ASCII on purpose: zarr-python 2.13 reads metadata as ASCII, so we must escape it. */
  private static final ObjectNode ATTRIBUTES = Json.object().put("title", "température €, 😀");

  /** One array to write: its .zarray fields and whether decoding gives back exactly the input. */
  private record Case(String path, String dtype, String compressor, String filters,
      String fill, String order, boolean lossless) {}

  private static List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    String zstd = "{\"id\":\"zstd\",\"level\":3}";
    String[] dtypes = {"|b1", "|i1", "<i2", ">i2", "<i4", ">i4", "<i8", ">i8", "|u1", "<u2", ">u4",
        "<u8", "<f2", ">f2", "<f4", ">f4", "<f8", ">f8", "<c8", ">c16", "<M8[ns]", ">M8[D]",
        "<m8[s]", "<m8[us]", "|S7", "<U5", ">U3", "|V6"};
    for (String d : dtypes) {
      String name = safeName(d);
      cases.add(new Case("dtypes/" + name, "\"" + d + "\"", zstd, "null", "null", "C", true));
    }
    cases.add(new Case("dtypes/struct",
        "[[\"a\",\"<i4\"],[\"b\",\">f8\",[2]],[\"c\",[[\"x\",\"|u1\"],[\"y\",\"<U2\"]]]]",
        zstd, "null", "null", "C", true));
    cases.add(new Case("objects/vlen_utf8", "\"|O\"", zstd, "[{\"id\":\"vlen-utf8\"}]", "\"\"", "C", true));
    cases.add(new Case("objects/vlen_bytes", "\"|O\"", zstd, "[{\"id\":\"vlen-bytes\"}]", "null", "C", true));
    cases.add(new Case("objects/json2", "\"|O\"", zstd,
        "[{\"id\":\"json2\",\"allow_nan\":true,\"check_circular\":true,\"encoding\":\"utf-8\","
            + "\"ensure_ascii\":true,\"indent\":null,\"separators\":[\",\",\":\"],\"skipkeys\":false,"
            + "\"sort_keys\":true,\"strict\":true}]", "null", "C", true));
    List<String> compressors = new ArrayList<>();
    for (String cname : new String[] {"blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"}) {
      for (int shuffle = 0; shuffle <= 2; shuffle++) {
        compressors.add("{\"id\":\"blosc\",\"cname\":\"" + cname + "\",\"clevel\":5,\"shuffle\":"
            + shuffle + ",\"blocksize\":0}");
      }
    }
    compressors.addAll(List.of("{\"id\":\"zlib\",\"level\":1}", "{\"id\":\"zlib\",\"level\":9}",
        "{\"id\":\"gzip\",\"level\":5}", "{\"id\":\"bz2\",\"level\":9}",
        "{\"id\":\"lzma\",\"format\":1,\"check\":-1,\"preset\":null,\"filters\":null}",
        "{\"id\":\"lzma\",\"format\":2,\"check\":-1,\"preset\":null,\"filters\":null}",
        "{\"id\":\"zstd\",\"level\":1}", "{\"id\":\"lz4\",\"acceleration\":1}",
        "{\"id\":\"crc32\"}", "{\"id\":\"adler32\"}", "null"));
    for (int i = 0; i < compressors.size(); i++) {
      for (String d : new String[] {"<f4", ">i8", "|u1"}) {
        cases.add(new Case("codecs/c" + i + "_" + safeName(d),
            "\"" + d + "\"", compressors.get(i), "null", "0", "C", true));
      }
    }
    String zlib = "{\"id\":\"zlib\",\"level\":1}";
    cases.add(new Case("filters/delta", "\"<i4\"", zlib,
        "[{\"id\":\"delta\",\"dtype\":\"<i4\",\"astype\":\"<i4\"}]", "0", "C", true));
    cases.add(new Case("filters/fixedscaleoffset", "\"<f8\"", zlib,
        "[{\"id\":\"fixedscaleoffset\",\"offset\":1000,\"scale\":10,\"dtype\":\"<f8\",\"astype\":\"<i4\"}]",
        "0", "C", false));
    cases.add(new Case("filters/quantize", "\"<f4\"", zlib,
        "[{\"id\":\"quantize\",\"digits\":3,\"dtype\":\"<f4\",\"astype\":\"<f4\"}]", "0", "C", false));
    cases.add(new Case("filters/astype", "\"<f8\"", zlib,
        "[{\"id\":\"astype\",\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\"}]", "0", "C", false));
    cases.add(new Case("filters/packbits", "\"|b1\"", zlib, "[{\"id\":\"packbits\"}]", "false", "C", true));
    cases.add(new Case("filters/bitround", "\"<f4\"", zlib,
        "[{\"id\":\"bitround\",\"keepbits\":10}]", "0", "C", false));
    cases.add(new Case("filters/shuffle", "\"<i8\"", zlib,
        "[{\"id\":\"shuffle\",\"elementsize\":8}]", "0", "C", true));
    cases.add(new Case("filters/crc32_then_zlib", "\"<i2\"", zlib, "[{\"id\":\"crc32\"}]", "0", "C", true));
    cases.add(new Case("filters/chain", "\"<i4\"", "{\"id\":\"blosc\",\"cname\":\"zstd\",\"clevel\":3,\"shuffle\":2,\"blocksize\":0}",
        "[{\"id\":\"delta\",\"dtype\":\"<i4\",\"astype\":\"<i4\"},{\"id\":\"shuffle\",\"elementsize\":4}]",
        "0", "C", true));
    cases.add(new Case("layout/order_F", "\">f8\"", zstd, "null", "\"NaN\"", "F", true));
    cases.add(new Case("layout/order_F_struct", "[[\"a\",\">i2\"],[\"b\",\"<f4\"]]", zstd, "null", "null", "F", true));
    cases.add(new Case("fill/neg_inf", "\"<f8\"", zstd, "null", "\"-Infinity\"", "C", true));
    return cases;
  }

  /** "<i2" → "le_i2", ">M8[D]" → "be_M8_D_": distinct names for distinct dtypes. */
  private static String safeName(String dtype) {
    return dtype.replace("<", "le_").replace(">", "be_").replace("|", "")
        .replaceAll("[^A-Za-z0-9_]", "_");
  }

  @Test
  void zarrPythonReadsWhatWeWrite() throws Exception {
    deleteRecursively(OUT.toFile());
    Files.createDirectories(OUT.resolve("expected"));
    ArrayNode entries = Json.nodes().arrayNode();
    try (HadoopStore store = new HadoopStore(OUT.resolve(STORE).toUri().toString(), new Configuration())) {
      ZarrHierarchy.writeGroupV2(store, "", null);
      long seed = 1;
      for (Case c : cases()) {
        entries.add(writeAndCheck(store, c, seed++));
      }
    }
    ObjectNode manifest = Json.object();
    manifest.put("generator", getClass().getName());
    manifest.set("arrays", entries);
    Files.write(OUT.resolve("manifest.json"), Json.write(manifest));
    verifyWithZarrPython(OUT.resolve("manifest.json"));
  }

  private ObjectNode writeAndCheck(HadoopStore store, Case c, long seed) throws Exception {
    String zarray = "{\"zarr_format\":2,\"shape\":[7,5],\"chunks\":[3,2],\"dtype\":" + c.dtype()
        + ",\"compressor\":" + c.compressor() + ",\"fill_value\":" + c.fill() + ",\"order\":\""
        + c.order() + "\",\"filters\":" + c.filters() + "}";
    ObjectNode doc = Json.parseObject(zarray.getBytes(StandardCharsets.UTF_8), "test", c.path());
    ZarrArray array = ZarrHierarchy.writeArrayV2(store, c.path(),
        V2Metadata.readArray(doc, ATTRIBUTES.deepCopy(), store.location(), c.path()));
    int[] shape = {7, 5};
    ChunkData input = SampleData.of(array.metadata().dataType(), shape, seed);
    array.write(new long[] {0, 0}, input);
    ChunkData back = ZarrArray.open(store, c.path()).readAll();
    boolean objects = back.holdsObjects();
    if (c.lossless()) {
      if (objects) {
        assertTrue(java.util.Arrays.deepEquals(comparable(input), comparable(back)), c.path());
      } else {
        assertNull(ExpectedValues.compareRaw(back, input.bytes()), c.path());
      }
    }
    // zarr-python must read exactly what we read back.
    String file = "expected/" + c.path().replace('/', '_') + (objects ? ".json" : ".bin");
    Files.write(OUT.resolve(file), objects ? jsonList(back) : back.bytes());
    ObjectNode entry = Json.object();
    entry.put("store", STORE);
    entry.put("path", c.path());
    entry.put("zarr_format", 2);
    entry.set("shape", Json.nodes().arrayNode().add(7).add(5));
    entry.set("chunks", Json.nodes().arrayNode().add(3).add(2));
    entry.set("dtype", doc.get("dtype"));
    entry.put("order", c.order());
    entry.set("compressor", doc.get("compressor"));
    entry.set("filters", doc.get("filters"));
    entry.set("attributes", ATTRIBUTES);
    ObjectNode expected = entry.putObject("expected");
    expected.put("file", file);
    expected.put("format", objects ? "json" : "raw");
    return entry;
  }

  /** Elements in a form whose equality means equal values (JSON compared as parsed trees). */
  private static Object[] comparable(ChunkData data) throws Exception {
    Object[] out = data.objects().clone();
    if (data.type().kind() == io.github.sparkzarr.zarr.dtype.DataType.Kind.JSON) {
      for (int i = 0; i < out.length; i++) {
        out[i] = out[i] == null ? null : ExpectedValues.JSON.readTree((String) out[i]);
      }
    }
    return out;
  }

  private static byte[] jsonList(ChunkData data) throws Exception {
    ArrayNode list = Json.nodes().arrayNode();
    for (Object o : data.objects()) {
      switch (data.type().kind()) {
        case STRING -> list.add((String) o);
        case VLEN_BYTES -> list.add(Base64.getEncoder().encodeToString((byte[]) o));
        default -> list.add(ExpectedValues.JSON.readTree((String) o));
      }
    }
    return Json.write(list);
  }

  static void verifyWithZarrPython(Path manifest) throws Exception {
    File python = new File("/usr/bin/python3");
    Assumptions.assumeTrue(python.canExecute(), "no /usr/bin/python3: zarr-python check skipped");
    Process check = new ProcessBuilder(python.getPath(), "-c", "import zarr").start();
    Assumptions.assumeTrue(check.waitFor() == 0, "zarr-python is not installed: check skipped");
    Process p = new ProcessBuilder(python.getPath(), "integration-tests/verify_with_zarr_python.py",
        manifest.toString()).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
    }
    assertEquals(0, p.exitValue(), "zarr-python disagrees:\n" + output);
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
