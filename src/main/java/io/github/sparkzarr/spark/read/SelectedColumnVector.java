package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.vectorized.ColumnVector;

/** The rows of a batch that a filter on values kept: row r reads inner row {@code rows[r]}. */
final class SelectedColumnVector extends IndexedColumnVector {
  private final int[] rows;
  private final int count;

  /** @param rows the kept inner rows, ascending, in {@code rows[0, count)} */
  SelectedColumnVector(ColumnVector inner, int[] rows, int count) {
    super(inner, count);
    this.rows = rows;
    this.count = count;
  }

  @Override
  int at(int row) {
    return rows[row];
  }

  @Override
  ColumnVector viewOf(ColumnVector innerChild) {
    return new SelectedColumnVector(innerChild, rows, count);
  }
}
