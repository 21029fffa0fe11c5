package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/** Copies decoded elements into a column vector. */
@FunctionalInterface
public interface ValueWriter {
  /** Writes elements {@code [from, from + count)} of {@code src} to rows {@code [row, row + count)}. */
  void write(ChunkData src, int from, WritableColumnVector out, int row, int count);
}
