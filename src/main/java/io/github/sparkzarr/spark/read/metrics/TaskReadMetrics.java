package io.github.sparkzarr.spark.read.metrics;

import io.github.sparkzarr.zarr.store.CountingStore;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/** What a read task reports: chunks found and missing, bytes fetched, decode time. */
public final class TaskReadMetrics {
  private TaskReadMetrics() {}

  public static CustomTaskMetric[] of(CountingStore store, long decodeNanos) {
    return new CustomTaskMetric[] {
      new MetricValue(ChunksReadMetric.NAME, store.valuesFound()),
      new MetricValue(ChunksMissingMetric.NAME, store.valuesMissing()),
      new MetricValue(BytesFetchedMetric.NAME, store.bytesRead()),
      new MetricValue(DecodeTimeMetric.NAME, decodeNanos / 1_000_000),
    };
  }
}
