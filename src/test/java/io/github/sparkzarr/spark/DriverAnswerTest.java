package io.github.sparkzarr.spark;

import static io.github.sparkzarr.spark.AggregatePushdownTest.assertRowsEqual;
import static io.github.sparkzarr.spark.AggregatePushdownTest.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.execution.LocalTableScanExec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Small aggregates the scan computes completely are computed on the driver while Spark plans the
 * query (option driverAggregateMaxBytes, 128 MiB of decoded data by default), and the session
 * extension plans them as local rows, so the query runs no Spark job at all. Their answers are
 * the ones tasks compute, and the ones Spark computes from the rows.
 *
 * <p>The store, written by the connector: t (40, chunks 4) x y (16, chunks 8) x x (16, chunks 8),
 * v float32 and n int32; 1 KiB of v per chunk, 40 KiB in all.
 */
class DriverAnswerTest extends SparkTestBase {
  @TempDir
  static Path tmp;
  private static String store;

  @BeforeAll
  static void write() {
    store = tmp.resolve("small.zarr").toString();
    spark().sql("SELECT t, y, x, CAST(sin(t * 0.3 + y * 0.7) * 100 + x AS FLOAT) AS v, "
        + "CAST(t * 1000 + y * 20 + x - 20000 AS INT) AS n "
        + "FROM range(40) a(t) CROSS JOIN range(16) b(y) CROSS JOIN range(16) c(x)")
        .write().format("zarr").option("dimensions", "t,y,x").option("chunks", "4,8,8").save(store);
  }

  /** {@code sql} over view t of the store, read with the given options (name, value, ...). */
  private static Dataset<Row> query(String path, String sql, String... options) {
    zarrReader(options).load(path).createOrReplaceTempView("t");
    return spark().sql(sql);
  }

  /** The Spark jobs that collecting {@code df} starts. */
  private static int jobsToCollect(Dataset<Row> df) throws TimeoutException {
    return jobsToRun(df::collectAsList);
  }

  /** The Spark jobs that {@code action} starts. */
  private static int jobsToRun(Runnable action) throws TimeoutException {
    return scheduled(action).jobs();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(v), count(*) FROM t WHERE t < 8 AND y < 8 AND x < 8",
      // AVG: Spark asks for SUM and COUNT and divides them in its projection.
      "SELECT avg(v), min(n), max(n), sum(n) FROM t WHERE t BETWEEN 4 AND 11 AND y >= 8",
      "SELECT y, avg(v) AS m, count(*) AS c FROM t WHERE t < 4 GROUP BY y",
      "SELECT y, x, max(v), min(n) FROM t WHERE t >= 36 GROUP BY y, x",
      // A filter on values, evaluated in the scan.
      "SELECT sum(n), count(v), max(v) FROM t WHERE v > 50 AND t < 8",
      // The whole store: 40 KiB, far below the default limit.
      "SELECT sum(v) * 2, count(n) + 1 FROM t",
      // No row selected.
      "SELECT sum(v), count(*) FROM t WHERE t > 100",
      // HAVING, ORDER BY and LIMIT over the answer are evaluated on the driver too.
      "SELECT y, count(*) AS c, max(n) FROM t WHERE t < 8 AND v > 0 GROUP BY y HAVING count(*) > 100",
      "SELECT y, avg(v) AS m FROM t WHERE t < 4 GROUP BY y ORDER BY y DESC",
      "SELECT y, x, max(v) AS top FROM t WHERE t >= 36 GROUP BY y, x ORDER BY top DESC, y, x LIMIT 5",
      "SELECT x, sum(n) FROM t WHERE y = 3 GROUP BY x ORDER BY 2 LIMIT 4",
  })
  void smallAggregatesAnswerOnTheDriverWithoutAJob(String sql) throws Exception {
    Dataset<Row> onDriver = query(store, sql);
    assertTrue(onDriver.queryExecution().executedPlan() instanceof LocalTableScanExec,
        () -> "not local rows: " + onDriver.queryExecution().executedPlan());
    assertTrue(plan(onDriver).contains("partialAggregates") && plan(onDriver).contains("on the driver"),
        () -> plan(onDriver));
    assertEquals(0, jobsToCollect(onDriver), sql);

    Dataset<Row> inTasks = query(store, sql, "driverAggregateMaxBytes", "0");
    assertTrue(plan(inTasks).contains("BatchScan") && !plan(inTasks).contains("on the driver"), () -> plan(inTasks));
    assertTrue(jobsToCollect(inTasks) > 0, sql);

    // An ordered answer is compared in its order (the keys are unique, so the order is one).
    boolean ordered = sql.contains("ORDER BY");
    Function<Dataset<Row>, List<Row>> rows = df -> ordered ? df.collectAsList() : sorted(df);
    List<Row> bySpark = rows.apply(query(store, sql, "pushDownAggregate", "false"));
    assertRowsEqual(bySpark, rows.apply(onDriver), sql);
    assertRowsEqual(bySpark, rows.apply(inTasks), sql + " (in tasks)");
  }

  /** show() and take() of a small aggregate (Spark's limit and its cast to strings) run no job. */
  @Test
  void showAndTakeRunNoJob() throws Exception {
    Dataset<Row> df = query(store, "SELECT y, avg(v) AS m, count(*) AS c FROM t WHERE t < 4 GROUP BY y");
    assertEquals(0, jobsToRun(() -> df.show(3)));
    assertEquals(0, jobsToRun(() -> df.take(2)));
    assertEquals(2, df.takeAsList(2).size());
    assertEquals(0, jobsToRun(() -> df.orderBy("y").limit(3).collectAsList()));
    assertEquals(List.of(0L, 1L, 2L), df.orderBy("y").limit(3).collectAsList().stream().map(r -> r.getLong(0)).toList());
  }

  /** Over the limit, tasks compute the aggregate; a box of one 1 KiB chunk stays on the driver. */
  @Test
  void aggregatesOverTheLimitRunInTasks() throws Exception {
    String whole = "SELECT sum(v), count(*) FROM t";
    Dataset<Row> big = query(store, whole, "driverAggregateMaxBytes", "4k");
    assertTrue(plan(big).contains("BatchScan"), () -> plan(big));
    assertTrue(jobsToCollect(big) > 0);
    assertRowsEqual(sorted(query(store, whole, "pushDownAggregate", "false")), sorted(big), whole);

    String box = "SELECT sum(v), count(*) FROM t WHERE t < 4 AND y < 8 AND x < 8";
    Dataset<Row> small = query(store, box, "driverAggregateMaxBytes", "4k");
    assertTrue(plan(small).contains("on the driver"), () -> plan(small));
    assertEquals(0, jobsToCollect(small));
    assertRowsEqual(sorted(query(store, box, "pushDownAggregate", "false")), sorted(small), box);
  }

  /**
   * The limit counts decoded bytes at the array's own element size, not Spark's wider type: 2 KiB
   * of uint8 (a short column in Spark, 4 KiB as such) is within a 2 KiB limit, not a 1 KiB one.
   */
  @Test
  void theLimitCountsStoredElementSizes() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("u8.zarr"));
    Files.writeString(dir.resolve(".zarray"), "{\"zarr_format\": 2, \"shape\": [8, 16, 16], "
        + "\"chunks\": [4, 8, 8], \"dtype\": \"|u1\", \"compressor\": null, \"fill_value\": 3, "
        + "\"order\": \"C\", \"filters\": null}");
    String sql = "SELECT sum(value), count(*) FROM t";
    Dataset<Row> within = query(dir.toString(), sql, "driverAggregateMaxBytes", "2k");
    assertTrue(plan(within).contains("on the driver"), () -> plan(within));
    assertEquals(0, jobsToCollect(within));
    assertEquals(List.of(RowFactory.create(3L * 2048, 2048L)), within.collectAsList());
    Dataset<Row> over = query(dir.toString(), sql, "driverAggregateMaxBytes", "1k");
    assertTrue(plan(over).contains("BatchScan") && !plan(over).contains("on the driver"), () -> plan(over));
    assertTrue(jobsToCollect(over) > 0);
    assertEquals(within.collectAsList(), over.collectAsList());
  }

  /**
   * An aggregate over more than 32 MiB but within the limit is read on the driver a partition per
   * core at once, and its partial rows merged there (DriverMerge over the local rows), or, when
   * the partitions keep their groups apart, concatenated: no job either way. With
   * a lower limit it is split over tasks. The store is 64 MiB of float32 in 1 MiB chunks, all
   * missing (fill value 1.5).
   */
  @Test
  void aggregatesUpToTheLimitAreReadOnTheDriversCores() throws Exception {
    Path big = fillArray(tmp.resolve("fill.zarr"), "[64, 512, 512]", "[16, 128, 128]", 1.5);
    for (String sql : List.of("SELECT sum(value), count(*) FROM t", "SELECT dim_1, sum(value), count(*) FROM t GROUP BY dim_1")) {
      Dataset<Row> onDriver = query(big.toString(), sql);
      // The global sum's partitions each give a row to merge; the map's keep their latitudes apart.
      boolean merged = !sql.contains("GROUP BY");
      assertTrue(plan(onDriver).contains("on the driver") && plan(onDriver).contains("DriverMerge") == merged
          && plan(onDriver).contains(" complete") == !merged, () -> plan(onDriver));
      assertEquals(0, jobsToCollect(onDriver), sql);
      List<Row> rows = onDriver.collectAsList();
      assertEquals(sql.contains("GROUP BY") ? 512 : 1, rows.size(), sql);
      Row last = rows.get(rows.size() - 1);
      long count = sql.contains("GROUP BY") ? 64L * 512 : 16L << 20;
      assertEquals(1.5 * count, last.getDouble(last.length() - 2), sql);
      assertEquals(count, last.getLong(last.length() - 1), sql);

      Dataset<Row> inTasks = query(big.toString(), sql, "driverAggregateMaxBytes", "32m");
      assertTrue(plan(inTasks).contains("BatchScan") && !plan(inTasks).contains("on the driver"), () -> plan(inTasks));
      assertTrue(jobsToCollect(inTasks) > 0);
      assertRowsEqual(sorted(onDriver), sorted(inTasks), sql);
    }
  }

  /**
   * With too many groups for the driver to merge a partition per core (40,000 here, over 65,536 /
   * 2 rows), the aggregate stays one complete partition on the driver. 40 MiB of float32.
   */
  @Test
  void manyGroupsStayOneCompletePartition() throws Exception {
    Path map = fillArray(tmp.resolve("map.zarr"), "[256, 200, 200]", "[16, 100, 100]", 2.5);
    Dataset<Row> df = query(map.toString(), "SELECT dim_1, dim_2, max(value), count(*) FROM t GROUP BY dim_1, dim_2");
    assertTrue(plan(df).contains("on the driver") && plan(df).contains(" complete") && !plan(df).contains("DriverMerge"),
        () -> plan(df));
    assertEquals(0, jobsToCollect(df));
    List<Row> rows = df.collectAsList();
    assertEquals(40_000, rows.size());
    assertTrue(rows.stream().allMatch(r -> r.getFloat(2) == 2.5f && r.getLong(3) == 256), () -> rows.get(0).toString());
  }

  /** COUNT(*) of the whole store, answered from metadata, runs no job either. */
  @Test
  void metadataAnswersRunNoJob() throws Exception {
    Dataset<Row> count = query(store, "SELECT count(*) AS rows FROM t");
    assertTrue(plan(count).contains("ZarrMetadataAnswer"), () -> plan(count));
    assertEquals(0, jobsToCollect(count));
    assertEquals(40L * 16 * 16, count.collectAsList().get(0).getLong(0));
  }

  /**
   * A projection the strategy does not evaluate (not deterministic) is left to Spark, which runs
   * it as a job over the same local rows: the answer is the same.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(n) + CAST(rand() * 0 AS BIGINT), count(*) FROM t WHERE t < 8",
      // A scalar subquery: Spark evaluates it before the projection, in its own job.
      "SELECT sum(n) + (SELECT max(id) FROM range(5)), count(*) FROM t WHERE t < 8",
  })
  void projectionsItCannotEvaluateAreLeftToSpark(String sql) throws Exception {
    Dataset<Row> df = query(store, sql);
    assertTrue(plan(df).contains("on the driver"), () -> plan(df));
    assertTrue(jobsToCollect(df) > 0);
    assertRowsEqual(sorted(query(store, sql, "pushDownAggregate", "false")), sorted(df), sql);
  }

  /** A chunk that does not decode fails the query on the driver, naming the store and the chunk. */
  @Test
  void aChunkThatDoesNotDecodeFailsNamingIt() throws Exception {
    Path copy = tmp.resolve("broken.zarr");
    try (var files = Files.walk(Path.of(store))) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Files.copy(p, copy.resolve(Path.of(store).relativize(p).toString()));
      }
    }
    // Chunk (1, 0, 1) of v, under the v2 or the v3 default key encoding.
    String key = Files.exists(copy.resolve("v/1.0.1")) ? "v/1.0.1" : "v/c/1/0/1";
    assertTrue(Files.exists(copy.resolve(key)), () -> "no chunk " + key);
    Files.write(copy.resolve(key), new byte[] {1, 2, 3});
    Dataset<Row> df = query(copy.toString(), "SELECT sum(v) FROM t WHERE t BETWEEN 4 AND 7 AND x >= 8");
    Exception e = assertThrows(Exception.class, df::collectAsList);
    String message = messages(e);
    assertTrue(message.contains(key) && message.contains("broken.zarr"), message);
  }

  /** The same from one of the driver's threads: a 48 MiB raw store read a partition per core. */
  @Test
  void aChunkThatDoesNotReadOnADriverThreadFailsNamingIt() throws Exception {
    Path big = fillArray(tmp.resolve("broken-big.zarr"), "[48, 512, 512]", "[16, 128, 128]", 1.5);
    Files.write(big.resolve("2.3.1"), new byte[] {1, 2, 3});
    Dataset<Row> df = query(big.toString(), "SELECT sum(value) FROM t");
    Exception e = assertThrows(Exception.class, df::collectAsList);
    String message = messages(e);
    assertTrue(message.contains("2.3.1") && message.contains("broken-big.zarr"), message);
  }

  @Test
  void theLimitMustNotBeNegative() {
    Exception e = assertThrows(Exception.class,
        () -> query(store, "SELECT sum(v) FROM t", "driverAggregateMaxBytes", "-1").collectAsList());
    assertTrue(messages(e).contains("driverAggregateMaxBytes"), messages(e));
  }
}
