package io.github.sparkzarr.spark.read.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Chunks that were never written, read as the fill value. */
public final class ChunksMissingMetric extends CustomSumMetric {
  public static final String NAME = "chunksMissing";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "zarr chunks missing (fill value)";
  }
}
