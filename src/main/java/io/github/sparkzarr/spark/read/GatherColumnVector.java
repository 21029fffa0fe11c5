package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A computed view that repeats a small vector over the rows of a batch, as Iceberg's
 * RowPositionColumnVector computes positions instead of storing them. Rows enumerate a box in C
 * order; the inner vector holds values only for some of the box's dimensions (a coordinate's one
 * dimension, a broadcast variable's few), and row r reads inner row
 * {@code sum_d ((r / rowStride[d]) % length[d]) * innerStride[d]}.
 */
final class GatherColumnVector extends ColumnVector {
  private final ColumnVector inner;
  private final int[] rowStride;
  private final int[] length;
  private final int[] innerStride;
  private final GatherColumnVector[] children;
  private final int rows;

  GatherColumnVector(ColumnVector inner, int rows, int[] rowStride, int[] length, int[] innerStride) {
    super(inner.dataType());
    this.inner = inner;
    this.rows = rows;
    this.rowStride = rowStride;
    this.length = length;
    this.innerStride = innerStride;
    int n = inner.dataType() instanceof org.apache.spark.sql.types.StructType s ? s.size() : 0;
    this.children = new GatherColumnVector[n];
    for (int i = 0; i < n; i++) {
      children[i] = new GatherColumnVector(inner.getChild(i), rows, rowStride, length, innerStride);
    }
  }

  private int at(int row) {
    int i = 0;
    for (int d = 0; d < rowStride.length; d++) {
      i += ((row / rowStride[d]) % length[d]) * innerStride[d];
    }
    return i;
  }

  @Override
  public void close() {
    inner.close();
  }

  @Override
  public boolean hasNull() {
    return inner.hasNull();
  }

  @Override
  public int numNulls() {
    if (!inner.hasNull()) {
      return 0;
    }
    int n = 0;
    for (int r = 0; r < rows; r++) {
      n += isNullAt(r) ? 1 : 0;
    }
    return n;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return inner.isNullAt(at(rowId));
  }

  @Override
  public boolean getBoolean(int rowId) {
    return inner.getBoolean(at(rowId));
  }

  @Override
  public byte getByte(int rowId) {
    return inner.getByte(at(rowId));
  }

  @Override
  public short getShort(int rowId) {
    return inner.getShort(at(rowId));
  }

  @Override
  public int getInt(int rowId) {
    return inner.getInt(at(rowId));
  }

  @Override
  public long getLong(int rowId) {
    return inner.getLong(at(rowId));
  }

  @Override
  public float getFloat(int rowId) {
    return inner.getFloat(at(rowId));
  }

  @Override
  public double getDouble(int rowId) {
    return inner.getDouble(at(rowId));
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    return inner.getArray(at(rowId));
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    return inner.getMap(at(ordinal));
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    return inner.getDecimal(at(rowId), precision, scale);
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    return inner.getUTF8String(at(rowId));
  }

  @Override
  public byte[] getBinary(int rowId) {
    return inner.getBinary(at(rowId));
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    return children[ordinal];
  }
}
