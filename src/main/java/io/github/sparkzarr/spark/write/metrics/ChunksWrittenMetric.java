package io.github.sparkzarr.spark.write.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Summed over the write's tasks. */
public final class ChunksWrittenMetric extends CustomSumMetric {
  public static final String NAME = "chunksWritten";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "zarr chunks written";
  }
}
