package io.github.sparkzarr.spark.stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.SparkTestBase;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.execution.ExtendedMode$;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * s3a:// against s3proxy, a real S3 protocol server, on loopback with an in-memory blob store:
 * the core writes a dataset through S3A, Spark reads it back with credentials given as options.
 */
class S3aStoreTest extends SparkTestBase {
  private static final String BUCKET = "zarr-test";
  private static final String ACCESS_KEY = "spark-zarr-access";
  private static final String SECRET_KEY = "s3cr3t-Value-7f3a9";

  private static BlobStoreContext blobs;
  private static S3Proxy proxy;
  private static Map<String, String> s3aOptions;

  @BeforeAll
  static void startS3() throws Exception {
    blobs = ContextBuilder.newBuilder("transient").credentials("unused", "unused")
        .build(BlobStoreContext.class);
    blobs.getBlobStore().createContainerInLocation(null, BUCKET);
    proxy = S3Proxy.builder().blobStore(blobs.getBlobStore())
        .endpoint(URI.create("http://127.0.0.1:0"))
        .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS_KEY, SECRET_KEY).build();
    proxy.start();
    while (!"STARTED".equals(proxy.getState())) {
      Thread.sleep(10);
    }
    s3aOptions = Map.of(
        "fs.s3a.endpoint", "http://127.0.0.1:" + proxy.getPort(),
        "fs.s3a.endpoint.region", "us-east-1",
        "fs.s3a.path.style.access", "true",
        "fs.s3a.connection.ssl.enabled", "false",
        "fs.s3a.access.key", ACCESS_KEY,
        "fs.s3a.secret.key", SECRET_KEY,
        "fs.s3a.attempts.maximum", "1",
        "fs.s3a.retry.limit", "1");
    Configuration conf = new Configuration();
    s3aOptions.forEach(conf::set);
    try (HadoopStore store = new HadoopStore("s3a://" + BUCKET + "/sample.zarr", conf)) {
      SampleDataset.write(store);
    }
  }

  @AfterAll
  static void stopS3() throws Exception {
    if (proxy != null) {
      proxy.stop();
    }
    if (blobs != null) {
      blobs.close();
    }
  }

  private static Dataset<Row> read(String path) {
    return spark().read().format("zarr").options(s3aOptions).load(path);
  }

  @Test
  void sparkReadsWhatTheCoreWroteThroughS3a() {
    assertTrue(blobs.getBlobStore().blobExists(BUCKET, "sample.zarr/value/2.1"),
        "the chunks are objects in the S3 server");
    SampleDataset.assertReadsCorrectly(read("s3a://" + BUCKET + "/sample.zarr"));
  }

  @Test
  void credentialsGivenAsOptionsStayOutOfExplain() {
    Dataset<Row> df = read("s3a://" + BUCKET + "/sample.zarr").where("value > 20");
    String plan = df.queryExecution().explainString(ExtendedMode$.MODULE$);
    assertTrue(plan.contains("zarr"), plan);
    assertFalse(plan.contains(SECRET_KEY), plan);
    assertEquals(3 + 3 * 4, df.count()); // value = 10 x + y > 20: y > 0 at x = 2, all y at x > 2
  }

  @Test
  void credentialsStayOutOfErrors() {
    Exception e = assertThrows(Exception.class,
        () -> read("s3a://" + BUCKET + "/missing.zarr").count());
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    assertFalse(trace.toString().contains(SECRET_KEY), trace.toString());
    assertTrue(trace.toString().contains("missing.zarr"), trace.toString());
  }
}
