package io.github.sparkzarr.spark;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import org.apache.spark.sql.execution.metric.SQLMetric;

/** One shared local[2] session for the whole suite, created on first use. */
public abstract class SparkTestBase {
  private static SparkSession session;

  protected static synchronized SparkSession spark() {
    if (session == null) {
      session = SparkSession.builder()
          .master("local[2]")
          .appName("spark-zarr-tests")
          .config("spark.driver.host", "127.0.0.1")
          .config("spark.driver.bindAddress", "127.0.0.1")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.shuffle.partitions", "2")
          .config("spark.sql.catalog.zarr", ZarrCatalog.class.getName())
          .getOrCreate();
    }
    return session;
  }

  /** A zarr reader with the given options: name, value, name, value, ... */
  protected static org.apache.spark.sql.DataFrameReader zarrReader(String... options) {
    org.apache.spark.sql.DataFrameReader reader = spark().read().format("zarr");
    for (int i = 0; i < options.length; i += 2) {
      reader = reader.option(options[i], options[i + 1]);
    }
    return reader;
  }

  /** A store under src/test/resources/spark. */
  protected static String fixture(String name) {
    try {
      return new File(SparkTestBase.class.getResource("/spark/" + name).toURI()).getAbsolutePath();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  protected static JsonNode expected(String name) throws IOException {
    return com.fasterxml.jackson.databind.json.JsonMapper.builder()
        .enable(com.fasterxml.jackson.core.json.JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build()
        .readTree(new File(fixture(name)));
  }

  /**
   * The executed plan, then the description of each of its zarr scans: an aggregate computed on
   * the driver (DriverAggregateScan) leaves no scan node in the executed plan, only local rows.
   */
  protected static String plan(Dataset<Row> df) {
    StringBuilder s = new StringBuilder(df.queryExecution().executedPlan().toString());
    for (var leaf : scala.jdk.javaapi.CollectionConverters.asJava(df.queryExecution().optimizedPlan().collectLeaves())) {
      if (leaf instanceof org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation r) {
        s.append('\n').append(r.scan().description());
      }
    }
    return s.toString();
  }

  /** The zarr scan's SQL metrics of an executed query, by name. */
  protected static Map<String, Long> scanMetrics(Dataset<Row> df) {
    SparkPlan plan = df.queryExecution().executedPlan();
    if (plan instanceof AdaptiveSparkPlanExec a) {
      plan = a.executedPlan();
    }
    Map<String, Long> out = new HashMap<>();
    collect(plan, out);
    return out;
  }

  /** The input partitions of a query's zarr scans, as planned (not executed). */
  protected static List<Object> scanPartitions(Dataset<Row> df) {
    SparkPlan plan = df.queryExecution().executedPlan();
    if (plan instanceof AdaptiveSparkPlanExec a) {
      plan = a.initialPlan();
    }
    List<Object> out = new java.util.ArrayList<>();
    for (SparkPlan leaf : scala.jdk.javaapi.CollectionConverters.asJava(plan.collectLeaves())) {
      if (leaf instanceof BatchScanExec scan) {
        out.addAll(scala.jdk.javaapi.CollectionConverters.asJava(scan.inputPartitions()));
      }
    }
    return out;
  }

  private static void collect(SparkPlan plan, Map<String, Long> out) {
    if (plan instanceof BatchScanExec scan) {
      scala.jdk.javaapi.CollectionConverters.asJava(scan.metrics())
          .forEach((k, v) -> out.merge(k, ((SQLMetric) v).value(), Long::sum));
    }
    if (plan instanceof org.apache.spark.sql.execution.adaptive.QueryStageExec stage) {
      collect(stage.plan(), out);
    }
    scala.jdk.javaapi.CollectionConverters.asJava(plan.children()).forEach(c -> collect(c, out));
  }

  /** An exception's messages with its causes', one a line. */
  protected static String messages(Throwable t) {
    StringBuilder s = new StringBuilder();
    for (Throwable c = t; c != null; c = c.getCause()) {
      s.append(c).append('\n');
    }
    return s.toString();
  }

  /**
   * A Zarr v2 float32 array of {@code shape} in {@code chunks} (JSON lists) with no chunk file, so
   * every element is {@code fill}: a large store that costs nothing to write or read.
   */
  protected static java.nio.file.Path fillArray(java.nio.file.Path dir, String shape, String chunks, double fill)
      throws IOException {
    java.nio.file.Files.createDirectories(dir);
    java.nio.file.Files.writeString(dir.resolve(".zarray"), "{\"zarr_format\": 2, \"shape\": " + shape
        + ", \"chunks\": " + chunks + ", \"dtype\": \"<f4\", \"compressor\": null, \"fill_value\": " + fill
        + ", \"order\": \"C\", \"filters\": null}");
    return dir;
  }

  /** The jobs and stages Spark started while an action ran. */
  protected record Scheduled(int jobs, int stages) {
  }

  protected static Scheduled scheduled(Runnable action) throws java.util.concurrent.TimeoutException {
    java.util.concurrent.atomic.AtomicInteger jobs = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger stages = new java.util.concurrent.atomic.AtomicInteger();
    org.apache.spark.scheduler.SparkListener listener = new org.apache.spark.scheduler.SparkListener() {
      @Override
      public void onJobStart(org.apache.spark.scheduler.SparkListenerJobStart start) {
        jobs.incrementAndGet();
      }

      @Override
      public void onStageSubmitted(org.apache.spark.scheduler.SparkListenerStageSubmitted submitted) {
        stages.incrementAndGet();
      }
    };
    spark().sparkContext().listenerBus().waitUntilEmpty();
    spark().sparkContext().addSparkListener(listener);
    try {
      action.run();
      spark().sparkContext().listenerBus().waitUntilEmpty();
    } finally {
      spark().sparkContext().removeSparkListener(listener);
    }
    return new Scheduled(jobs.get(), stages.get());
  }
}
