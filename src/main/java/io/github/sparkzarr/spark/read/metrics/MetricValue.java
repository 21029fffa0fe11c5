package io.github.sparkzarr.spark.read.metrics;

import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/** A metric's value reported by a task or the driver. */
public record MetricValue(String name, long value) implements CustomTaskMetric {}
