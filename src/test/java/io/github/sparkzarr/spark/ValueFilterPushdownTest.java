package io.github.sparkzarr.spark;

import static io.github.sparkzarr.spark.AggregatePushdownTest.assertRowsEqual;
import static io.github.sparkzarr.spark.AggregatePushdownTest.pushed;
import static io.github.sparkzarr.spark.AggregatePushdownTest.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Filters on variables' values evaluated in the scan (option pushDownValueFilters, on by default)
 * keep exactly the rows Spark's own filter keeps, so Spark runs no filter of its own and computes
 * aggregates in the scan past them. Every query is compared with the same query with both
 * pushdowns off. Most run over AggregatePushdownTest's store (every dtype, masked fill values, NaN,
 * packed integers, float16, a variable on another chunk grid, chunks never written, edge chunks);
 * the store here holds float32 values with NaN, infinities and both zeros unmasked, as Spark
 * orders them, a variable over one dimension only, and one decoded to timestamps.
 */
class ValueFilterPushdownTest extends SparkTestBase {
  private static final Pattern FILTER_NODE = Pattern.compile("\\bFilter\\b");
  private static String store;
  private static String special;
  /** One chunk of 96 x 128 float32 cells, every seventh run of three above 0: 12,288 groups. */
  private static String many;

  @BeforeAll
  static void write() throws Exception {
    store = AggregatePushdownTest.sharedStore();
    Path dir = Files.createTempDirectory("zarr-value-filters").resolve("z.zarr");
    special = dir.toString();
    HadoopStore s = new HadoopStore(special, new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    ZarrArray y = ZarrPushdownTest.array(s, "y", "<i8", new long[] {17}, new int[] {17}, List.of("y"), null);
    ZarrArray x = ZarrPushdownTest.array(s, "x", "<f8", new long[] {13}, new int[] {13}, List.of("x"), null);
    ZarrArray z = ZarrPushdownTest.array(s, "z", "<f4", new long[] {17, 13}, new int[] {6, 5}, List.of("y", "x"),
        null);
    ZarrArray d = ZarrPushdownTest.array(s, "d", "<f8", new long[] {13}, new int[] {13}, List.of("x"),
        Json.nodes().numberNode(-9));
    ObjectNode days = Json.object().put("units", "days since 2000-01-01");
    ArrayMetadata seenMetadata = new ArrayMetadata(2, new long[] {17, 13}, new int[] {6, 5}, NumpyDtype.parse("<i4"),
        FillValue.parseV2(Json.nodes().numberNode(-1), NumpyDtype.parse("<i4")),
        new V2ChunkCodec(NumpyDtype.parse("<i4"), false, List.of(), null), ChunkKeyEncoding.v2('.'), List.of("y", "x"),
        days);
    ZarrArray seen = ZarrHierarchy.writeArrayV2(s, "seen", seenMetadata);
    ZarrPushdownTest.writeAll(seen, (i, j) -> (i + j) % 6 == 0 ? -1 : i * 2 + j);
    double[] specials = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1.0, -1.0};
    ZarrPushdownTest.writeAll(y, (i, j) -> i * 10);
    ZarrPushdownTest.writeAll(x, (i, j) -> i * 0.25);
    ZarrPushdownTest.writeAll(z, (i, j) -> (i * 3 + j) % 5 == 0 ? specials[(int) ((i + j) % specials.length)]
        : (i - 8) * 0.75 + j * 0.125);
    ZarrPushdownTest.writeAll(d, (i, j) -> i % 4 == 1 ? -9 : i % 3 == 0 ? Double.NaN : i * 1.5);
    ZarrHierarchy.consolidateV2(s);
    dir.toFile().deleteOnExit();
    Path manyDir = Files.createTempDirectory("zarr-value-filters-many").resolve("m.zarr");
    many = manyDir.toString();
    HadoopStore m = new HadoopStore(many, new Configuration());
    ZarrHierarchy.writeGroupV2(m, "", null);
    ZarrPushdownTest.writeAll(ZarrPushdownTest.array(m, "y", "<i8", new long[] {96}, new int[] {96}, List.of("y"), null),
        (i, j) -> i);
    ZarrPushdownTest.writeAll(ZarrPushdownTest.array(m, "x", "<i8", new long[] {128}, new int[] {128}, List.of("x"),
        null), (i, j) -> i);
    ZarrPushdownTest.writeAll(ZarrPushdownTest.array(m, "v", "<f4", new long[] {96, 128}, new int[] {96, 128},
        List.of("y", "x"), null), (i, j) -> (i * 128 + j) % 7 - 3);
    // 4- and 8-byte integers in rows long enough for the SIMD extremes: int32 masked by its fill
    // (and holding its type's smallest value), uint32 above 2^31, int64 of both signs
    ZarrPushdownTest.writeAll(ZarrPushdownTest.array(m, "k", "<i4", new long[] {96, 128}, new int[] {96, 128},
        List.of("y", "x"), Json.nodes().numberNode(-1)), (i, j) -> (i * 131 + j * 17) % 97 == 0 ? -1
        : i == 5 && j == 77 ? Integer.MIN_VALUE : (i * 128 + j) * 7919L % 200001 - 100000);
    ZarrPushdownTest.writeAll(ZarrPushdownTest.array(m, "n", "<u4", new long[] {96, 128}, new int[] {96, 128},
        List.of("y", "x"), null), (i, j) -> (i * 128 + j) * 2654435761L % 4294967296L);
    ZarrPushdownTest.writeAll(ZarrPushdownTest.array(m, "l", "<i8", new long[] {96, 128}, new int[] {96, 128},
        List.of("y", "x"), null), (i, j) -> (i * 128 + j) * 6364136223L % 2000000000000L - 1000000000000L);
    ZarrHierarchy.consolidateV2(m);
    manyDir.toFile().deleteOnExit();
  }

  /**
   * A grouped aggregate whose partition hands Spark several batches of groups, some groups in each
   * dropped by the filter: the batches are views of vectors the reader reuses, which Spark 4 must
   * not free after each batch (it frees batches it reads through {@code closeIfFreeable}).
   */
  @Test
  void manyBatchesOfGroupsWithSomeFilteredOut() {
    aggregatesPushedPastTheFilter(many, "SELECT y, x, sum(v), count(*) FROM t WHERE v > 0 GROUP BY y, x");
    aggregatesPushedPastTheFilter(many, "SELECT y, x, avg(v), count(v) FROM t WHERE v < 2 AND v > -3 GROUP BY y, x");
    assertEquals(96 * 128 * 3 / 7, query(many, "SELECT y, x, sum(v) FROM t WHERE v > 0 GROUP BY y, x", true).count(),
        1.0);
  }

  /** MIN and MAX of 4- and 8-byte integers taken by the filter's marks in SIMD lanes, alone and paired. */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT min(k), max(k), count(k), count(*) FROM t WHERE v > 0",
      "SELECT min(n), max(n), count(*) FROM t WHERE n > 3000000000 OR v < -2",
      "SELECT max(l), min(l), count(*) FROM t WHERE l < 0",
      "SELECT y, min(k), max(l), max(n), count(*) FROM t WHERE k > 10 GROUP BY y",
      "SELECT min(l), max(n), min(k) FROM t WHERE v = 1",
  })
  void wideIntegerExtremesOverFilteredValues(String sql) {
    aggregatesPushedPastTheFilter(many, sql);
  }

  /** {@code sql} over view t of {@code path} with its position columns, pushdowns on or off. */
  private static Dataset<Row> query(String path, String sql, boolean pushDown, String... options) {
    zarrReader(options).option("pushDownAggregate", pushDown).option("pushDownValueFilters", pushDown)
        .load(path).select("*", "y_index", "x_index").createOrReplaceTempView("t");
    return spark().sql(sql);
  }

  private static boolean sparkFilters(Dataset<Row> df) {
    return FILTER_NODE.matcher(df.queryExecution().executedPlan().toString()).find();
  }

  /** The query answers as Spark does, with no filter left to Spark, and its aggregates in the scan. */
  private static void aggregatesPushedPastTheFilter(String path, String sql) {
    Dataset<Row> on = query(path, sql, true);
    String plan = plan(on);
    assertTrue(pushed(on), () -> "aggregates not pushed: " + plan);
    assertFalse(sparkFilters(on), () -> "Spark still filters: " + plan);
    Dataset<Row> off = query(path, sql, false);
    assertTrue(sparkFilters(off), sql);
    assertRowsEqual(sorted(off), sorted(on), sql);
    // Small stores: the driver computes most of these; tasks compute the same.
    Dataset<Row> inTasks = query(path, sql, true, "driverAggregateMaxBytes", "0");
    assertTrue(plan(inTasks).contains("BatchScan"), () -> "not in tasks: " + plan(inTasks));
    assertRowsEqual(sorted(off), sorted(inTasks), sql + " (in tasks)");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(v), count(v), count(*), min(v), max(v), avg(v) FROM t WHERE v > 5000",
      // a decimal literal: Spark compares f cast to double
      "SELECT count(*), sum(f), min(f), max(f), avg(f) FROM t WHERE f >= 0.5 OR f < -1",
      "SELECT y, count(*), sum(w), min(w) FROM t WHERE w <> 0 AND NOT (w > 100) GROUP BY y",
      "SELECT x, sum(k), count(k), count(*) FROM t WHERE k IS NULL OR k > 0 GROUP BY x",
      "SELECT count(*), count(f) FROM t WHERE f IS NULL",
      "SELECT sum(u), count(*), max(u) FROM t WHERE u IN (1, 2, 3, 200, 201, 17)",
      "SELECT sum(p), min(p), max(p), count(*) FROM t WHERE p > 280",
      "SELECT y, x, sum(e), count(*) FROM t WHERE e >= 100 GROUP BY y, x",
      "SELECT sum(a), count(a), max(a), min(a) FROM t WHERE a < 1.0",
      "SELECT x, avg(g), count(*) FROM t WHERE g > 5 GROUP BY x",
      // a filter on other variables than the aggregated one
      "SELECT y, sum(v), count(*), max(r) FROM t WHERE w > 0 AND f IS NOT NULL GROUP BY y",
      // with a box inside chunks along both dimensions
      "SELECT x, sum(v), count(*) FROM t WHERE y_index BETWEEN 3 AND 17 AND x_index > 2 AND v < 10000 GROUP BY x",
      "SELECT min(l), max(l), count(*) FROM t WHERE l < 0",
      "SELECT count(*), min(n) FROM t WHERE n > 4294000000",
      "SELECT y, min(h), max(h), count(*) FROM t WHERE h BETWEEN -1000 AND 10000 GROUP BY y",
      // null-safe equality is false, not unknown, at a null, so NOT keeps the masked elements
      "SELECT count(*), sum(w) FROM t WHERE NOT (k <=> 2147483647)",
      "SELECT y, x, count(*), min(b) FROM t WHERE b < -100 OR b > 100 GROUP BY y, x",
      // COUNT(*) is the sum's count only where the filter keeps no null of the summed variable
      "SELECT sum(v), count(*) FROM t WHERE v > 5000 OR v IS NULL",
      "SELECT y, count(*), sum(v), avg(v) FROM t WHERE w > 0 GROUP BY y",
      "SELECT x, max(q), count(*) FROM t WHERE q = 30000 OR q < 5000 GROUP BY x",
      // one comparison of 1- or 2-byte integers marked from the stored bytes, sums, counts and
      // extremes taken by the marks (masked values 255 and 0, unsigned orders, the literal at a bound)
      "SELECT sum(u), count(u), count(*), avg(u), min(u), max(u) FROM t WHERE u > 100",
      "SELECT y, sum(q), count(*), avg(q), max(q) FROM t WHERE q <= 30000 GROUP BY y",
      "SELECT sum(b), count(b), avg(b), min(b), max(b) FROM t WHERE b >= -5",
      "SELECT y, sum(h), count(h), min(h) FROM t WHERE h < 100 GROUP BY y",
      "SELECT min(q), max(q), min(b) FROM t WHERE u < 50",
      "SELECT sum(u), count(*) FROM t WHERE u = 0",
      "SELECT sum(b), count(*) FROM t WHERE b <> -128",
      "SELECT sum(q), count(*) FROM t WHERE q > 65534",
      // the summed variable's own masked values are left out where another variable's filter keeps them
      "SELECT sum(q), count(q), count(*) FROM t WHERE u < 50",
      // packed (CF-scaled) small integers' extremes by the marks of a filter on their unpacked values
      "SELECT min(p), max(p), count(*) FROM t WHERE p > 280",
      "SELECT max(e), count(e) FROM t WHERE e >= 100",
      // comparisons of unpacked values marked on the stored integers (session 43): a negative
      // scale in double arithmetic, equality with an unpacked value, and maps of kept rows
      "SELECT sum(r), count(*), min(r), max(r) FROM t WHERE r < -1000.5",
      "SELECT count(*), sum(r) FROM t WHERE r = 500010.0 OR r = -37.5",
      "SELECT count(*), max(p) FROM t WHERE p = CAST(183.15 AS FLOAT) OR p <=> CAST(263.15 AS FLOAT)",
      "SELECT y, x, avg(p), max(p), count(p), count(*) FROM t WHERE p > 280 GROUP BY y, x",
      "SELECT y, x, max(r), count(r) FROM t WHERE r >= 0 GROUP BY y, x",
      "SELECT y, x, max(w), min(u), count(u) FROM t WHERE w > 0 GROUP BY y, x",
      // counts alone: of a variable nothing masks, and of one with a masked value
      "SELECT count(b), count(u) FROM t WHERE b > 0",
      // a literal outside the stored range: the three-valued evaluation
      "SELECT sum(u), count(*) FROM t WHERE u < 300",
      // ranges and ORs, their comparisons marked one by one and joined (session 29)
      "SELECT sum(f), count(f), count(*), min(f), max(f) FROM t WHERE f BETWEEN -1 AND 2.5",
      "SELECT sum(q), count(*), avg(q) FROM t WHERE q > 100 AND q <= 30000 AND u < 200",
      "SELECT y, sum(a), count(a), count(*) FROM t WHERE (a > 0.5 AND a < 2) OR b = -128 GROUP BY y",
      "SELECT sum(p), count(p), avg(e) FROM t WHERE (p > 280 AND p < 290) OR (e >= 100 AND h IS NULL)",
      "SELECT sum(v), count(*) FROM t WHERE (v > 100 AND f IS NOT NULL) OR NOT (b >= 0 AND b < 50)",
      "SELECT y, x, avg(a), count(a), count(*), max(a) FROM t WHERE a < 1.0 OR a > 2 GROUP BY y, x",
      "SELECT x, sum(f), count(f), count(*) FROM t WHERE f > -1 GROUP BY x",
      // 4- and 8-byte integers marked from their stored bytes; int32 and uint32 summed by marks
      "SELECT sum(n), count(n), avg(n), count(*) FROM t WHERE n > 100 AND n < 4000000000",
      "SELECT sum(w), count(*), min(w) FROM t WHERE w BETWEEN -50 AND 500",
      "SELECT count(l), max(l), min(l), count(*) FROM t WHERE l >= -1000000 OR l = 7",
  })
  void aggregatesOverFilteredValuesAnswerAsSparkDoes(String sql) {
    aggregatesPushedPastTheFilter(store, sql);
  }

  /** NaN passes {@code > 1} and equals NaN, -0.0 equals 0.0, the infinities order as numbers. */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT count(*), sum(z), min(z), max(z) FROM t WHERE z > 1",
      "SELECT count(*), max(z) FROM t WHERE z = 0",
      "SELECT count(*), min(z), max(z) FROM t WHERE z >= -0.0 AND z < CAST('Infinity' AS FLOAT)",
      "SELECT y, count(*), min(z) FROM t WHERE NOT (z < 0) GROUP BY y",
      "SELECT count(*), sum(z) FROM t WHERE z = CAST('NaN' AS FLOAT) OR z <= CAST('-Infinity' AS FLOAT)",
      "SELECT x, count(*), sum(z) FROM t WHERE z < 2.5 GROUP BY x",
      "SELECT count(*), sum(z), count(z), min(z), max(z) FROM t WHERE z > -1 AND z <= 3",
      "SELECT count(*), sum(z), max(z) FROM t WHERE z < -1 OR z > 2 OR z = 0",
  })
  void floatingPointValuesCompareAsInSpark(String sql) {
    aggregatesPushedPastTheFilter(special, sql);
  }

  /** Rows: the scan returns only the kept ones, read in place or copied, with hidden filter columns. */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT y, x, v, f FROM t WHERE v > 5000 AND f IS NOT NULL",
      "SELECT y_index, x_index FROM t WHERE w > 100",
      "SELECT * FROM t WHERE k IS NULL",
      "SELECT x, g, a, p FROM t WHERE g > 5 AND a < 3 AND y_index > 4",
      "SELECT y, x, u FROM t WHERE u IN (1, 2, 3, 200)",
  })
  void rowsOfFilteredValuesAreSparksRows(String sql) {
    rowsAsSparks(store, sql);
  }

  /** A variable over one dimension is repeated along the other: its filter is evaluated per row. */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT y, x, z, d FROM t WHERE d > 4 OR z = 0",
      "SELECT y_index, x_index, d FROM t WHERE d IS NULL AND z > -1",
      "SELECT x, d FROM t WHERE d = CAST('NaN' AS DOUBLE)",
  })
  void broadcastVariablesFilterTheirRows(String sql) {
    rowsAsSparks(special, sql);
  }

  /**
   * A variable decoded to timestamps (CF units, fill -1 masked) filters rows in the scan too; its
   * aggregates are Spark's, over the rows the scan kept.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT y, x, seen, z FROM t WHERE seen >= TIMESTAMP_NTZ '2000-01-20 00:00:00'",
      "SELECT y_index, x_index FROM t WHERE seen IS NULL OR seen < TIMESTAMP_NTZ '2000-01-03 12:00:00'",
      "SELECT count(*), sum(z), max(seen) FROM t WHERE seen > TIMESTAMP_NTZ '2000-01-15 00:00:00' AND z < 3",
  })
  void timestampVariablesFilterTheirRows(String sql) {
    rowsAsSparks(special, sql);
  }

  private static void rowsAsSparks(String path, String sql) {
    Dataset<Row> on = query(path, sql, true);
    assertFalse(sparkFilters(on), () -> "Spark still filters: " + on.queryExecution().executedPlan());
    Dataset<Row> off = query(path, sql, false);
    assertTrue(sparkFilters(off), () -> sql + off.queryExecution().executedPlan());
    List<Row> expected = sorted(off);
    assertRowsEqual(expected, sorted(on), sql);
  }

  /** LIMIT counts the rows the filter kept: Spark pushes it to the scan once no filter is left to it. */
  @Test
  void limitCountsKeptRows() {
    String sql = "SELECT y_index, x_index, w FROM t WHERE w > 200 LIMIT 9";
    Dataset<Row> on = query(store, sql, true);
    assertTrue(plan(on).contains("limit=9"),
        () -> plan(on));
    List<Row> rows = on.collectAsList();
    assertEquals(9, rows.size());
    for (Row r : rows) {
      assertTrue(r.getInt(2) > 200, r::toString);
      assertEquals((int) (r.getLong(0) * r.getLong(1) - 50), r.getInt(2), r::toString);
    }
  }

  /**
   * What is not a filter on values alone stays with Spark: a function of a variable, a mix with a
   * dimension under OR, a comparison of two variables. The answer is Spark's either way.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT count(*) FROM t WHERE abs(w) > 100",
      "SELECT count(*) FROM t WHERE w > 100 OR y > 90",
      "SELECT count(*) FROM t WHERE w > k",
  })
  void otherFiltersStayWithSpark(String sql) {
    Dataset<Row> on = query(store, sql, true);
    assertTrue(sparkFilters(on), sql);
    assertRowsEqual(sorted(query(store, sql, false)), sorted(on), sql);
  }
}
