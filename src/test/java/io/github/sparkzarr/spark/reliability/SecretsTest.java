package io.github.sparkzarr.spark.reliability;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.SparkTestBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.ExplainMode;
import org.apache.spark.sql.execution.SparkPlanInfo;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Credentials given as read options (fs.* and spark.hadoop.* forms) or in the session's Hadoop
 * configuration never show in EXPLAIN (every mode), the plan the SQL UI keeps, logs, metrics or
 * error messages: every text a read produces is searched for each secret value.
 */
class SecretsTest extends SparkTestBase {
  private static final String STORE = "src/test/resources/corpus/hostile/";
  /** Option name -> a distinctive secret value. */
  private static final Map<String, String> OPTION_SECRETS = Map.of(
      "fs.s3a.secret.key", "S3ASECRETKEYzq81",
      "fs.s3a.access.key", "AKIAACCESSKEYzq82",
      "fs.azure.account.key.acct.dfs.core.windows.net", "AZUREACCOUNTKEYzq83",
      "spark.hadoop.fs.s3a.session.token", "SESSIONTOKENzq84",
      "fs.azure.sas.token.provider.secret", "SASSECRETzq85");
  private static final String CONF_KEY = "fs.s3a.bucket.example.secret.key";
  private static final String CONF_SECRET = "HADOOPCONFSECRETzq86";

  private final StringBuilder seen = new StringBuilder();
  private final SparkListener listener = new SparkListener() {
    @Override
    public void onOtherEvent(SparkListenerEvent event) {
      if (event instanceof SparkListenerSQLExecutionStart start) {
        synchronized (seen) {
          seen.append(start.description()).append('\n').append(start.details()).append('\n')
              .append(start.physicalPlanDescription()).append('\n');
          appendPlan(start.sparkPlanInfo());
        }
      }
    }
  };

  private void appendPlan(SparkPlanInfo info) {
    seen.append(info.nodeName()).append(' ').append(info.simpleString()).append(' ')
        .append(info.metadata()).append(' ').append(info.metrics()).append('\n');
    scala.jdk.javaapi.CollectionConverters.asJava(info.children()).forEach(this::appendPlan);
  }

  @AfterEach
  void cleanUp() {
    spark().sparkContext().hadoopConfiguration().unset(CONF_KEY);
    spark().sparkContext().removeSparkListener(listener);
  }

  private static DataFrameReader withSecrets() {
    DataFrameReader r = spark().read().format("zarr");
    for (Map.Entry<String, String> e : OPTION_SECRETS.entrySet()) {
      r = r.option(e.getKey(), e.getValue());
    }
    return r;
  }

  @Test
  void secretsAppearNowhere() throws Exception {
    spark().sparkContext().hadoopConfiguration().set(CONF_KEY, CONF_SECRET);
    spark().sparkContext().addSparkListener(listener);
    List<String> texts = new ArrayList<>();
    try (LogCapture logs = new LogCapture()) {
      // A read that works: explain in every mode, run, metrics.
      Dataset<Row> ok = withSecrets().option("array", "a")
          .load(Path.of(STORE, "v2_zlib_chunk_truncated").toAbsolutePath().toString())
          .where("dim_0 < 8");
      for (String mode : List.of("simple", "extended", "codegen", "cost", "formatted")) {
        texts.add(ok.queryExecution().explainString(ExplainMode.fromString(mode)));
      }
      ok.collectAsList();
      texts.add(scanMetrics(ok).toString());
      texts.add(ok.queryExecution().executedPlan().toString());
      texts.add(ok.queryExecution().toString());
      // Reads that fail: in a task (corrupt chunk), at load (bad metadata, missing store).
      Dataset<Row> corrupt = withSecrets().option("array", "a")
          .load(Path.of(STORE, "v2_zlib_chunk_truncated").toAbsolutePath().toString());
      texts.add(Failures.fullText(assertThrows(Exception.class, corrupt::collectAsList)));
      texts.add(Failures.fullText(assertThrows(Exception.class, () -> withSecrets()
          .load(Path.of(STORE, "v2_dtype_number").toAbsolutePath() + "/a").schema())));
      texts.add(Failures.fullText(assertThrows(Exception.class,
          () -> withSecrets().load("/nonexistent/store.zarr").schema())));
      texts.add(Failures.fullText(assertThrows(Exception.class,
          () -> withSecrets().option("maxPartitionBytes", "lots").load("/x").schema())));
      spark().sparkContext().listenerBus().waitUntilEmpty();
      assertTrue(logs.text().contains("DAGScheduler"), "the log capture should see Spark's logs");
      texts.add(logs.text());
    }
    synchronized (seen) {
      texts.add(seen.toString());
    }
    String all = String.join("\n", texts);
    assertTrue(all.contains("v2_zlib_chunk_truncated") && all.contains("BatchScan"),
        "the captured text should hold the plans and errors");
    List<String> secrets = new ArrayList<>(OPTION_SECRETS.values());
    secrets.add(CONF_SECRET);
    for (String secret : secrets) {
      int at = all.indexOf(secret);
      assertFalse(at >= 0, () -> "secret " + secret + " leaked: ..."
          + all.substring(Math.max(0, at - 300), Math.min(all.length(), at + 100)));
    }
  }

  /** A path with user info (s3a://key:secret@bucket style) is shown without it in errors. */
  @Test
  void userInfoInThePathIsNotShown() {
    Exception e = assertThrows(Exception.class, () -> spark().read().format("zarr")
        .load("file://someone:PATHSECRETzq87@localhost/nonexistent/store.zarr").schema());
    String text = Failures.fullText(e);
    assertFalse(text.contains("PATHSECRETzq87"), text);
    assertTrue(text.contains("file://localhost/nonexistent/store.zarr holds user info"), text);
  }
}
