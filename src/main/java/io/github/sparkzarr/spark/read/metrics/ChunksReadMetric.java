package io.github.sparkzarr.spark.read.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Stored chunks fetched by the tasks, of every array read. */
public final class ChunksReadMetric extends CustomSumMetric {
  public static final String NAME = "chunksRead";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "zarr chunks read";
  }
}
