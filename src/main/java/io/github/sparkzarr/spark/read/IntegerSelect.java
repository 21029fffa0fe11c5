package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.VectorApi;

/**
 * The inner loop of a filter that is one comparison of stored integers (1 to 8 bytes, not packed)
 * with a literal of their range ({@code WHERE pixel > 127}): marks the kept elements directly from
 * the stored bytes, without widening them to longs or the three-valued states of {@link
 * ValueFilter}. Every implementation marks the same elements.
 */
interface IntegerSelect {
  /** The fastest implementation this JVM runs: SIMD when it has the Vector API, else scalar. */
  static IntegerSelect best() {
    return Holder.BEST;
  }

  /** Whether {@code value} is one that elements of {@code layout} (an integer layout) can hold. */
  static boolean holds(NumericChunk.Layout layout, long value) {
    return switch (layout) {
      case INT8 -> value == (byte) value;
      case UINT8 -> value == (value & 0xFF);
      case INT16 -> value == (short) value;
      case UINT16 -> value == (value & 0xFFFF);
      case INT32 -> value == (int) value;
      case UINT32 -> value == (value & 0xFFFFFFFFL);
      case INT64 -> true;
      default -> false;
    };
  }

  /**
   * Sets {@code keep[i]} to 1 or 0 for elements {@code [0, n)} of {@code chunk} (integers one after
   * the other) to whether {@code x op literal} holds, op given as {@link
   * ValueFilter.Comparison#outcomes} and {@code literal} one the layout {@link #holds}; an element
   * equal to {@code skipped} (the masked value, when {@code skips}) never. Returns how many are kept.
   */
  int select(NumericChunk chunk, int n, int outcomes, long literal, boolean skips, long skipped, byte[] keep);

  /** One element at a time. */
  final class Scalar implements IntegerSelect {
    @Override
    public int select(NumericChunk chunk, int n, int outcomes, long literal, boolean skips, long skipped,
        byte[] keep) {
      return range(chunk, 0, n, outcomes, literal, skips, skipped, keep);
    }

    /** {@link #select} of elements {@code [from, n)}. */
    static int range(NumericChunk chunk, int from, int n, int outcomes, long literal, boolean skips, long skipped,
        byte[] keep) {
      int kept = 0;
      for (int i = from; i < n; i++) {
        long x = chunk.integralAt(i);
        boolean k = !(skips && x == skipped) && ((outcomes >> (Long.compare(x, literal) + 1)) & 1) != 0;
        keep[i] = (byte) (k ? 1 : 0);
        kept += keep[i];
      }
      return kept;
    }
  }

  final class Holder {
    static final IntegerSelect BEST =
        VectorApi.choose(IntegerSelect.class, "io.github.sparkzarr.spark.read.VectorIntegerSelect", new Scalar());

    private Holder() {}
  }
}
