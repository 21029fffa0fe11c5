package io.github.sparkzarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.HadoopStore;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Aggregates computed in the scan (option pushDownAggregate, on by default) answer exactly what
 * Spark computes from the rows, and the plan shows they were pushed.
 *
 * <p>The store: coordinates y (23, chunks 5) and x (30, chunks 7); over (y, x), with edge chunks
 * on both dimensions: v float64 (fill -1, masked, some values -1, chunk 1.1 never written), f
 * float32 (fill NaN, masked, some NaN values, chunk 0.2 never written), w int32 (no fill value), k
 * int32 (fill 7, masked, some values 7, chunk 2.3 never written, values near the int32 limits),
 * g float32 on a different chunk grid (4 x 9), which the scan reads by region (fill NaN, masked,
 * some NaN values, chunk 2.1 never written), and the small and
 * unsigned integers images and counts use: b int8, u uint8 (fill 255, masked), h int16, q uint16
 * (fill 0, masked, chunk 0.0 never written), n uint32 (values above 2^31), l int64 (values near
 * 2^58 of both signs) and o int64 (values near 2^62, whose sum overflows a long); and integers
 * packed by CF scaling, which read as floating point: p int16 (scale 0.01, offset 273.15, fill
 * -32768 masked, some values missing: float32 values, unpacked in float arithmetic), r int32
 * (scale -0.5, which reverses the order, offset 10, no fill: float64 values) and e uint8 (scale 2,
 * no offset, fill 0 masked, chunk 1.0 never written); a float16 (fill NaN, masked, some NaN values,
 * subnormals and values near its largest, chunk 3.1 never written).
 */
class AggregatePushdownTest extends SparkTestBase {
  private static String store;

  @BeforeAll
  static void write() throws Exception {
    sharedStore();
  }

  /** The store, written once for the suite: ValueFilterPushdownTest reads it too. */
  static synchronized String sharedStore() throws Exception {
    if (store == null) {
      store = writeStore();
    }
    return store;
  }

  private static String writeStore() throws Exception {
    Path dir = Files.createTempDirectory("zarr-aggregates").resolve("agg.zarr");
    String store = dir.toString();
    HadoopStore s = new HadoopStore(store, new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    ZarrArray y = array(s, "y", "<f8", new long[] {23}, new int[] {5}, List.of("y"), null);
    ZarrArray x = array(s, "x", "<f8", new long[] {30}, new int[] {7}, List.of("x"), null);
    long[] shape = {23, 30};
    List<String> dims = List.of("y", "x");
    ZarrArray v = array(s, "v", "<f8", shape, new int[] {5, 7}, dims, -1.0);
    ZarrArray f = array(s, "f", "<f4", shape, new int[] {5, 7}, dims, Double.NaN);
    ZarrArray w = array(s, "w", "<i4", shape, new int[] {5, 7}, dims, null);
    ZarrArray g = array(s, "g", "<f4", shape, new int[] {4, 9}, dims, Double.NaN);
    ZarrArray k = array(s, "k", "<i4", shape, new int[] {5, 7}, dims, 7.0);
    ZarrArray b = array(s, "b", "|i1", shape, new int[] {5, 7}, dims, null);
    ZarrArray u = array(s, "u", "|u1", shape, new int[] {5, 7}, dims, 255.0);
    ZarrArray h = array(s, "h", "<i2", shape, new int[] {5, 7}, dims, null);
    ZarrArray q = array(s, "q", "<u2", shape, new int[] {5, 7}, dims, 0.0);
    ZarrArray n = array(s, "n", "<u4", shape, new int[] {5, 7}, dims, null);
    ZarrArray l = array(s, "l", "<i8", shape, new int[] {5, 7}, dims, null);
    ZarrArray o = array(s, "o", "<i8", shape, new int[] {5, 7}, dims, null);
    ZarrArray p = packed(s, "p", "<i2", -32768, 0.01, 273.15);
    ZarrArray r = packed(s, "r", "<i4", null, -0.5, 10.0);
    ZarrArray e = packed(s, "e", "|u1", 0, 2.0, null);
    ZarrArray a = array(s, "a", "<f2", shape, new int[] {5, 7}, dims, Double.NaN);
    ZarrPushdownTest.writeAll(y, (i, j) -> 100.0 - i);
    ZarrPushdownTest.writeAll(x, (i, j) -> i * 0.5);
    ZarrPushdownTest.writeAll(v, (i, j) -> (i + j) % 11 == 0 ? -1 : i * 1000.0 + j / 3.0);
    ZarrPushdownTest.writeAll(f, (i, j) -> (i * j) % 7 == 3 ? Double.NaN : (i - j) * 0.1 + 1e-3 * j);
    ZarrPushdownTest.writeAll(w, (i, j) -> i * j - 50);
    ZarrPushdownTest.writeAll(g, (i, j) -> (i * j) % 5 == 2 ? Double.NaN : i + j * 0.1);
    ZarrPushdownTest.writeAll(k, (i, j) -> (i + 2 * j) % 9 == 0 ? 7 : j % 2 == 0 ? Integer.MAX_VALUE - i : Integer.MIN_VALUE + j);
    ZarrPushdownTest.writeAll(b, (i, j) -> (i * 7 + j * 13) % 256 - 128);
    ZarrPushdownTest.writeAll(u, (i, j) -> (i * 11 + j * 5) % 256);
    ZarrPushdownTest.writeAll(h, (i, j) -> (i * 3001 + j * 977) % 65536 - 32768);
    ZarrPushdownTest.writeAll(q, (i, j) -> (i * 2999 + j * 1013) % 65536);
    ZarrPushdownTest.writeAll(n, (i, j) -> 4294967295L - i * 1000003L - j);
    ZarrPushdownTest.writeAll(l, (i, j) -> (i + j) % 3 == 0 ? (1L << 58) + i * 4096 : -(1L << 57) - j * 8192);
    ZarrPushdownTest.writeAll(o, (i, j) -> (1L << 62) + i * 4096);
    ZarrPushdownTest.writeAll(p, (i, j) -> (i + 3 * j) % 10 == 4 ? -32768 : (i * 997 + j * 311) % 20000 - 9000);
    ZarrPushdownTest.writeAll(r, (i, j) -> (i * 7919L + j * 104729L) % 2000001 - 1000000);
    ZarrPushdownTest.writeAll(e, (i, j) -> (i * 5 + j * 3) % 256);
    // float16: NaN (missing), its largest value, subnormals and values it rounds
    ZarrPushdownTest.writeAll(a, (i, j) -> (i + j) % 8 == 5 ? Double.NaN : i == 7 ? 65504 - j * 32
        : j == 3 ? 6e-8 * (i + 1) : (i - j) * 0.37);
    s.delete("v/1.1");
    s.delete("f/0.2");
    s.delete("k/2.3");
    s.delete("q/0.0");
    s.delete("e/1.0");
    s.delete("g/2.1");
    s.delete("a/3.1");
    ZarrHierarchy.consolidateV2(s);
    dir.toFile().deleteOnExit();
    return store;
  }

  private static ZarrArray array(HadoopStore s, String name, String dtype, long[] shape, int[] chunks,
      List<String> dims, Double fill) throws Exception {
    return ZarrPushdownTest.array(s, name, dtype, shape, chunks, dims, fill == null ? null
        : fill.isNaN() ? Json.nodes().textNode("NaN") : Json.nodes().numberNode(fill));
  }

  /** A (y, x) integer array packed by CF scaling ({@code scale_factor}, {@code add_offset} if not null). */
  private static ZarrArray packed(HadoopStore s, String name, String dtype, Integer fill, double scale,
      Double offset) throws Exception {
    DataType t = NumpyDtype.parse(dtype);
    ObjectNode attributes = Json.object().put("scale_factor", scale);
    if (offset != null) {
      attributes.put("add_offset", offset);
    }
    ArrayMetadata md = new ArrayMetadata(2, new long[] {23, 30}, new int[] {5, 7}, t,
        FillValue.parseV2(fill == null ? null : Json.nodes().numberNode(fill), t),
        new V2ChunkCodec(t, false, List.of(), null), ChunkKeyEncoding.v2('.'), List.of("y", "x"), attributes);
    return ZarrHierarchy.writeArrayV2(s, name, md);
  }

  private static Dataset<Row> query(String sql, boolean pushDown, String... options) {
    return query(store, sql, pushDown, options);
  }

  /** {@code sql} over view t: the (y, x) store {@code path} with its position columns. */
  static Dataset<Row> query(String path, String sql, boolean pushDown, String... options) {
    org.apache.spark.sql.DataFrameReader reader = zarrReader(options).option("pushDownAggregate", pushDown);
    // The hidden position columns are visible in a view only when selected.
    reader.load(path).select("*", "y_index", "x_index").createOrReplaceTempView("t");
    return spark().sql(sql);
  }

  static boolean pushed(Dataset<Row> df) {
    return plan(df).contains("partialAggregates");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(v), count(v), count(*), min(v), max(v), avg(v) FROM t",
      "SELECT sum(f), count(f), min(f), max(f), avg(f), sum(g), min(g), max(w), min(w), count(w) FROM t",
      "SELECT y, sum(v), avg(f), min(w), max(w), count(*) FROM t GROUP BY y",
      "SELECT x, sum(f), max(f), min(f), count(g), avg(g) FROM t GROUP BY x",
      "SELECT y, x, count(v), sum(g), max(f) FROM t GROUP BY y, x",
      "SELECT y_index, avg(v), count(x) FROM t GROUP BY y_index",
      "SELECT x, y FROM t GROUP BY x, y",
      "SELECT y, y_index, sum(v), count(*) FROM t GROUP BY y, y_index", // two keys of one dimension
      "SELECT avg(f) * 2, max(v) - min(v) FROM t",
      "SELECT sum(w), avg(w), sum(k), avg(k), count(k), min(k), max(k) FROM t",
      "SELECT y, sum(k), avg(k), sum(w) FROM t GROUP BY y",
      "SELECT x, sum(k), count(k) FROM t WHERE y_index BETWEEN 3 AND 17 AND x > 2 GROUP BY x",
      "SELECT sum(b), min(b), max(b), avg(b), sum(u), min(u), max(u), count(u), avg(u) FROM t",
      "SELECT sum(h), min(h), max(h), sum(q), min(q), max(q), count(q), sum(n), min(n), max(n), avg(n) FROM t",
      "SELECT y, max(u), min(q), sum(h), avg(n), count(u) FROM t GROUP BY y",
      "SELECT x_index, sum(q), max(b), min(n) FROM t WHERE y_index >= 4 AND x_index < 22 GROUP BY x_index",
      "SELECT sum(p), count(p), min(p), max(p), avg(p), sum(r), min(r), max(r), avg(r), sum(e), min(e), max(e), count(e) FROM t",
      "SELECT y, sum(p), min(p), max(p), count(p), min(r), max(r), avg(e) FROM t GROUP BY y",
      "SELECT y, x, min(p), max(r), sum(e) FROM t GROUP BY y, x",
      // Rows of a map over integers and packed integers, masked or not (RowAccumulator).
      "SELECT y, x, sum(k), avg(u), count(q), avg(p), sum(b), avg(e), count(k), avg(w) FROM t GROUP BY y, x",
      // float16, widened to float32 in the scan
      "SELECT sum(a), count(a), min(a), max(a), avg(a), count(*) FROM t",
      "SELECT y, sum(a), min(a), max(a) FROM t GROUP BY y",
      "SELECT x, avg(a), count(a), max(a) FROM t WHERE y_index > 2 GROUP BY x",
      "SELECT y, x, sum(a), min(a) FROM t GROUP BY y, x",
  })
  void pushedAggregatesAnswerAsSparkDoes(String sql) {
    Dataset<Row> on = query(sql, true);
    assertTrue(pushed(on), () -> "not pushed: " + plan(on));
    List<Row> expected = sorted(query(sql, false));
    assertFalse(pushed(query(sql, false)));
    assertRowsEqual(expected, sorted(on), sql);
    // The store is small, so the driver computes each of these; tasks compute the same.
    Dataset<Row> inTasks = query(sql, true, "driverAggregateMaxBytes", "0");
    assertTrue(plan(inTasks).contains("BatchScan"), () -> "not in tasks: " + plan(inTasks));
    assertRowsEqual(expected, sorted(inTasks), sql + " (in tasks)");
  }

  /**
   * A map over g read as the only variable, so the scan is planned on g's own chunks: rows of 9
   * floats, 8 of them compared and summed in SIMD lanes (RowAccumulator), with NaN missing and a
   * chunk never written (RowAccumulatorTest covers ties of 0.0 and -0.0).
   */
  @Test
  void floatMapRowsOnTheirOwnChunksAnswerAsSparkDoes() {
    String sql = "SELECT y, x, min(g), max(g), avg(g), sum(g), count(g) FROM t GROUP BY y, x";
    Dataset<Row> on = query(store, sql, true, "variables", "g");
    assertTrue(plan(on).contains("partialAggregates"));
    assertRowsEqual(sorted(query(store, sql, false, "variables", "g")), sorted(on), sql);
  }

  /**
   * Arithmetic inside aggregates: weighted sums, and a variable combined with a constant (each
   * value as Spark computes it; extremes only when the combination is increasing). Spark 3.5 hands
   * arithmetic to data sources only under ANSI rules (Spark 4's default).
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT x, sum(p * cos(radians(y))), sum(cos(radians(y))), max(e) FROM t WHERE y_index < 20 GROUP BY x",
      "SELECT avg(f - 273.15), sum(v * 2.5), min(f + 1.5), max(v / 4.0), count(f - 1.0), sum(100.0 - g), avg(p - 273.15) FROM t",
      "SELECT y, avg(g * 0.5), max(f - 1.0), min(p * 3.0), sum(r + 0.25), max(e / 3.0) FROM t GROUP BY y",
      "SELECT x, sum(v - 1.0), avg(v), min(v - 1e300), max(f * 1e-30) FROM t WHERE y_index < 10 GROUP BY x",
  })
  void arithmeticInsideAggregatesUnderAnsiRules(String sql) {
    String previous = spark().conf().get("spark.sql.ansi.enabled");
    try {
      spark().conf().set("spark.sql.ansi.enabled", "true");
      pushedAggregatesAnswerAsSparkDoes(sql);
    } finally {
      spark().conf().set("spark.sql.ansi.enabled", previous);
    }
  }

  /**
   * int64 sums are computed in the scan only under Spark's ANSI rules (Spark 4's default, not 3.5's),
   * where an overflow fails in the scan as it fails in Spark; without them Spark wraps the total
   * and keeps the sum.
   */
  @Test
  void int64SumsAreComputedInTheScanOnlyUnderAnsiRules() {
    String sql = "SELECT sum(l), avg(l), min(l), max(l) FROM t";
    String grouped = "SELECT x, sum(l) FROM t WHERE y_index < 20 GROUP BY x";
    String overflow = "SELECT sum(o) FROM t";
    String previous = spark().conf().get("spark.sql.ansi.enabled");
    try {
      spark().conf().set("spark.sql.ansi.enabled", "true");
      for (String q : new String[] {sql, grouped}) {
        Dataset<Row> on = query(q, true);
        assertTrue(pushed(on), q);
        assertRowsEqual(sorted(query(q, false)), sorted(on), q);
      }
      assertTrue(pushed(query(overflow, true, "driverAggregateMaxBytes", "0")));
      // In a task, and on the driver, where it fails as Spark plans the query.
      for (String driverMax : new String[] {"0", "32m"}) {
        Exception inScan = assertThrows(Exception.class,
            () -> query(overflow, true, "driverAggregateMaxBytes", driverMax).collectAsList());
        assertTrue(rootMessage(inScan).contains("long overflow in SUM"), rootMessage(inScan));
      }
      assertThrows(Exception.class, () -> query(overflow, false).collectAsList());
      spark().conf().set("spark.sql.ansi.enabled", "false");
      Dataset<Row> off = query(overflow, true);
      assertFalse(pushed(off), "without ANSI rules Spark keeps int64 sums");
      assertRowsEqual(query(overflow, false).collectAsList(), off.collectAsList(), overflow);
    } finally {
      spark().conf().set("spark.sql.ansi.enabled", previous);
    }
  }

  private static String rootMessage(Throwable t) {
    StringBuilder all = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      all.append(c.getMessage()).append(" | ");
    }
    return all.toString();
  }

  @Test
  void undecodedNaNsCountAsSparkOrdersThem() {
    String sql = "SELECT sum(f), max(f), min(f), count(f), max(g) FROM t";
    Dataset<Row> on = query(sql, true, "decodeCF", "false");
    assertTrue(pushed(on));
    List<Row> rows = on.collectAsList();
    assertTrue(Double.isNaN(rows.get(0).getDouble(0)), "NaN is summed when not masked");
    assertTrue(Float.isNaN(rows.get(0).getFloat(1)), "NaN is the largest value");
    assertFalse(Float.isNaN(rows.get(0).getFloat(2)), "min skips NaN while other values exist");
    assertRowsEqual(query(sql, false, "decodeCF", "false").collectAsList(), rows, sql);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(v) FROM t WHERE x > 3 OR y < 90", // not exact: Spark filters after the scan
      "SELECT sum(v) FROM t WHERE x > 3 AND abs(w) > 0", // a function of a variable
      "SELECT sum(v), count(*) FROM t WHERE x IN (1.0, 5.0, 9.5)", // exact, but not one box
      "SELECT count(DISTINCT v) FROM t",
      "SELECT min(1.0 - f) FROM t", // decreasing: the extreme of the results is not that of f
      "SELECT max(f * -2.0), sum(f) FROM t",
      "SELECT sum(1.0 / g) FROM t WHERE y_index > 0", // Spark divides by zero into null or fails
      "SELECT sum(w - 1.5) FROM t", // an integer variable
  })
  void whatCannotBeComputedInTheScanIsLeftToSpark(String sql) {
    Dataset<Row> on = query(sql, true);
    assertFalse(pushed(on));
    assertRowsEqual(sorted(query(sql, false)), sorted(on), sql);
  }

  /**
   * Exact filters on dimension and position columns (comparisons with literals of the column's
   * type, IN, BETWEEN, AND, NOT) are evaluated by the scan, so aggregates are computed in it too;
   * the box can start inside chunks and cover edge chunks, on both grids (v, f, w whole chunks; g
   * by region). By default the store is one partition, so the aggregation is complete in the scan
   * (no final aggregate in Spark); with maxPartitionBytes=1 one partition per chunk, merged by
   * Spark.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(v), count(*), min(f), max(w) FROM t WHERE x > 3",
      "SELECT sum(v), count(v), sum(f), count(f), sum(g), min(g), max(g) FROM t WHERE y_index >= 3 AND y_index < 9 AND x >= 4.0 AND x < 11",
      "SELECT y, sum(f), count(g), max(v) FROM t WHERE y BETWEEN 80 AND 95 AND x_index < 12 GROUP BY y",
      "SELECT x_index, min(v), max(f), count(*) FROM t WHERE x_index BETWEEN 6 AND 15 AND y <= 90.5 GROUP BY x_index",
      "SELECT count(*), sum(v), min(w) FROM t WHERE x_index = 7",
      "SELECT sum(v), count(*), max(f) FROM t WHERE x > 1000",
      "SELECT avg(v), avg(g), count(*) FROM t WHERE NOT (y_index < 4) AND x_index <= 20",
      "SELECT sum(f), count(*) FROM t WHERE y = 97.0 AND x <=> 2.5",
      "SELECT sum(v), max(w) FROM t WHERE x IS NOT NULL AND y_index > 18",
  })
  void exactFiltersLetTheScanAggregate(String sql) {
    for (String maxPartitionBytes : new String[] {"128m", "1"}) {
      Dataset<Row> on = query(sql, true, "maxPartitionBytes", maxPartitionBytes);
      String plan = plan(on);
      assertTrue(pushed(on), () -> "not pushed: " + plan);
      assertFalse(plan.contains(" Filter "), () -> "a filter left to Spark: " + plan);
      // Complete exactly when one partition is planned (AVG too: Spark divides SUM by COUNT).
      java.util.regex.Matcher m = java.util.regex.Pattern.compile("chunks=(\\d+)/").matcher(plan);
      assertTrue(m.find(), plan);
      boolean complete = maxPartitionBytes.equals("128m") || Long.parseLong(m.group(1)) <= 1;
      assertEquals(complete, plan.contains(" complete"), plan);
      // Otherwise the partitions' few rows are merged: by the driver (DriverMerge), not Spark's aggregate.
      assertEquals(complete, !plan.contains("DriverMerge"), plan);
      assertFalse(plan.contains("HashAggregate"), plan);
      Dataset<Row> off = query(sql, false, "maxPartitionBytes", maxPartitionBytes);
      assertFalse(pushed(off));
      assertRowsEqual(sorted(off), sorted(on), sql + " maxPartitionBytes=" + maxPartitionBytes);
    }
  }

  /** Spark fails a division by zero under ANSI rules and gives null without them, never infinity. */
  @Test
  void aDivisionByZeroIsLeftToSpark() {
    assertFalse(pushed(query("SELECT sum(f / 0.0), max(v / 0.0) FROM t", true)));
  }

  @Test
  void anEmptyBoxGivesNoGroups() {
    String sql = "SELECT y_index, sum(v), count(*) FROM t WHERE y_index > 100 GROUP BY y_index";
    Dataset<Row> on = query(sql, true);
    assertTrue(pushed(on));
    assertTrue(on.collectAsList().isEmpty());
    assertTrue(query(sql, false).collectAsList().isEmpty());
  }

  static List<Row> sorted(Dataset<Row> df) {
    List<Row> rows = new ArrayList<>(df.collectAsList());
    rows.sort(Comparator.comparing(Row::toString));
    return rows;
  }

  /** Equal rows; doubles may differ in the last bits, as the order Spark merges partitions varies. */
  static void assertRowsEqual(List<Row> expected, List<Row> actual, String sql) {
    assertEquals(expected.size(), actual.size(), sql);
    for (int r = 0; r < expected.size(); r++) {
      Row e = expected.get(r);
      Row a = actual.get(r);
      assertEquals(e.length(), a.length(), sql);
      for (int c = 0; c < e.length(); c++) {
        Object ev = e.get(c);
        Object av = a.get(c);
        if (ev instanceof Double d && av instanceof Double d2 && !d.isNaN()) {
          assertEquals(d, d2, Math.abs(d) * 1e-12, sql + " row " + r + " column " + c);
        } else {
          assertEquals(ev, av, sql + " row " + r + " column " + c);
        }
      }
    }
    assertFalse(expected.isEmpty(), sql);
  }
}
