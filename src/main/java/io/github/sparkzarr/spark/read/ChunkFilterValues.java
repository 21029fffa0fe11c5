package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * A decoded chunk's elements as {@link FilterValues}, with the values and nulls its Spark column
 * shows: stored integers, floats, or integers unpacked by CF scaling to the column's float or
 * double; CF-masked elements are null. Comparisons of plain floats (NaN and at most one other value
 * masked) and of stored integers (at most one value masked) run in tight loops.
 */
final class ChunkFilterValues implements FilterValues {
  private final NumericChunk chunk;
  /** Whether the column is FLOAT: unpacked values are rounded to float as the column rounds them. */
  private final boolean single;
  /** Whether the chunk is float32 or float64 elements one after the other, masking NaN and at most one value. */
  private final boolean plainFloats;
  /** The one value a plain float chunk masks besides NaN, or NaN. */
  private final double skip;
  /** Where stored integers are widened a block at a time (shared, used by one call at a time). */
  private final StoredIntegers integers;
  private ValueFilter.Comparison packedFor;
  private StoredComparison packedAs;

  /** @param type the variable's Spark column type */
  ChunkFilterValues(NumericChunk chunk, DataType type, StoredIntegers integers) {
    this.chunk = chunk;
    this.single = type.equals(DataTypes.FloatType);
    this.plainFloats = chunk.layout.isFloat() && chunk.plane == 0 && chunk.maskedValueCount() <= 1;
    this.skip = chunk.maskedValueCount() == 1 ? chunk.maskedValue(0) : Double.NaN;
    this.integers = integers;
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
   * Whether a direct loop ({@link FloatSelect}, {@link IntegerSelect}) marks the elements that
   * comparison {@code c} keeps: not when the elements are not plain floats, small stored integers
   * or packed ones whose comparison is one of stored integers ({@link StoredComparison}), nor for a
   * cast to float of floats, a NaN literal of floats, or a literal outside the integers' range.
   */
  boolean selects(ValueFilter.Comparison c) {
    return selectsIntegers(c) || packed(c) != null
        || plainFloats && c.floating && !c.toFloat && !Double.isNaN(c.doubleLiteral);
  }

  /**
   * {@code c} as a comparison of the stored integers of a packed chunk, or null when it is none;
   * kept for the last comparison asked, which is asked again for each piece of the chunk.
   */
  private StoredComparison packed(ValueFilter.Comparison c) {
    if (c != packedFor) {
      packedFor = c;
      packedAs = chunk.unpacks && chunk.storedIntegersReadable() ? StoredComparison.of(c, chunk, single) : null;
    }
    return packedAs;
  }

  private boolean selectsIntegers(ValueFilter.Comparison c) {
    return plainIntegers() && !c.floating && IntegerSelect.holds(chunk.layout, c.longLiteral);
  }

  /**
   * Marks the kept elements {@code [0, n)} of comparison {@code c}, one this {@link #selects}, by the
   * direct loop; returns how many.
   */
  int select(ValueFilter.Comparison c, int n, byte[] keep) {
    if (selectsIntegers(c)) {
      return selectIntegers(c.outcomes, c.longLiteral, n, keep);
    }
    StoredComparison stored = packed(c);
    if (stored != null) {
      return selectIntegers(stored.outcomes(), stored.literal(), n, keep);
    }
    boolean nanKept = !chunk.maskNaN && (c.outcomes & 4) != 0; // NaN is Spark's largest value
    return FloatSelect.best().select(chunk, n, c.outcomes, c.doubleLiteral, nanKept, skip, keep);
  }

  private int selectIntegers(int outcomes, long literal, int n, byte[] keep) {
    boolean skips = chunk.skipsOneValue && IntegerSelect.holds(chunk.layout, chunk.skippedValue);
    return IntegerSelect.best().select(chunk, n, outcomes, literal, skips, chunk.skippedValue, keep);
  }

  /** Whether the elements are integers one after the other, compared as stored (not unpacked). */
  private boolean plainIntegers() {
    return !chunk.layout.isFloat() && chunk.plane == 0 && !chunk.unpacks && chunk.storedIntegersReadable();
  }

  @Override
  public void compare(ValueFilter.Comparison c, int from, int m, byte[] out) {
    StoredComparison stored = packed(c);
    if (plainFloats && c.floating && !c.toFloat) {
      compareFloats(c, from, m, out);
    } else if (!chunk.layout.isFloat() && !chunk.unpacks && chunk.storedIntegersReadable() && !c.floating) {
      compareIntegers(c, c.outcomes, c.longLiteral, from, m, out);
    } else if (stored != null) {
      compareIntegers(c, stored.outcomes(), stored.literal(), from, m, out);
    } else {
      FilterValues.super.compare(c, from, m, out);
    }
  }

  private void compareFloats(ValueFilter.Comparison c, int from, int m, byte[] out) {
    // A NaN is null where the chunk masks NaN, else a value (Spark's largest).
    byte atNaN = chunk.maskNaN ? c.ifNull() : c.outcome(ValueFilter.Comparison.compareDoubles(Double.NaN, c.doubleLiteral));
    byte atSkip = c.ifNull();
    double literal = c.doubleLiteral;
    boolean float32 = chunk.layout == NumericChunk.Layout.FLOAT32;
    for (int i = 0; i < m; i++) {
      double x = float32 ? chunk.floatAt(from + i) : chunk.doubleAt(from + i);
      out[i] = x != x ? atNaN : x == skip ? atSkip : c.outcome(ValueFilter.Comparison.compareDoubles(x, literal));
    }
  }

  /**
   * Stored integers widened a block at a time and compared with {@code literal} by {@code outcomes}
   * (those of {@code c}, or its {@link StoredComparison}); the one masked value, if any, is
   * {@code c}'s null. In int lanes where every value fits an int ({@link IntegerStates}).
   */
  private void compareIntegers(ValueFilter.Comparison c, int outcomes, long literal, int from, int m, byte[] out) {
    long[] x = integers.widened(chunk, from, m);
    boolean narrow = chunk.layout != NumericChunk.Layout.INT64 && chunk.layout != NumericChunk.Layout.UINT32;
    IntegerStates loop = narrow ? IntegerStates.best() : SCALAR_INTEGERS;
    loop.states(x, m, literal, outcomes, chunk.skipsOneValue, chunk.skippedValue, c.ifNull(), out);
  }

  private static final IntegerStates SCALAR_INTEGERS = new IntegerStates.Scalar();
}
