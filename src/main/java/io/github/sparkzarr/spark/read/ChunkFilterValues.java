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
  /** Whether the chunk is float32 or float64 elements one after the other, none of them masked. */
  private final boolean plainFloats;

  /** @param type the variable's Spark column type */
  ChunkFilterValues(NumericChunk chunk, DataType type) {
    this.chunk = chunk;
    this.single = type.equals(DataTypes.FloatType);
    this.plainFloats = chunk.layout.isFloat() && chunk.plane == 0 && !chunk.maskNaN && !chunk.masksValues();
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

  @Override
  public void compare(ValueFilter.Comparison c, int from, int m, byte[] out) {
    if (!plainFloats || !c.floating || c.toFloat) {
      FilterValues.super.compare(c, from, m, out);
    } else if (chunk.layout == NumericChunk.Layout.FLOAT32) {
      for (int i = 0; i < m; i++) {
        out[i] = c.outcome(ValueFilter.Comparison.compareDoubles(chunk.floatAt(from + i), c.doubleLiteral));
      }
    } else {
      for (int i = 0; i < m; i++) {
        out[i] = c.outcome(ValueFilter.Comparison.compareDoubles(chunk.doubleAt(from + i), c.doubleLiteral));
      }
    }
  }
}
