package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.vectorized.ColumnVector;

/**
 * A computed view that repeats a small vector over the rows of a batch, as Iceberg's
 * RowPositionColumnVector computes positions instead of storing them. Rows enumerate a box in C
 * order; the inner vector holds values only for some of the box's dimensions (a coordinate's one
 * dimension, a broadcast variable's few), and row r reads inner row
 * {@code sum_d ((r / rowStride[d]) % length[d]) * innerStride[d]}.
 */
final class GatherColumnVector extends IndexedColumnVector {
  private final int[] rowStride;
  private final int[] length;
  private final int[] innerStride;
  private final int rows;

  GatherColumnVector(ColumnVector inner, int rows, int[] rowStride, int[] length, int[] innerStride) {
    super(inner, rows);
    this.rows = rows;
    this.rowStride = rowStride;
    this.length = length;
    this.innerStride = innerStride;
  }

  @Override
  int at(int row) {
    int i = 0;
    for (int d = 0; d < rowStride.length; d++) {
      i += ((row / rowStride[d]) % length[d]) * innerStride[d];
    }
    return i;
  }

  @Override
  ColumnVector viewOf(ColumnVector innerChild) {
    return new GatherColumnVector(innerChild, rows, rowStride, length, innerStride);
  }
}
