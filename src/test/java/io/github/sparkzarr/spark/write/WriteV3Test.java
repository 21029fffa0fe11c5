package io.github.sparkzarr.spark.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.spark.SparkTestBase;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.v3.ExternalTools;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark writes Zarr v3 (the default) with each v3 compressor and with sharding, for every type
 * zarrita reads (bool, int8–int64, float32/64, strings); we read it back, and zarrita, an
 * independent v3 implementation, reads the same values.
 */
class WriteV3Test extends SparkTestBase {
  private static final int T = 7;
  private static final int Y = 5;

  /** t in [0,7), y in [0,5): i = 10t+y as int, d = i/4 as double, b = i odd. */
  private static Dataset<Row> grid() {
    return spark().sql("SELECT t, y, CAST(10 * t + y AS INT) AS i, (10 * t + y) / 4.0D AS d, "
        + "(10 * t + y) % 2 = 1 AS b, CAST(10 * t + y - 30 AS TINYINT) AS i8, "
        + "CAST(-(10 * t + y) AS SMALLINT) AS i16, (10 * t + y) * 10000000000L AS i64, "
        + "CAST((10 * t + y) / 8.0 AS FLOAT) AS f32, concat('s', t, '_', y) AS s "
        + "FROM range(" + T + ") a(t) CROSS JOIN range(" + Y + ") c(y)");
  }

  @Test
  void zarritaReadsWhatSparkWrites(@TempDir Path dir) throws Exception {
    ArrayNode entries = Json.nodes().arrayNode();
    String[][] cases = {
      {"zstd", "zstd", null}, {"blosc", "blosc", null}, {"gzip", "gzip", null},
      {"none", "none", null}, {"sharded", "zstd", "4,4"},
    };
    for (String[] c : cases) {
      String store = c[0] + ".zarr";
      var writer = grid().write().format("zarr").option("dimensions", "t,y").option("chunks", "2,2")
          .option("compressor", c[1]);
      if (c[2] != null) {
        writer = writer.option("shards", c[2]);
      }
      writer.save(dir.resolve(store).toString());
      String zarrJson = Files.readString(dir.resolve(store).resolve("i/zarr.json"));
      assertTrue(zarrJson.contains("\"zarr_format\" : 3"), zarrJson);
      List<Row> back = spark().read().format("zarr").load(dir.resolve(store).toString())
          .orderBy("t", "y").collectAsList();
      assertEquals(T * Y, back.size());
      for (Row r : back) {
        long i = 10 * r.getLong(0) + r.getLong(1);
        assertEquals(i, r.getInt(r.fieldIndex("i")), store);
        assertEquals(i / 4.0, r.getDouble(r.fieldIndex("d")), 0.0, store);
        assertEquals(i % 2 == 1, r.getBoolean(r.fieldIndex("b")), store);
        assertEquals((byte) (i - 30), r.getByte(r.fieldIndex("i8")), store);
        assertEquals((short) -i, r.getShort(r.fieldIndex("i16")), store);
        assertEquals(i * 10_000_000_000L, r.getLong(r.fieldIndex("i64")), store);
        assertEquals(i / 8.0f, r.getFloat(r.fieldIndex("f32")), 0.0f, store);
        assertEquals("s" + r.getLong(0) + "_" + r.getLong(1), r.getString(r.fieldIndex("s")), store);
      }
      entries.add(entry(dir, store, "i", "int32", c[2], ints()));
      entries.add(entry(dir, store, "d", "float64", c[2], doubles()));
      entries.add(entry(dir, store, "b", "bool", c[2], bools()));
      entries.add(entry(dir, store, "i8", "int8", c[2], values(1, i -> i - 30)));
      entries.add(entry(dir, store, "i16", "int16", c[2], values(2, i -> -i)));
      entries.add(entry(dir, store, "i64", "int64", c[2], values(8, i -> i * 10_000_000_000L)));
      entries.add(entry(dir, store, "f32", "float32", c[2], values(-4, i -> Float.floatToIntBits(i / 8.0f))));
      ObjectNode strings = entry(dir, store, "s", "string", c[2], strings());
      ((ObjectNode) strings.get("expected")).put("format", "json");
      entries.add(strings);
    }
    ObjectNode manifest = Json.object();
    manifest.set("arrays", entries);
    Files.write(dir.resolve("manifest.json"), Json.write(manifest));
    ExternalTools.verifyWithZarrita(dir.resolve("manifest.json"));
  }

  private static ObjectNode entry(Path dir, String store, String array, String type, String shards,
      byte[] expected) throws Exception {
    String file = store + "." + array + (type.equals("string") ? ".json" : ".bin");
    Files.write(dir.resolve(file), expected);
    ObjectNode e = Json.object().put("store", store).put("path", array).put("data_type", type);
    e.putArray("shape").add(T).add(Y);
    if (shards == null) {
      e.putArray("chunks").add(2).add(2);
    } else {
      e.putArray("chunks").add(4).add(4);
      e.putArray("inner_chunks").add(2).add(2);
    }
    e.putObject("expected").put("file", file).put("format", "raw");
    return e;
  }

  private static byte[] ints() {
    ByteBuffer b = ByteBuffer.allocate(T * Y * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int t = 0; t < T; t++) {
      for (int y = 0; y < Y; y++) {
        b.putInt(10 * t + y);
      }
    }
    return b.array();
  }

  private static byte[] doubles() {
    ByteBuffer b = ByteBuffer.allocate(T * Y * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (int t = 0; t < T; t++) {
      for (int y = 0; y < Y; y++) {
        b.putDouble((10 * t + y) / 4.0);
      }
    }
    return b.array();
  }

  /**
   * Little-endian values f(10t+y) in C order, {@code size} bytes each (-4: the int is float bits).
   */
  private static byte[] values(int size, java.util.function.LongUnaryOperator f) {
    ByteBuffer b = ByteBuffer.allocate(T * Y * Math.abs(size)).order(ByteOrder.LITTLE_ENDIAN);
    for (int t = 0; t < T; t++) {
      for (int y = 0; y < Y; y++) {
        long v = f.applyAsLong(10 * t + y);
        switch (Math.abs(size)) {
          case 1 -> b.put((byte) v);
          case 2 -> b.putShort((short) v);
          case 4 -> b.putInt((int) v);
          default -> b.putLong(v);
        }
      }
    }
    return b.array();
  }

  private static byte[] strings() {
    ArrayNode list = Json.nodes().arrayNode();
    for (int t = 0; t < T; t++) {
      for (int y = 0; y < Y; y++) {
        list.add("s" + t + "_" + y);
      }
    }
    return Json.write(list);
  }

  private static byte[] bools() {
    byte[] out = new byte[T * Y];
    for (int t = 0; t < T; t++) {
      for (int y = 0; y < Y; y++) {
        out[t * Y + y] = (byte) ((10 * t + y) % 2);
      }
    }
    return out;
  }

  /**
   * Option "filters" on floating-point variables (not on integers), and a
   * compressor v3 has no name for (lz4): written as zarr-python 3's numcodecs.* codecs, read back
   * by us, and decoded by numcodecs as zarr-python 3 runs it (generate_v3_numcodecs_corpus.py).
   */
  @Test
  void filtersAndNumcodecsCompressorsAsZarrPython3WritesThem(@TempDir Path dir) throws Exception {
    String store = dir.resolve("filtered.zarr").toString();
    grid().selectExpr("t", "y", "i", "d * 1.2345678 AS d", "CAST(f32 * 3.3 AS FLOAT) AS f32").write().format("zarr")
        .option("dimensions", "t,y").option("chunks", "2,2").option("compressor", "lz4")
        .option("filters", "[{\"id\": \"bitround\", \"keepbits\": 6}]").save(store);
    var codecs = Json.parse(Files.readAllBytes(dir.resolve("filtered.zarr/d/zarr.json")), "test", "zarr.json").get("codecs");
    assertEquals("[{\"name\":\"numcodecs.bitround\",\"configuration\":{\"keepbits\":6}},"
        + "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},"
        + "{\"name\":\"numcodecs.lz4\",\"configuration\":{\"acceleration\":1}}]", codecs.toString());
    for (String plain : List.of("i")) {
      String json = Files.readString(dir.resolve("filtered.zarr/" + plain + "/zarr.json"));
      assertTrue(!json.contains("bitround") && json.contains("numcodecs.lz4"), plain + ": " + json);
    }
    List<Row> back = spark().read().format("zarr").load(store).orderBy("t", "y").collectAsList();
    var numcodecs = Json.parse(ExternalTools.pythonOutput("integration-tests/generate_v3_numcodecs_corpus.py",
        "--dump", store, "d").getBytes(java.nio.charset.StandardCharsets.UTF_8), "numcodecs", "d");
    var numcodecsF32 = Json.parse(ExternalTools.pythonOutput("integration-tests/generate_v3_numcodecs_corpus.py",
        "--dump", store, "f32").getBytes(java.nio.charset.StandardCharsets.UTF_8), "numcodecs", "f32");
    assertEquals(T * Y, back.size());
    for (int k = 0; k < back.size(); k++) {
      Row r = back.get(k);
      long i = 10 * r.getLong(0) + r.getLong(1);
      double d = r.getDouble(r.fieldIndex("d"));
      assertEquals(numcodecs.get(k).doubleValue(), d, 0.0, "d at " + k);
      assertEquals(numcodecsF32.get(k).doubleValue(), r.getFloat(r.fieldIndex("f32")), 0.0, "f32 at " + k);
      assertEquals(i / 4.0 * 1.2345678, d, Math.abs(d) / 64, "6 bits kept of d at " + k);
      assertEquals(i, r.getInt(r.fieldIndex("i")), "integers are not filtered");
      if (i % 7 == 3) {
        assertTrue(d != i / 4.0 * 1.2345678, "bitround changed d at " + k);
      }
    }
  }
}
