package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.connector.read.InputPartition;

/** Planned chunks {@code [start, end)} (numbered in the scan plan's C order): whole chunks only. */
public record ZarrInputPartition(long start, long end) implements InputPartition {}
