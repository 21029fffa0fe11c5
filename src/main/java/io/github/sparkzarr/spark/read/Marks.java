package io.github.sparkzarr.spark.read;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A filter's marks (one byte per element, 1 kept, 0 dropped), worked eight at a time as a long:
 * counted, tested and joined without a branch per element.
 */
final class Marks {
  private static final VarHandle WORD = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private Marks() {}

  /** How many of {@code keep[at, at + n)} are 1. */
  static int count(byte[] keep, int at, int n) {
    int k = 0;
    int j = at;
    // Eight marks (each 0 or 1) summed at once: the multiply adds every byte into the top one.
    for (; j + 8 <= at + n; j += 8) {
      k += (int) (((long) WORD.get(keep, j) * 0x0101010101010101L) >>> 56);
    }
    for (; j < at + n; j++) {
      k += keep[j];
    }
    return k;
  }

  /** Whether any of {@code keep[at, at + n)} is 1. */
  static boolean any(byte[] keep, int at, int n) {
    int j = at;
    for (; j + 8 <= at + n; j += 8) {
      if ((long) WORD.get(keep, j) != 0) {
        return true;
      }
    }
    for (; j < at + n; j++) {
      if (keep[j] != 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * Sets {@code keep[0, n)} to its AND ({@code and}) or OR with {@code other[0, n)}; returns how many
   * are 1. Marks of filters joined by AND or OR are those of the join: in three-valued logic an AND
   * is true where both sides are, an OR where either is.
   */
  static int join(byte[] keep, byte[] other, int n, boolean and) {
    int k = 0;
    int j = 0;
    for (; j + 8 <= n; j += 8) {
      long a = (long) WORD.get(keep, j);
      long b = (long) WORD.get(other, j);
      long w = and ? a & b : a | b;
      WORD.set(keep, j, w);
      k += (int) ((w * 0x0101010101010101L) >>> 56);
    }
    for (; j < n; j++) {
      keep[j] = (byte) (and ? keep[j] & other[j] : keep[j] | other[j]);
      k += keep[j];
    }
    return k;
  }

  /** Marks {@code keep[at, at + 8)} as the eight low bits of a long, mark k in bit k. */
  static long eightBits(byte[] keep, int at) {
    // each mark is 0 or 1: the multiply moves byte k's bit to bit 56 + k, with no carry into them
    return ((long) WORD.get(keep, at) * 0x0102040810204080L) >>> 56;
  }
}
