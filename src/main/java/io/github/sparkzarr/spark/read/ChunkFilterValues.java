package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * A decoded chunk's elements as {@link FilterValues}, with the values and nulls its Spark column
 * shows: stored integers, floats, or integers unpacked by CF scaling to the column's float or
 * double; CF-masked elements are null.
 */
final class ChunkFilterValues implements FilterValues {
  private final NumericChunk chunk;
  /** Whether the column is FLOAT: unpacked values are rounded to float as the column rounds them. */
  private final boolean single;
  /** Whether the chunk is float32 or float64 elements one after the other, none masked but NaN maybe. */
  private final boolean plainFloats;

  /** @param type the variable's Spark column type */
  ChunkFilterValues(NumericChunk chunk, DataType type) {
    this.chunk = chunk;
    this.single = type.equals(DataTypes.FloatType);
    this.plainFloats = chunk.layout.isFloat() && chunk.plane == 0 && !chunk.masksValues();
  }

  @Override
  public boolean isNull(int i) {
    return chunk.isMissing(i);
  }

  @Override
  public long longAt(int i) {
    return chunk.integralAt(i);
  }

  @Override
  public double doubleAt(int i) {
    double v = chunk.floatingAt(i);
    return single ? (float) v : v;
  }

  /**
   * Marks the kept elements {@code [0, n)} for a filter that is comparison {@code c} alone, by the
   * direct loop ({@link FloatSelect}); returns how many, or -1 when that loop does not apply (not
   * plain floats, a cast to float, a NaN literal).
   */
  int select(ValueFilter.Comparison c, int n, byte[] keep) {
    if (!plainFloats || !c.floating || c.toFloat || Double.isNaN(c.doubleLiteral)) {
      return -1;
    }
    boolean nanKept = !chunk.maskNaN && (c.outcomes & 4) != 0; // NaN is Spark's largest value
    return FloatSelect.best().select(chunk, n, c.outcomes, c.doubleLiteral, nanKept, keep);
  }

  @Override
  public void compare(ValueFilter.Comparison c, int from, int m, byte[] out) {
    if (!plainFloats || !c.floating || c.toFloat) {
      FilterValues.super.compare(c, from, m, out);
      return;
    }
    // A NaN is null where the chunk masks NaN, else a value (Spark's largest).
    byte atNaN = chunk.maskNaN ? c.ifNull() : c.outcome(ValueFilter.Comparison.compareDoubles(Double.NaN, c.doubleLiteral));
    double literal = c.doubleLiteral;
    if (chunk.layout == NumericChunk.Layout.FLOAT32) {
      for (int i = 0; i < m; i++) {
        float x = chunk.floatAt(from + i);
        out[i] = x != x ? atNaN : c.outcome(ValueFilter.Comparison.compareDoubles(x, literal));
      }
    } else {
      for (int i = 0; i < m; i++) {
        double x = chunk.doubleAt(from + i);
        out[i] = x != x ? atNaN : c.outcome(ValueFilter.Comparison.compareDoubles(x, literal));
      }
    }
  }
}
