package io.github.sparkzarr.spark;

import static io.github.sparkzarr.spark.AggregatePushdownTest.assertRowsEqual;
import static io.github.sparkzarr.spark.AggregatePushdownTest.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An aggregate the scan computes partially over many partitions is finished on the driver from
 * the tasks' few rows (DriverMerge), in one stage with no shuffle, and answers as Spark does from
 * the rows. The store, written by the connector: t (40, chunks 4) x y (16, chunks 8) x x (16,
 * chunks 8), v float32, n int32 and m int64 about 2^53, whose sum over 2,048 elements leaves a
 * long where a chunk's (256) does not; read with one partition
 * per chunk (maxPartitionBytes=1, 40 partitions) and no answers on the driver.
 */
class DriverMergeTest extends SparkTestBase {
  @TempDir
  static Path tmp;
  private static String store;

  @BeforeAll
  static void write() {
    store = tmp.resolve("merge.zarr").toString();
    spark().sql("SELECT t, y, x, CAST(sin(t * 0.3 + y * 0.7) * 100 + x AS FLOAT) AS v, "
        + "CAST(t * 1000 + y * 20 + x - 20000 AS INT) AS n, "
        + "CAST(9007199254740992 + t * 256 + y * 16 + x AS BIGINT) AS m "
        + "FROM range(40) a(t) CROSS JOIN range(16) b(y) CROSS JOIN range(16) c(x)")
        .write().format("zarr").option("dimensions", "t,y,x").option("chunks", "4,8,8").save(store);
  }

  private static Dataset<Row> query(String sql, String... options) {
    return queryStore(store, sql, options);
  }

  private static Dataset<Row> queryStore(String path, String sql, String... options) {
    List<String> all = new ArrayList<>(List.of("maxPartitionBytes", "1", "driverAggregateMaxBytes", "0"));
    all.addAll(List.of(options));
    zarrReader(all.toArray(new String[0])).load(path).createOrReplaceTempView("t");
    return spark().sql(sql);
  }

  /** The stages that collecting {@code df} runs. */
  private static int stagesToCollect(Dataset<Row> df) throws java.util.concurrent.TimeoutException {
    return scheduled(df::collectAsList).stages();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(v), count(*), min(n), max(n) FROM t",
      "SELECT avg(v), sum(n), count(v) FROM t WHERE t >= 6 AND y < 12",
      "SELECT y, avg(v) AS a, min(v), count(*) FROM t GROUP BY y",
      "SELECT x, sum(n), max(v) FROM t WHERE y < 8 GROUP BY x",
      // A filter on values, evaluated in the scan.
      "SELECT sum(n), count(*) FROM t WHERE v > 20",
      // No row selected: one row (SUM null, COUNT 0).
      "SELECT sum(v), count(*), max(n) FROM t WHERE v > 1000",
      // Expressions over the results, HAVING and ORDER BY above them.
      "SELECT y, sum(v) * 2 + count(*) AS s FROM t GROUP BY y HAVING count(*) > 100 ORDER BY s DESC",
  })
  void aggregatesOfManyPartitionsAreFinishedOnTheDriver(String sql) throws Exception {
    Dataset<Row> merged = query(sql);
    String plan = plan(merged);
    assertTrue(plan.contains("DriverMerge") && plan.contains("partialAggregates"), plan);
    assertFalse(plan.contains("Exchange") || plan.contains("HashAggregate"), plan);
    // ORDER BY and HAVING are evaluated on the driver too: no second stage.
    assertEquals(1, stagesToCollect(merged), "stages: " + plan);
    assertRowsEqual(sorted(query(sql, "pushDownAggregate", "false")), sorted(merged), sql);
  }

  /**
   * ORDER BY, LIMIT, HAVING and projections above the merge are evaluated on the driver from its
   * rows (DriverSort, DriverLimit, ...): one stage, no Sort or Limit of Spark's, and Spark's rows
   * in Spark's order.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT y, sum(v) AS s FROM t GROUP BY y ORDER BY y DESC",
      "SELECT y, avg(v) AS a FROM t GROUP BY y ORDER BY a LIMIT 5",
      // Ordered by an aggregate the query does not select: a projection above the sort.
      "SELECT y FROM t GROUP BY y ORDER BY max(n) DESC, y",
      "SELECT y, count(*) AS c FROM t GROUP BY y HAVING min(n) > -19800 ORDER BY y",
      "SELECT x, count(*) AS c, min(v) FROM t WHERE y < 8 GROUP BY x ORDER BY c DESC, x LIMIT 3",
      // A key that is null for some groups, put first.
      "SELECT y, sum(v) AS s FROM t GROUP BY y ORDER BY CASE WHEN y > 5 THEN s END NULLS FIRST, y",
  })
  void sortsLimitsAndFiltersAboveTheMergeRunOnTheDriver(String sql) throws Exception {
    Dataset<Row> merged = query(sql);
    String plan = plan(merged);
    assertTrue(plan.contains("DriverMerge") && plan.contains("DriverSort"), plan);
    assertFalse(plan.contains("Exchange") || plan.contains("TakeOrdered") || plan.contains(" Sort ["), plan);
    assertEquals(1, stagesToCollect(merged), "stages: " + plan);
    assertRowsEqual(query(sql, "pushDownAggregate", "false").collectAsList(), merged.collectAsList(), sql);
  }

  /** Steps Spark must evaluate itself (a non-deterministic filter, an offset) leave it its operators, rightly. */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT y, sum(v) AS s FROM t GROUP BY y HAVING rand(7) < 2 ORDER BY y",
      "SELECT y, sum(v) AS s FROM t GROUP BY y ORDER BY y LIMIT 4 OFFSET 3",
  })
  void stepsTheDriverDoesNotEvaluateAreSparks(String sql) {
    Dataset<Row> merged = query(sql);
    assertTrue(plan(merged).contains("DriverMerge"), () -> plan(merged));
    assertRowsEqual(query(sql, "pushDownAggregate", "false").collectAsList(), merged.collectAsList(), sql);
  }

  /**
   * The merge inside other plans: a scalar subquery (twice, which Spark reuses by comparing
   * canonical plans), a join of two merged aggregates (through an exchange) and a cached result.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT (SELECT avg(v) FROM t) AS a, (SELECT avg(v) FROM t) AS b, (SELECT max(n) FROM t WHERE y < 4) AS c",
      "SELECT count(*), sum(n) FROM t WHERE v > (SELECT avg(v) FROM t)",
      "SELECT a.y, a.s, b.c FROM (SELECT y, sum(v) AS s FROM t GROUP BY y) a "
          + "JOIN (SELECT y, count(*) AS c FROM t WHERE x < 5 GROUP BY y) b ON a.y = b.y",
  })
  void mergesInsideOtherPlans(String sql) {
    Dataset<Row> merged = query(sql);
    String plan = merged.queryExecution().executedPlan().toString();
    merged.collectAsList();
    assertTrue(merged.queryExecution().executedPlan().toString().contains("DriverMerge"),
        () -> merged.queryExecution().executedPlan().toString());
    assertRowsEqual(sorted(query(sql, "pushDownAggregate", "false")), sorted(merged), sql + "\n" + plan);
    Dataset<Row> cached = query(sql).cache();
    try {
      assertRowsEqual(sorted(query(sql, "pushDownAggregate", "false")), sorted(cached), sql + " (cached)");
    } finally {
      cached.unpersist();
    }
  }

  /** Keys with no selected row make no group, as in Spark. */
  @Test
  void groupsWithoutRowsAreAbsent() {
    Dataset<Row> none = query("SELECT y, sum(v), count(*) FROM t WHERE v > 1000 GROUP BY y");
    assertTrue(plan(none).contains("DriverMerge"), () -> plan(none));
    assertEquals(List.of(), none.collectAsList());
    assertEquals(List.of(), query("SELECT y, sum(v), count(*) FROM t WHERE v > 1000 GROUP BY y",
        "pushDownAggregate", "false").collectAsList());
  }

  @Test
  void showTakeAndFirstAnswerAsCollect() {
    Dataset<Row> df = query("SELECT y, count(*) AS c FROM t GROUP BY y");
    assertEquals(16, df.collectAsList().size());
    assertEquals(16, df.count());
    assertEquals(15, df.where("y > 0").count());
    assertEquals(3, df.takeAsList(3).size());
    assertEquals(640L, df.first().getLong(1));
    df.show(2);
    assertEquals(List.of(0L, 1L, 2L), df.orderBy("y").limit(3).collectAsList().stream().map(r -> r.getLong(0)).toList());
  }

  /**
   * An int64 sum whose partitions' sums fit in a long but whose total does not fails as Spark's
   * own does. The scan sums int64 only under ANSI rules (without them Spark's sum wraps around).
   */
  @Test
  void overflowFailsAsSparksOwn() {
    String sql = "SELECT sum(m) FROM t WHERE t < 8";
    String ansi = spark().conf().get("spark.sql.ansi.enabled");
    spark().conf().set("spark.sql.ansi.enabled", "true");
    try {
      assertEquals("fails: overflow", outcome(query(sql, "pushDownAggregate", "false")));
      Dataset<Row> merged = query(sql);
      assertTrue(plan(merged).contains("DriverMerge"), () -> plan(merged));
      assertEquals("fails: overflow", outcome(merged));
      // 768 elements: 3/4 of the largest long, which the merge reaches exactly.
      String fits = "SELECT sum(m) FROM t WHERE t < 3";
      assertEquals(query(fits, "pushDownAggregate", "false").collectAsList(), query(fits).collectAsList());
    } finally {
      spark().conf().set("spark.sql.ansi.enabled", ansi);
    }
  }

  private static String outcome(Dataset<Row> df) {
    try {
      return df.collectAsList().toString();
    } catch (Exception e) {
      return "fails: " + (messages(e).contains("overflow") ? "overflow" : messages(e));
    }
  }

  /**
   * Too many partial rows for the driver (more than 65,536): one hash aggregate of Spark's after
   * the shuffle, with no partial aggregate before it (ShuffleMergeStrategy). The store is 20 x 64 x
   * 64 float32 in chunks of one time step, all missing (fill value 2.5), one partition per chunk:
   * 20 partitions of 4,096 groups.
   */
  @Test
  void largeMapsAreMergedAfterTheShuffle() throws Exception {
    Path fill = fillArray(tmp.resolve("fill.zarr"), "[20, 64, 64]", "[1, 64, 64]", 2.5);
    String sql = "SELECT dim_1, dim_2, max(value), count(*) FROM t GROUP BY dim_1, dim_2";
    List<String> options = List.of("maxPartitionBytes", "1", "driverAggregateMaxBytes", "0");
    zarrReader(options.toArray(new String[0])).load(fill.toString()).createOrReplaceTempView("t");
    Dataset<Row> map = spark().sql(sql);
    assertMergedAfterShuffle(map);
    List<Row> rows = map.collectAsList();
    assertEquals(4096, rows.size());
    assertTrue(rows.stream().allMatch(r -> r.getFloat(2) == 2.5f && r.getLong(3) == 20), () -> rows.get(0).toString());
  }

  /**
   * Maps of many cells over many partitions: merged after the shuffle in one step, with the answers
   * Spark gives from the rows, under filters, HAVING, ORDER BY and LIMIT. The store: t (24, chunks
   * 2) x y (48, chunks 24) x x (64, chunks 32), 48 partitions; a map of y and x has 3,072 cells in
   * each, of x and t 1,536 (more than 65,536 rows in all).
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT y, x, avg(v), min(n), max(v), count(*) FROM t GROUP BY y, x",
      "SELECT x, t, sum(n), max(m), min(m) FROM t WHERE v > 20 GROUP BY x, t",
      "SELECT x, y, avg(v) AS a FROM t WHERE y < 40 GROUP BY x, y HAVING count(v) > 3 ORDER BY a DESC, x, y LIMIT 50",
      "SELECT y, x, max(n) - min(n) AS r FROM t WHERE v > 120 GROUP BY y, x",
  })
  void mapsOfManyCellsAreMergedAfterTheShuffle(String sql) {
    String map = tmp.resolve("map.zarr").toString();
    if (!new java.io.File(map).exists()) {
      spark().sql("SELECT t, y, x, CAST(sin(t * 0.3 + y * 0.7) * 100 + x AS FLOAT) AS v, "
          + "CAST(t * 1000 + y * 20 + x - 20000 AS INT) AS n, CAST(9007199254740992 + t * 4096 + y * 64 + x AS BIGINT) AS m "
          + "FROM range(24) a(t) CROSS JOIN range(48) b(y) CROSS JOIN range(64) c(x)")
          .write().format("zarr").option("dimensions", "t,y,x").option("chunks", "2,24,32").save(map);
    }
    Dataset<Row> merged = queryStore(map, sql);
    assertMergedAfterShuffle(merged);
    assertRowsEqual(sorted(queryStore(map, sql, "pushDownAggregate", "false")), sorted(merged), sql);
  }

  private static void assertMergedAfterShuffle(Dataset<Row> df) {
    String plan = plan(df);
    assertTrue(plan.contains("partialAggregates") && plan.contains("Exchange hashpartitioning"), plan);
    // No aggregate in Partial mode (partial_max(...)); the scan's columns are partial_0, ...
    assertFalse(plan.contains("DriverMerge") || java.util.regex.Pattern.compile("partial_[a-z]+\\(").matcher(plan).find(), plan);
    assertEquals(1, plan.split("HashAggregate\\(", -1).length - 1, plan);
  }
}
