package io.github.sparkzarr.spark.read;

/**
 * A comparison of a CF-packed variable's unpacked values ({@code WHERE t2m > 290} on int16 with a
 * scale factor) restated as a comparison of its stored integers ({@code raw >= 6138}), so the
 * direct integer loops mark it without unpacking a single element.
 *
 * <p>Unpacking is monotonic in the stored value (non-decreasing for a positive scale, non-increasing
 * for a negative one: a rounded multiply and add keep the order), so the stored values split into
 * at most three runs, below, equal to and above the literal as the column shows them. Their
 * bounds are found by bisection over the layout's range, each probe the very comparison the
 * element loop makes, and the kept runs are one stored comparison when they join into a prefix,
 * a suffix, one value or all values but one. Else (several stored values unpacking to the literal,
 * compared for equality) there is no such comparison and the element loop decides.
 */
record StoredComparison(int outcomes, long literal) {
  private static final int LESS = 1;
  private static final int EQUAL = 2;
  private static final int GREATER = 4;
  private static final StoredComparison NONE = new StoredComparison(0, 0);

  /**
   * {@code c} on the unpacked values of {@code chunk} as a comparison of its stored integers (1 to 4
   * bytes one after the other, not byte-shuffled), or null when there is none. The masked value,
   * if any, stays the caller's to leave out.
   *
   * @param single whether the column is FLOAT, so values are rounded to float as it shows them
   */
  static StoredComparison of(ValueFilter.Comparison c, NumericChunk chunk, boolean single) {
    if (!chunk.unpacks || !c.floating || !c.sourceFloating || chunk.elementSize() > 4 || chunk.plane != 0
        || !Double.isFinite(chunk.unpackScale()) || chunk.unpackScale() == 0 || !Double.isFinite(chunk.unpackOffset())) {
      return null;
    }
    long lowest = lowest(chunk.layout);
    long end = lowest + (1L << (8 * chunk.elementSize())); // one past the highest
    boolean reversed = chunk.unpackReversesOrder();
    // the first stored values from which the outcome is no longer the lowest values' one, then
    // no longer EQUAL
    long t1 = firstWhere(lowest, end, raw -> reversed ? order(c, chunk, single, raw) <= 0 : order(c, chunk, single, raw) >= 0);
    long t2 = firstWhere(t1, end, raw -> reversed ? order(c, chunk, single, raw) < 0 : order(c, chunk, single, raw) > 0);
    boolean keepLow = (c.outcomes & (reversed ? GREATER : LESS)) != 0 && t1 > lowest;
    boolean keepMiddle = (c.outcomes & EQUAL) != 0 && t2 > t1;
    boolean keepHigh = (c.outcomes & (reversed ? LESS : GREATER)) != 0 && end > t2;
    boolean hasLow = t1 > lowest;
    boolean hasMiddle = t2 > t1;
    boolean hasHigh = end > t2;
    if ((keepLow || !hasLow) && (keepMiddle || !hasMiddle) && (keepHigh || !hasHigh)) {
      return new StoredComparison(LESS | EQUAL | GREATER, lowest);
    }
    if (!keepLow && !keepMiddle && !keepHigh) {
      return NONE;
    }
    if (keepLow && !keepHigh) {
      return new StoredComparison(LESS, keepMiddle ? t2 : t1); // a prefix
    }
    if (keepHigh && !keepLow) {
      return new StoredComparison(EQUAL | GREATER, keepMiddle ? t1 : t2); // a suffix
    }
    if (keepMiddle) {
      return t2 - t1 == 1 ? new StoredComparison(EQUAL, t1) : null; // only the middle
    }
    return t2 - t1 == 1 ? new StoredComparison(LESS | GREATER, t1) : null; // all but the middle
  }

  /** How the stored value {@code raw}, unpacked as the column shows it, compares with the literal. */
  private static int order(ValueFilter.Comparison c, NumericChunk chunk, boolean single, long raw) {
    double v = chunk.unpack(raw);
    v = single || c.toFloat ? (float) v : v;
    return Integer.signum(ValueFilter.Comparison.compareDoubles(v, c.doubleLiteral));
  }

  /** The first of {@code [from, end)} where {@code p} holds, {@code p} false then true over it; {@code end} if none. */
  private static long firstWhere(long from, long end, java.util.function.LongPredicate p) {
    long lo = from;
    long hi = end;
    while (lo < hi) {
      long mid = lo + (hi - lo) / 2;
      if (p.test(mid)) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  private static long lowest(NumericChunk.Layout layout) {
    return switch (layout) {
      case INT8 -> Byte.MIN_VALUE;
      case INT16 -> Short.MIN_VALUE;
      case INT32 -> Integer.MIN_VALUE;
      case UINT8, UINT16, UINT32 -> 0;
      default -> throw new IllegalArgumentException("not an integer layout of at most 4 bytes: " + layout);
    };
  }
}
