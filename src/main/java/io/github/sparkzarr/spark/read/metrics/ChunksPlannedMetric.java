package io.github.sparkzarr.spark.read.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Plan-grid chunks the scan planned to read (counted on the driver). */
public final class ChunksPlannedMetric extends CustomSumMetric {
  public static final String NAME = "chunksPlanned";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "zarr chunks planned";
  }
}
