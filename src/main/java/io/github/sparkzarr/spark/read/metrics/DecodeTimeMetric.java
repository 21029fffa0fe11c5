package io.github.sparkzarr.spark.read.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Milliseconds spent decoding chunks (reading regions, less fetching). */
public final class DecodeTimeMetric extends CustomSumMetric {
  public static final String NAME = "decodeTimeMs";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "zarr decode time (ms)";
  }
}
