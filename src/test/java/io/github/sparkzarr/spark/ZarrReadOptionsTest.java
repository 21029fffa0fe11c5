package io.github.sparkzarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.options.ZarrReadOptions;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** Options are validated with errors that list what is valid, and secrets are never shown. */
class ZarrReadOptionsTest extends SparkTestBase {
  private static final String SECRET = "S3CR3T-do-not-print";

  private static String error(Map<String, String> options) {
    return assertThrows(IllegalArgumentException.class, () -> ZarrReadOptions.parse(options)).getMessage();
  }

  @Test
  void unknownOptionListsTheValidOnes() {
    String msg = error(Map.of("path", "/x", "decodeCf2", "true"));
    assertTrue(msg.contains("decodeCf2") && msg.contains("maxPartitionBytes") && msg.contains("fs.*"), msg);
  }

  @Test
  void badValuesAreClearErrors() {
    assertTrue(error(Map.of("path", "/x", "decodeCF", "yes")).contains("true or false"));
    assertTrue(error(Map.of("path", "/x", "maxPartitionBytes", "lots")).contains("64m"));
    assertTrue(error(Map.of("path", "/x", "maxPartitionBytes", "0")).contains("positive"));
    assertTrue(error(Map.of("path", "/x", "zarr_format", "4")).contains("unknown zarr_format '4'"));
    assertTrue(error(Map.of("path", "/x", "array", "a", "variables", "b")).contains("together"));
    assertTrue(error(Map.of("paths", "[\"/a\",\"/b\"]")).contains("one store"));
    assertTrue(error(Map.of()).contains("needs a path"));
  }

  @Test
  void optionsParseCaseInsensitivelyAndHadoopSettingsApply() {
    ZarrReadOptions o = ZarrReadOptions.parse(Map.of("PATH", "/x", "decodecf", "FALSE",
        "maxpartitionbytes", "64m", "fs.s3a.endpoint", "http://minio", "spark.hadoop.fs.a.b", "c",
        "variables", "t2m, precip"));
    assertFalse(o.decodeCF());
    assertEquals(64L << 20, o.maxPartitionBytes());
    assertEquals(java.util.List.of("t2m", "precip"), o.variables());
    Configuration conf = new Configuration(false);
    o.applyTo(conf);
    assertEquals("http://minio", conf.get("fs.s3a.endpoint"));
    assertEquals("c", conf.get("fs.a.b"));
  }

  @Test
  void secretsAreRedactedFromToStringAndPlans() {
    ZarrReadOptions o = ZarrReadOptions.parse(Map.of("path", "/x", "fs.s3a.secret.key", SECRET,
        "spark.hadoop.fs.azure.account.key.acct.dfs.core.windows.net", SECRET));
    assertFalse(o.toString().contains(SECRET), o.toString());
    assertTrue(o.toString().contains("fs.s3a.secret.key"));

    Dataset<Row> df = spark().read().format("zarr").option("fs.s3a.secret.key", SECRET)
        .option("fs.s3a.access.key", SECRET).load(fixture("dataset.zarr")).where("lat > 30");
    String plans = df.queryExecution().toString() + df.queryExecution().explainString(
        org.apache.spark.sql.execution.ExplainMode.fromString("formatted"));
    assertTrue(plans.contains("ZarrScan"), plans);
    assertFalse(plans.contains(SECRET), plans);
  }

  @Test
  void aMissingStoreIsAClearError() {
    Exception e = assertThrows(Exception.class,
        () -> spark().read().format("zarr").load(fixture("dataset.zarr") + "/nothing_here").schema());
    assertTrue(e.getMessage().contains("no Zarr array or group"), e.getMessage());
  }

  /**
   * Every read option reaches the table the DataFrame API loads (through the path identifier):
   * zarr_format forces the format, so a v2 store read as v3 is not found. It was silently dropped
   * before, as any option the identifier's own list lacked.
   */
  @Test
  void theDataFrameApiHandsEveryReadOptionToTheTable() {
    String v2 = fixture("dataset.zarr");
    assertEquals(315, spark().read().format("zarr").option("zarr_format", "2").load(v2).count());
    Exception e = assertThrows(Exception.class,
        () -> spark().read().format("zarr").option("zarr_format", "3").load(v2).count());
    assertTrue(e.getMessage().contains("no Zarr array or group"), e.getMessage());
    for (String name : new String[] {"array", "variables", "decodeCF", "maxPartitionBytes", "zarr_format",
        "pushDownAggregate", "pushDownValueFilters", "driverAggregateMaxBytes", "ZARR_FORMAT"}) {
      assertTrue(ZarrReadOptions.isTableOption(name), name);
    }
    assertFalse(ZarrReadOptions.isTableOption("path"));
    assertFalse(ZarrReadOptions.isTableOption("paths"));
    assertFalse(ZarrReadOptions.isTableOption("chunks"));
  }
}
