package io.github.sparkzarr.spark.write.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Time the tasks spent encoding (compressing) chunks, in milliseconds, summed. */
public final class EncodeTimeMetric extends CustomSumMetric {
  public static final String NAME = "encodeTimeMs";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "zarr chunk encode time (ms)";
  }
}
