package io.github.sparkzarr.bench;

import org.apache.spark.sql.SparkSession;

/** The benchmarks' Spark session: local[2], no UI, loopback only, two shuffle partitions, WARN logs. */
final class BenchSession {
  /** The cores of the session, for ratios to a one-thread limit. */
  static final int CORES = 2;

  private BenchSession() {}

  static SparkSession local(String appName) {
    SparkSession spark = SparkSession.builder().master("local[" + CORES + "]").appName(appName)
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "2")
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    return spark;
  }
}
