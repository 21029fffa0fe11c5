package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.sparkzarr.spark.SparkTestBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The partial rows a pushed-down aggregate's scan returns are collected from its batches
 * (ScanBatchRows) for the plans Spark makes of it, and they are the rows Spark's own collect of
 * the same plan returns, in the same order, with the scan's output-rows metric counted. The store:
 * t (24, chunks 4) x y (8, chunks 4) of float32 v and int32 n, one partition per chunk.
 */
class ScanBatchRowsTest extends SparkTestBase {
  @org.junit.jupiter.api.io.TempDir
  static Path tmp;
  private static String store;

  @BeforeAll
  static void write() {
    store = tmp.resolve("rows.zarr").toString();
    spark().sql("SELECT t, y, CAST(t * 0.5 - y AS FLOAT) AS v, CAST(t * 10 + y AS INT) AS n "
        + "FROM range(24) a(t) CROSS JOIN range(8) b(y)")
        .write().format("zarr").option("dimensions", "t,y").option("chunks", "4,4").save(store);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(v) FROM t",
      "SELECT avg(v), count(*), min(n), max(n) FROM t WHERE t >= 5",
      "SELECT y, avg(v), sum(n) FROM t GROUP BY y",
  })
  void partialRowsComeFromTheBatchesAsSparkWouldCollectThem(String sql) {
    zarrReader("maxPartitionBytes", "1", "driverAggregateMaxBytes", "0").load(store).createOrReplaceTempView("t");
    Dataset<Row> df = spark().sql(sql);
    SparkPlan root = df.queryExecution().executedPlan();
    assertEquals(DriverMergeExec.class, root.getClass(), root::toString);
    SparkPlan child = root.children().head();
    ScanBatchRows direct = ScanBatchRows.of(child);
    assertNotNull(direct, child::toString);

    List<String> fromBatches = strings(direct.collect());
    assertEquals(strings(child.executeCollect()), fromBatches, sql);
    assertFalse(fromBatches.isEmpty(), sql);
    BatchScanExec scan = (BatchScanExec) child.collectLeaves().head();
    // Both collects above counted their rows in the scan's metric.
    assertEquals(2L * fromBatches.size(), scan.longMetric("numOutputRows").value(), sql);
  }

  @ParameterizedTest
  @ValueSource(strings = {"SELECT v FROM t ORDER BY v", "SELECT y, count(*) FROM t GROUP BY y"})
  void otherPlansAreNotTaken(String sql) {
    // Rows to Spark (no aggregate pushed down): a sort or an aggregate over the scan is not this shape.
    zarrReader("pushDownAggregate", "false").load(store).createOrReplaceTempView("t");
    SparkPlan plan = spark().sql(sql).queryExecution().executedPlan();
    assertNull(ScanBatchRows.of(plan), plan::toString);
  }

  private static List<String> strings(InternalRow[] rows) {
    List<String> out = new ArrayList<>();
    Arrays.stream(rows).forEach(r -> out.add(r.toString()));
    return out;
  }
}
