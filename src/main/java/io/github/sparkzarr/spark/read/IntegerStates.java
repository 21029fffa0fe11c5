package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.VectorApi;

/**
 * The inner loop of a comparison of stored integers with a literal, on a block widened to longs:
 * each element's {@link ValueFilter} state. Every implementation writes the same states.
 */
interface IntegerStates {
  /** The fastest implementation this JVM runs: SIMD when it has the Vector API, else scalar. */
  static IntegerStates best() {
    return Holder.BEST;
  }

  /**
   * Writes to {@code out[0, m)} the state of {@code x[i] op literal} (op as {@link
   * ValueFilter.Comparison#outcomes}), or {@code atSkip} where {@code x[i] == skipped} if {@code
   * skips} (a masked value).
   */
  void states(long[] x, int m, long literal, int outcomes, boolean skips, long skipped, byte atSkip, byte[] out);

  /** One element at a time. */
  final class Scalar implements IntegerStates {
    @Override
    public void states(long[] x, int m, long literal, int outcomes, boolean skips, long skipped, byte atSkip,
        byte[] out) {
      range(x, 0, m, literal, outcomes, skips, skipped, atSkip, out);
    }

    /** {@link #states} of elements {@code [from, m)}. */
    static void range(long[] x, int from, int m, long literal, int outcomes, boolean skips, long skipped, byte atSkip,
        byte[] out) {
      for (int i = from; i < m; i++) {
        byte state = (byte) ((outcomes >> (Long.compare(x[i], literal) + 1)) & 1);
        out[i] = skips && x[i] == skipped ? atSkip : state;
      }
    }
  }

  final class Holder {
    static final IntegerStates BEST =
        VectorApi.choose(IntegerStates.class, "io.github.sparkzarr.spark.read.VectorIntegerStates", new Scalar());

    private Holder() {}
  }
}
