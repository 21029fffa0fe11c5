package io.github.sparkzarr.spark;

import static io.github.sparkzarr.spark.AggregatePushdownTest.assertRowsEqual;
import static io.github.sparkzarr.spark.AggregatePushdownTest.pushed;
import static io.github.sparkzarr.spark.AggregatePushdownTest.sorted;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscCname;
import io.github.sparkzarr.zarr.codec.blosc.BloscCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscShuffle;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Aggregates computed in the scan from blosc chunks decoded block by block (summed straight from
 * the byte-shuffled blocks) answer what Spark computes from the rows.
 *
 * <p>The store: y (23, chunks 5) and x (70, chunks 30), so edge chunks on both dimensions; over
 * (y, x) in blosc with 256-byte blocks (a block ends inside a row, the last block of a chunk is
 * partial): f float32 (fill NaN, byte shuffle, some NaNs, chunk 0.1 missing), v float64 (fill -1,
 * zstd, byte shuffle, some -1 and NaN values, chunk 2.0 missing), m float32 (no fill value,
 * missing_value 7), w int32 and l int64 (byte shuffle), b float64 (bit shuffle).
 */
class BloscAggregatePushdownTest extends SparkTestBase {
  private static String store;

  @BeforeAll
  static void write() throws Exception {
    Path dir = Files.createTempDirectory("zarr-blosc-aggregates").resolve("agg.zarr");
    store = dir.toString();
    HadoopStore s = new HadoopStore(store, new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    BloscCodec lz4 = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 256, 0);
    BloscCodec zstd = new BloscCodec(BloscCname.ZSTD, 3, BloscShuffle.SHUFFLE, 256, 0);
    BloscCodec bit = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.BITSHUFFLE, 256, 0);
    ZarrArray y = array(s, "y", "<f8", new long[] {23}, new int[] {5}, List.of("y"), null, lz4, null);
    ZarrArray x = array(s, "x", "<f8", new long[] {70}, new int[] {30}, List.of("x"), null, lz4, null);
    long[] shape = {23, 70};
    int[] chunks = {5, 30};
    List<String> dims = List.of("y", "x");
    ZarrArray f = array(s, "f", "<f4", shape, chunks, dims, Double.NaN, lz4, null);
    ZarrArray v = array(s, "v", "<f8", shape, chunks, dims, -1.0, zstd, null);
    ZarrArray m = array(s, "m", "<f4", shape, chunks, dims, null, lz4, 7.0);
    ZarrArray w = array(s, "w", "<i4", shape, chunks, dims, null, lz4, null);
    ZarrArray l = array(s, "l", "<i8", shape, chunks, dims, null, zstd, null);
    ZarrArray b = array(s, "b", "<f8", shape, chunks, dims, Double.NaN, bit, null);
    ZarrPushdownTest.writeAll(y, (i, j) -> 100.0 - i);
    ZarrPushdownTest.writeAll(x, (i, j) -> i * 0.5);
    ZarrPushdownTest.writeAll(f, (i, j) -> (i * j) % 7 == 3 ? Double.NaN : (i - j) * 0.1 + 1e-3 * j);
    ZarrPushdownTest.writeAll(v, (i, j) -> (i + j) % 11 == 0 ? -1 : (i + j) % 13 == 0 ? Double.NaN
        : i * 1000.0 + j / 3.0);
    ZarrPushdownTest.writeAll(m, (i, j) -> (i + 2 * j) % 9 == 0 ? 7 : i * 0.25 - j * 0.125);
    ZarrPushdownTest.writeAll(w, (i, j) -> i * j - 50);
    ZarrPushdownTest.writeAll(l, (i, j) -> i * 1e6 - j);
    ZarrPushdownTest.writeAll(b, (i, j) -> i / 3.0 + j);
    s.delete("f/0.1");
    s.delete("v/2.0");
    ZarrHierarchy.consolidateV2(s);
    dir.toFile().deleteOnExit();
  }

  /**
   * int64 (k, z), int32 (i) and uint32 (u, near 2^32) over rows of 1,024 (chunks 4 x 1024 of a 20 x
   * 2100 array, both signs, so every byte plane varies): sums and counts alone add each blosc byte
   * plane as stored, in 256-byte blocks (k, i) or whole chunks (z, u); with MIN/MAX or a grouped x
   * the planes are un-shuffled first. int32 (im) and uint32 (um) with their fill value stored in
   * places are summed by planes too, the fill's matches taken off. Spark's answers
   * either way, under ANSI rules. The sums stay below 2^53: Spark's own AVG of longs adds doubles,
   * exact only there.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(k), count(k), avg(k), count(*), sum(z), avg(z), sum(i), avg(u) FROM t",
      "SELECT y, sum(k), avg(k), sum(z), sum(i), sum(u), count(*) FROM t GROUP BY y",
      "SELECT sum(im), count(im), sum(um), count(um), count(*) FROM t",
      "SELECT y, sum(im), count(um), sum(um) FROM t GROUP BY y",
      "SELECT count(im), count(um), count(*) FROM t",
      "SELECT sum(k), sum(z), count(z) FROM t WHERE x_index >= 1000 AND y_index < 13",
      "SELECT sum(k), min(k), max(z), sum(z) FROM t",
      "SELECT x, sum(k), sum(z) FROM t GROUP BY x",
  })
  void int64SumsOfBytePlanesAnswerAsSparkDoes(String sql) throws Exception {
    Path dir = Files.createTempDirectory("zarr-blosc-int64").resolve("wide.zarr");
    HadoopStore s = new HadoopStore(dir.toString(), new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    BloscCodec small = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 256, 0);
    BloscCodec whole = new BloscCodec(BloscCname.ZSTD, 1, BloscShuffle.SHUFFLE, 0, 0);
    ZarrPushdownTest.writeAll(array(s, "y", "<f8", new long[] {20}, new int[] {4}, List.of("y"), null, small, null),
        (i, j) -> i * 2.0);
    ZarrPushdownTest.writeAll(array(s, "x", "<f8", new long[] {2100}, new int[] {1024}, List.of("x"), null, small, null),
        (i, j) -> i * 0.5);
    long[] shape = {20, 2100};
    int[] chunks = {4, 1024};
    List<String> dims = List.of("y", "x");
    ZarrPushdownTest.writeAll(array(s, "k", "<i8", shape, chunks, dims, null, small, null),
        (i, j) -> (i - 10) * 1e10 + j * 1e3 + j % 7);
    ZarrPushdownTest.writeAll(array(s, "z", "<i8", shape, chunks, dims, null, whole, null),
        (i, j) -> (j % 3 - 1) * 1.7e11 - i);
    ZarrPushdownTest.writeAll(array(s, "i", "<i4", shape, chunks, dims, null, small, null),
        (i, j) -> (i - 10) * 1e8 - j * 7);
    ZarrPushdownTest.writeAll(array(s, "u", "<u4", shape, chunks, dims, null, whole, null),
        (i, j) -> 4e9 - i * 1e7 - j);
    // the fill value masked (missing to Spark) where stored: counted in the planes, taken off their sums
    ZarrPushdownTest.writeAll(array(s, "im", "<i4", shape, chunks, dims, -7.0, small, null),
        (i, j) -> j % 9 == 0 ? -7 : (i - 10) * 1e8 - j * 7);
    ZarrPushdownTest.writeAll(array(s, "um", "<u4", shape, chunks, dims, 4e9, whole, null),
        (i, j) -> (i + j) % 5 == 0 ? 4e9 : 4e9 - i * 1e7 - j);
    ZarrHierarchy.consolidateV2(s);
    // int64 sums are computed in the scan only under ANSI rules (Spark 4's default, not 3.5's)
    String previous = spark().conf().get("spark.sql.ansi.enabled");
    try {
      spark().conf().set("spark.sql.ansi.enabled", "true");
      Dataset<Row> on = AggregatePushdownTest.query(dir.toString(), sql, true);
      assertTrue(pushed(on), () -> "not pushed: " + plan(on));
      assertRowsEqual(sorted(AggregatePushdownTest.query(dir.toString(), sql, false)), sorted(on), sql);
    } finally {
      spark().conf().set("spark.sql.ansi.enabled", previous);
    }
  }

  private static ZarrArray array(HadoopStore s, String name, String dtype, long[] shape, int[] chunks,
      List<String> dims, Double fill, BloscCodec blosc, Double missingValue) throws Exception {
    DataType t = NumpyDtype.parse(dtype);
    var fillJson = fill == null ? null
        : fill.isNaN() ? Json.nodes().textNode("NaN") : Json.nodes().numberNode(fill);
    var attrs = Json.object();
    attrs.putArray("_ARRAY_DIMENSIONS").addAll(dims.stream().map(Json.nodes()::textNode).toList());
    if (missingValue != null) {
      attrs.put("missing_value", missingValue);
    }
    ArrayMetadata md = new ArrayMetadata(2, shape, chunks, t, FillValue.parseV2(fillJson, t),
        new V2ChunkCodec(t, false, List.of(), blosc), ChunkKeyEncoding.v2('.'), dims, attrs);
    ZarrArray a = ZarrHierarchy.writeArrayV2(s, name, md);
    assertTrue(a.decodesByBlock());
    return a;
  }

  private static Dataset<Row> query(String sql, boolean pushDown, String... options) {
    return AggregatePushdownTest.query(store, sql, pushDown, options);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(f), count(f), count(*), min(f), max(f), avg(f) FROM t",
      "SELECT sum(v), count(v), min(v), max(v), sum(m), count(m), min(m), max(m) FROM t",
      "SELECT min(w), max(w), count(w), sum(w), avg(w), min(l), max(l), sum(b), min(b), max(b) FROM t",
      "SELECT y, sum(f), avg(v), sum(m), min(w), max(l), count(*) FROM t GROUP BY y",
      "SELECT x, sum(f), max(f), min(v), sum(v), count(m), avg(b) FROM t GROUP BY x",
      "SELECT y, x, count(v), sum(f), max(m), sum(b) FROM t GROUP BY y, x",
      "SELECT x_index, avg(f), count(v) FROM t GROUP BY x_index",
  })
  void blockByBlockAggregatesAnswerAsSparkDoes(String sql) {
    Dataset<Row> on = query(sql, true);
    assertTrue(pushed(on), () -> "not pushed: " + plan(on));
    assertRowsEqual(sorted(query(sql, false)), sorted(on), sql);
  }

  /**
   * Exact filters on dimensions: the box starts inside chunks (and inside blosc blocks), so the
   * block-by-block feeder starts at the box's offset in the chunk; complete in one partition by
   * default, partial with a partition per chunk (maxPartitionBytes=1).
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(f), count(f), min(v), max(v), sum(v), sum(m), count(*) FROM t WHERE y_index BETWEEN 3 AND 12 AND x_index >= 17 AND x_index < 52",
      "SELECT y, sum(f), max(l), sum(b), count(v) FROM t WHERE y <= 96.0 AND x > 7.25 AND x < 31.0 GROUP BY y",
      "SELECT x_index, avg(f), min(w), sum(w), sum(v) FROM t WHERE x_index IN (29, 30, 31, 32) AND y_index > 20 GROUP BY x_index",
      "SELECT sum(f), sum(b), count(*) FROM t WHERE x_index = 45 AND y_index = 7",
  })
  void boxesInsideChunksAnswerAsSparkDoes(String sql) {
    for (String maxPartitionBytes : new String[] {"128m", "1"}) {
      Dataset<Row> on = query(sql, true, "maxPartitionBytes", maxPartitionBytes);
      String plan = plan(on);
      assertTrue(pushed(on), () -> "not pushed: " + plan);
      assertTrue(!plan.contains(" Filter "), plan);
      assertRowsEqual(sorted(query(sql, false, "maxPartitionBytes", maxPartitionBytes)), sorted(on),
          sql + " maxPartitionBytes=" + maxPartitionBytes);
    }
  }

  @Test
  void undecodedValuesAreSummedAsStored() {
    String sql = "SELECT sum(f), max(f), min(f), count(f), sum(v), min(v), sum(m), count(m) FROM t";
    Dataset<Row> on = query(sql, true, "decodeCF", "false");
    assertTrue(pushed(on));
    List<Row> rows = on.collectAsList();
    assertTrue(Double.isNaN(rows.get(0).getDouble(0)), "NaN is summed when not masked");
    assertRowsEqual(query(sql, false, "decodeCF", "false").collectAsList(), rows, sql);
  }
}
