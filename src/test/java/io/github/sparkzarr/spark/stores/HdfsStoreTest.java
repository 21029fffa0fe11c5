package io.github.sparkzarr.spark.stores;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.SparkTestBase;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.File;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** hdfs:// against an in-process MiniDFSCluster (one NameNode, one DataNode, on loopback). */
class HdfsStoreTest extends SparkTestBase {
  private static MiniDFSCluster cluster;
  private static String root;

  @BeforeAll
  static void startHdfs() throws Exception {
    Configuration conf = new Configuration();
    conf.set("dfs.namenode.rpc-bind-host", "127.0.0.1");
    conf.set("dfs.datanode.address", "127.0.0.1:0");
    conf.set("dfs.datanode.http.address", "127.0.0.1:0");
    conf.set("dfs.datanode.ipc.address", "127.0.0.1:0");
    conf.set("dfs.namenode.http-address", "127.0.0.1:0");
    File base = new File("target/minidfs").getAbsoluteFile();
    cluster = new MiniDFSCluster.Builder(conf, base).numDataNodes(1).format(true).build();
    cluster.waitActive();
    root = "hdfs://127.0.0.1:" + cluster.getNameNodePort() + "/data/sample.zarr";
    try (HadoopStore store = new HadoopStore(root, new Configuration())) {
      SampleDataset.write(store);
    }
  }

  @AfterAll
  static void stopHdfs() {
    if (cluster != null) {
      cluster.shutdown(true);
    }
  }

  @Test
  void sparkReadsWhatTheCoreWroteOnHdfs() {
    SampleDataset.assertReadsCorrectly(spark().read().format("zarr").load(root));
  }

  @Test
  void storeAnswersAbsentAndSizeOnHdfs() throws Exception {
    try (HadoopStore store = new HadoopStore(root, new Configuration())) {
      assertEquals(Optional.empty(), store.get("value/9.9"));
      assertEquals(Optional.empty(), store.size("value"), "a directory is not a key");
      assertTrue(store.size("value/0.0").orElseThrow() > 0);
      assertEquals(store.get("value/0.0").orElseThrow().length,
          store.size("value/0.0").orElseThrow());
      byte[] whole = store.get(".zmetadata").orElseThrow();
      byte[] range = store.getRange(".zmetadata", 3, 10).orElseThrow();
      assertEquals(new String(whole, 3, 10), new String(range));
    }
  }
}
