package io.github.sparkzarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Reads numeric arrays of every format through {@code spark.read.format("zarr")} — v3 written by
 * zarrita, sharded v3 written by zarr-java, the 2022 v3 draft written by zarr-python 2.13, v1
 * written from the spec — and compares every value,
 * in C order, with the raw little-endian values the other implementation wrote down.
 */
class ZarrFormatsReadTest extends SparkTestBase {
  private static final Path CORPUS = Path.of("src/test/resources/corpus");
  private static final ObjectMapper JSON = new ObjectMapper();
  /** numpy-style codes of the numeric element types this test compares, by v3 name. */
  private static final Map<String, String> V3_TYPES = Map.of("int8", "|i1", "int16", "<i2",
      "int32", "<i4", "int64", "<i8", "uint8", "|u1", "uint16", "<u2", "uint32", "<u4",
      "float32", "<f4", "float64", "<f8");

  /** numpy types {@link #values} decodes (uint64 and float16 are compared by the core tests). */
  private static final java.util.regex.Pattern COMPARED =
      java.util.regex.Pattern.compile("[<>|](i[1248]|u[124]|f[48])");

  @TestFactory
  List<DynamicTest> v3ArraysWrittenByZarrita() throws Exception {
    List<DynamicTest> tests = numericV3Arrays("v3", false);
    assertTrue(tests.size() >= 20, "expected at least 20 numeric v3 arrays, found " + tests.size());
    return tests;
  }

  /** The rows of every numeric array of a v3 corpus, and with {@code sums} their sum computed in the scan. */
  private static List<DynamicTest> numericV3Arrays(String corpus, boolean sums) throws Exception {
    Path dir = CORPUS.resolve(corpus);
    JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode a : manifest.get("arrays")) {
      String type = V3_TYPES.get(a.path("data_type").asText());
      if (type != null && a.get("expected").get("format").asText().equals("raw")) {
        Path store = dir.resolve(a.get("store").asText());
        String path = a.get("path").asText();
        Path raw = dir.resolve(a.get("expected").get("file").asText());
        tests.add(DynamicTest.dynamicTest(path, () -> {
          check(store, path, type, raw, "3");
          if (sums) {
            checkSum(store, path, values(Files.readAllBytes(raw), type));
          }
        }));
      }
    }
    return tests;
  }

  @TestFactory
  List<DynamicTest> shardedArraysWrittenByZarrJava() throws Exception {
    Path dir = CORPUS.resolve("v3-sharded");
    JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode e : manifest.get("entries")) {
      JsonNode raw = e.get("expected").get("raw");
      String path = e.get("path").asText();
      tests.add(DynamicTest.dynamicTest(path, () -> check(dir, path, raw.get("dtype").asText(),
          dir.resolve(raw.get("file").asText()), null)));
    }
    assertEquals(8, tests.size());
    return tests;
  }

  @TestFactory
  List<DynamicTest> v3DraftArraysWrittenByZarrPython() throws Exception {
    Path dir = CORPUS.resolve("v3draft");
    JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode a : manifest.get("arrays")) {
      String dtype = a.get("dtype").asText();
      if (COMPARED.matcher(dtype).matches() && a.get("shape").size() > 0) {
        String le = (dtype.endsWith("1") ? "|" : "<") + dtype.substring(1);
        String store = a.get("store").asText();
        tests.add(DynamicTest.dynamicTest(store + "/" + a.get("path").asText(), () -> check(
            dir.resolve(store), a.get("path").asText(), le,
            dir.resolve(a.get("expected").get("file").asText()), null)));
      }
    }
    assertTrue(tests.size() >= 10, "expected at least 10 numeric draft arrays, found " + tests.size());
    return tests;
  }

  @TestFactory
  List<DynamicTest> v1ArraysWrittenFromTheSpec() throws Exception {
    Path dir = CORPUS.resolve("v1");
    JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode a : manifest.get("arrays")) {
      String dtype = a.get("dtype").asText();
      if (COMPARED.matcher(dtype).matches()) {
        String le = (dtype.endsWith("1") ? "|" : "<") + dtype.substring(1);
        tests.add(DynamicTest.dynamicTest(a.get("store").asText(), () -> check(
            dir.resolve(a.get("store").asText()), "", le,
            dir.resolve(a.get("expected").get("file").asText()), "1")));
      }
    }
    assertTrue(tests.size() >= 4, "expected at least 4 numeric v1 arrays, found " + tests.size());
    return tests;
  }

  /**
   * v2 arrays with numcodecs filters, written by zarr-python 2.13: their rows, and their sum
   * computed in the scan (where filters that only encode, bitround and quantize, are left out).
   */
  @TestFactory
  List<DynamicTest> v2FilteredArraysWrittenByZarrPython() throws Exception {
    Path dir = CORPUS.resolve("v2");
    JsonNode manifest = JSON.readTree(dir.resolve("manifest.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode a : manifest.get("arrays")) {
      String dtype = a.get("dtype").asText();
      if (a.path("filters").size() > 0 && COMPARED.matcher(dtype).matches() && dtype.charAt(0) != '>'
          && a.get("expected").get("format").asText().equals("raw")) {
        Path store = dir.resolve(a.get("store").asText());
        String path = a.get("path").asText();
        Path raw = dir.resolve(a.get("expected").get("file").asText());
        tests.add(DynamicTest.dynamicTest(path, () -> {
          check(store, path, dtype, raw, null);
          checkSum(store, path, values(Files.readAllBytes(raw), dtype));
        }));
      }
    }
    assertTrue(tests.stream().anyMatch(t -> t.getDisplayName().contains("bitround"))
        && tests.stream().anyMatch(t -> t.getDisplayName().contains("quantize")), "bitround and quantize arrays");
    return tests;
  }

  /**
   * v3 arrays with zarr-python 3's numcodecs.* codecs (integration-tests/generate_v3_numcodecs_corpus.py):
   * their rows, and their sum computed in the scan (bitround left out, delta and the others decoded).
   */
  @TestFactory
  List<DynamicTest> v3ArraysWithNumcodecsCodecs() throws Exception {
    List<DynamicTest> tests = numericV3Arrays("v3-numcodecs", true);
    assertEquals(15, tests.size(), "every array but the bool, raw_bytes and record ones");
    return tests;
  }

  /** v3 records ("struct", and zarr-python 3.0's "structured") read as struct columns, field by field. */
  @TestFactory
  List<DynamicTest> v3RecordsReadAsStructColumns() {
    Path dir = CORPUS.resolve("v3-numcodecs");
    return List.of("struct_zstd", "structured_legacy").stream().map(path -> DynamicTest.dynamicTest(path, () -> {
      Dataset<Row> df = spark().read().format("zarr").option("array", path)
          .load(dir.resolve("numcodecs.zarr").toAbsolutePath().toString());
      assertEquals("struct<a:int,b:double,c:smallint>", df.schema().apply(path).dataType().simpleString());
      List<Row> rows = new ArrayList<>(df.collectAsList());
      rows.sort((x, y) -> Long.compare(x.getLong(0), y.getLong(0)));
      ByteBuffer want = ByteBuffer.wrap(Files.readAllBytes(dir.resolve("expected/" + path + ".bin")))
          .order(ByteOrder.LITTLE_ENDIAN);
      assertEquals(want.capacity() / 13, rows.size());
      for (int i = 0; i < rows.size(); i++) {
        Row r = rows.get(i).getStruct(1);
        assertEquals(want.getInt(13 * i), r.getInt(0), "a of " + i);
        assertEquals(want.getDouble(13 * i + 4), r.getDouble(1), 0.0, "b of " + i);
        assertEquals(want.get(13 * i + 12) & 0xff, r.getShort(2), "c of " + i);
      }
    })).toList();
  }

  /** The sum of the array's values computed in the scan, against {@code want}'s, NaN for NaN. */
  private static void checkSum(Path store, String array, double[] want) {
    Dataset<Row> df = spark().read().format("zarr").option("array", array)
        .load(store.toAbsolutePath().toString());
    String value = df.columns()[df.columns().length - 1];
    double expected = 0;
    for (double w : want) {
      expected += w;
    }
    double got = ((Number) df.agg(org.apache.spark.sql.functions.sum(value)).first().get(0)).doubleValue();
    if (Double.isNaN(expected)) {
      assertTrue(Double.isNaN(got), "sum of " + array + ": " + got + ", expected NaN");
    } else {
      assertEquals(expected, got, Math.abs(expected) * 1e-9, "sum of " + array);
    }
  }

  /** A filter that needs one inner chunk of a shard fetches that chunk and the index, not the shard. */
  @org.junit.jupiter.api.Test
  void aSmallBoxFetchesOnlyTheInnerChunksItNeeds() throws Exception {
    Path dir = CORPUS.resolve("v3-sharded");
    String store = dir.toAbsolutePath().toString();
    long shardBytes = Files.size(dir.resolve("arrays/int32_gzip_end/c/0/0"));
    Dataset<Row> all = spark().read().format("zarr").option("array", "arrays/int32_gzip_end").load(store);
    String[] dims = all.columns();
    Dataset<Row> box = all.where(all.col(dims[0]).lt(4).and(all.col(dims[1]).lt(5)));
    assertEquals(20, box.collectAsList().size());
    Map<String, Long> metrics = scanMetrics(box);
    long fetched = metrics.get("bytesFetched");
    assertTrue(fetched > 0 && fetched < shardBytes,
        "fetched " + fetched + " bytes; the whole shard has " + shardBytes);
    all.collectAsList();
    assertTrue(scanMetrics(all).get("bytesFetched") > 3 * shardBytes, "a full scan reads every shard");
  }

  /** Reads the array through Spark and compares its values, ordered by position, with {@code raw}. */
  private static void check(Path store, String array, String type, Path raw, String format)
      throws Exception {
    var reader = spark().read().format("zarr");
    if (!array.isEmpty()) {
      reader = reader.option("array", array);
    }
    if (format != null) {
      reader = reader.option("zarr_format", format);
    }
    Dataset<Row> df = reader.load(store.toAbsolutePath().toString());
    // Sort on the driver by the position columns: no shuffle per array.
    int dims = df.columns().length - 1;
    List<Row> rows = new ArrayList<>(df.collectAsList());
    rows.sort((x, y) -> {
      for (int d = 0; d < dims; d++) {
        int c = Long.compare(x.getLong(d), y.getLong(d));
        if (c != 0) {
          return c;
        }
      }
      return 0;
    });
    double[] want = values(Files.readAllBytes(raw), type);
    assertEquals(want.length, rows.size(), "element count");
    for (int i = 0; i < want.length; i++) {
      double got = ((Number) rows.get(i).get(dims)).doubleValue();
      assertEquals(want[i], got, 0.0, "element " + i); // JUnit counts NaN equal to NaN
    }
  }

  private static double[] values(byte[] raw, String type) {
    ByteBuffer b = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
    int size = type.charAt(2) - '0';
    double[] out = new double[raw.length / size];
    for (int i = 0; i < out.length; i++) {
      int at = i * size;
      out[i] = switch (type.substring(1)) {
        case "i1" -> b.get(at);
        case "u1" -> b.get(at) & 0xff;
        case "i2" -> b.getShort(at);
        case "u2" -> b.getShort(at) & 0xffff;
        case "i4" -> b.getInt(at);
        case "u4" -> b.getInt(at) & 0xffffffffL;
        case "i8" -> b.getLong(at);
        case "f4" -> b.getFloat(at);
        case "f8" -> b.getDouble(at);
        default -> throw new IllegalArgumentException("unsupported type " + type);
      };
    }
    return out;
  }
}
