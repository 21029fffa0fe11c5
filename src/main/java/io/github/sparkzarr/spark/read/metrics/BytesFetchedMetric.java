package io.github.sparkzarr.spark.read.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Bytes fetched from the store for chunks. */
public final class BytesFetchedMetric extends CustomSumMetric {
  public static final String NAME = "bytesFetched";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "zarr bytes fetched";
  }
}
