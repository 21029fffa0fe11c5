package io.github.sparkzarr.spark.write.metrics;

import org.apache.spark.sql.connector.metric.CustomSumMetric;

/** Summed over the write's tasks. */
public final class BytesWrittenMetric extends CustomSumMetric {
  public static final String NAME = "bytesWritten";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "zarr bytes written (encoded)";
  }
}
