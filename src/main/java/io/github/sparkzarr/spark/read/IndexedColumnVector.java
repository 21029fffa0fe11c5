package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A view whose row r is row {@link #at}(r) of an inner vector (a struct's fields likewise), so a
 * batch's rows can be rearranged or chosen without copying any value.
 */
abstract class IndexedColumnVector extends ColumnVector {
  private final ColumnVector inner;
  private final int rows;
  private ColumnVector[] children;

  IndexedColumnVector(ColumnVector inner, int rows) {
    super(inner.dataType());
    this.inner = inner;
    this.rows = rows;
  }

  /** The inner row that row {@code row} reads. */
  abstract int at(int row);

  /** The same view over one of the inner vector's children (a struct field). */
  abstract ColumnVector viewOf(ColumnVector innerChild);

  @Override
  public void close() {
    inner.close();
  }

  /**
   * Frees nothing. Spark 4 frees each batch it has read through this method (ColumnVector's
   * default closes), but the inner vector belongs to the reader, which may refill it for the next
   * batch (a grouped aggregate's result columns) and closes it itself. Not an override on Spark
   * 3.5, which has no such method.
   */
  public void closeIfFreeable() {}

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
    if (children == null) {
      int n = inner.dataType() instanceof StructType s ? s.size() : 0;
      children = new ColumnVector[n];
      for (int i = 0; i < n; i++) {
        children[i] = viewOf(inner.getChild(i));
      }
    }
    return children[ordinal];
  }
}
