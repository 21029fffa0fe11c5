package io.github.sparkzarr.spark.read.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Plan-grid chunks that filter pushdown ruled out (counted on the driver). */
public final class ChunksSkippedMetric extends CustomSumMetric {
  public static final String NAME = "chunksSkipped";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "zarr chunks skipped by pushdown";
  }
}
