package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.dtype.DataType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarArray;
import org.apache.spark.sql.vectorized.ColumnarMap;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * A zero-copy column over a decoded chunk of the numbers {@link NumericChunk#supports} reads
 * (integers of 1 to 8 bytes, float32, float64): row i is element i of the little-endian bytes,
 * read in place; integers packed by CF scaling are unpacked as they are read, as the copying
 * writers unpack them. Saves what a copy costs per chunk and column: a chunk-sized array allocated
 * (often a humongous G1 object), zeroed and filled. When the variable masks fill values, the
 * missing rows are found once ({@link MissingRows}) and only remembered when there are any.
 */
final class ChunkValueVector extends ColumnVector {
  private final NumericChunk elements;
  /** Missing rows, or null when none is. */
  private final boolean[] missing;
  private final int nulls;

  /** Whether a variable can be read in place: see {@link NumericChunk#supports}. */
  static boolean supports(DataType t, CfDecoding cf) {
    return NumericChunk.supports(t, cf);
  }

  /**
   * The first {@code rows} elements of {@code bytes}, a little-endian array of {@code t}, as a
   * column of {@code sparkType} (the variable's column type: {@code t}'s, as masking keeps it, or
   * the unpacked values' float or double).
   */
  ChunkValueVector(byte[] bytes, DataType t, CfDecoding cf, int rows,
      org.apache.spark.sql.types.DataType sparkType) {
    super(sparkType);
    this.elements = new NumericChunk(bytes, t, cf);
    MissingRows m = cf == null ? null : MissingRows.of(elements, rows);
    this.missing = m == null ? null : m.missing;
    this.nulls = m == null ? 0 : m.count;
  }

  /** The elements read, row i being element i. */
  NumericChunk elements() {
    return elements;
  }

  @Override
  public void close() {}

  @Override
  public boolean hasNull() {
    return nulls > 0;
  }

  @Override
  public int numNulls() {
    return nulls;
  }

  @Override
  public boolean isNullAt(int rowId) {
    return missing != null && missing[rowId];
  }

  @Override
  public byte getByte(int rowId) {
    return (byte) elements.integralAt(rowId);
  }

  @Override
  public short getShort(int rowId) {
    return (short) elements.integralAt(rowId);
  }

  @Override
  public int getInt(int rowId) {
    return elements.layout == NumericChunk.Layout.INT32 ? elements.intAt(rowId) : (int) elements.integralAt(rowId);
  }

  @Override
  public long getLong(int rowId) {
    return elements.layout == NumericChunk.Layout.INT64 ? elements.longAt(rowId) : elements.integralAt(rowId);
  }

  @Override
  public float getFloat(int rowId) {
    return elements.unpacks ? (float) elements.floatingAt(rowId) : elements.floatAt(rowId);
  }

  @Override
  public double getDouble(int rowId) {
    return elements.unpacks ? elements.floatingAt(rowId) : elements.doubleAt(rowId);
  }

  @Override
  public boolean getBoolean(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnarArray getArray(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnarMap getMap(int ordinal) {
    throw unsupported();
  }

  @Override
  public Decimal getDecimal(int rowId, int precision, int scale) {
    throw unsupported();
  }

  @Override
  public UTF8String getUTF8String(int rowId) {
    throw unsupported();
  }

  @Override
  public byte[] getBinary(int rowId) {
    throw unsupported();
  }

  @Override
  public ColumnVector getChild(int ordinal) {
    throw unsupported();
  }

  private UnsupportedOperationException unsupported() {
    return new UnsupportedOperationException("a " + dataType() + " column has no such accessor");
  }
}
