package io.github.sparkzarr.bench;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * A sharded copy of a bench store, for timing scans of sharded arrays:
 * {@code WriteSharded SOURCE TARGET "16,128,128" "64,256,256"} rewrites SOURCE's variables as Zarr
 * v3 with the given inner chunks and shards (the connector's default codec, zstd), then prints the
 * sum of {@code value} read back.
 */
public final class WriteSharded {
  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().master("local[2]").appName("spark-zarr sharded copy")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    Dataset<Row> df = spark.read().format("zarr").load(args[0]);
    df.write().format("zarr").mode("overwrite").option("chunks", args[2]).option("shards", args[3])
        .save(args[1]);
    System.out.println("sum(value) read back: "
        + spark.read().format("zarr").load(args[1]).agg(functions.sum("value")).first().get(0));
    spark.stop();
  }
}
