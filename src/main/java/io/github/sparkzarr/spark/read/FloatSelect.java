package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.VectorApi;

/**
 * The inner loop of a filter that is one comparison of float32 or float64 elements with a literal
 * that is not NaN ({@code WHERE t2m > 300}): marks the kept elements directly, without the
 * three-valued states of {@link ValueFilter}. Every implementation marks the same elements.
 */
interface FloatSelect {
  /** The fastest implementation this JVM runs: SIMD when it has the Vector API, else scalar. */
  static FloatSelect best() {
    return Holder.BEST;
  }

  /**
   * Sets {@code keep[i]} to 1 or 0 for elements {@code [0, n)} of {@code chunk} (float32 or float64, one after
   * the other) to whether {@code x op literal} holds, op given as {@link
   * ValueFilter.Comparison#outcomes}; a NaN element is kept when {@code nanKept}, an element equal to
   * {@code skip} (a masked value; NaN for none) never. Returns how many are kept.
   */
  int select(NumericChunk chunk, int n, int outcomes, double literal, boolean nanKept, double skip, byte[] keep);

  /** One element at a time. */
  final class Scalar implements FloatSelect {
    @Override
    public int select(NumericChunk chunk, int n, int outcomes, double literal, boolean nanKept, double skip,
        byte[] keep) {
      return range(chunk, 0, n, outcomes, literal, nanKept, skip, keep);
    }

    /** {@link #select} of elements {@code [from, n)}. */
    static int range(NumericChunk chunk, int from, int n, int outcomes, double literal, boolean nanKept,
        double skip, byte[] keep) {
      boolean float32 = chunk.layout == NumericChunk.Layout.FLOAT32;
      int kept = 0;
      for (int i = from; i < n; i++) {
        double x = float32 ? chunk.floatAt(i) : chunk.doubleAt(i);
        boolean k = x != x ? nanKept : x != skip && ((outcomes >> (x < literal ? 0 : x == literal ? 1 : 2)) & 1) != 0;
        keep[i] = (byte) (k ? 1 : 0);
        kept += keep[i];
      }
      return kept;
    }
  }

  final class Holder {
    static final FloatSelect BEST =
        VectorApi.choose(FloatSelect.class, "io.github.sparkzarr.spark.read.VectorFloatSelect", new Scalar());

    private Holder() {}
  }
}
