package io.github.sparkzarr.spark.read;

import java.util.Arrays;

/**
 * The slots of a scan's groups that a filter's kept elements reached: a bit set whose rows of
 * marks ({@link #setKept}) are set a word at a time. A map under a filter sets one slot per kept
 * element, and {@link java.util.BitSet#set} per element took a quarter of such a scan's time.
 */
final class TouchedSlots {
  private long[] words = new long[1];

  void set(int slot) {
    grow(slot);
    words[slot >>> 6] |= 1L << slot;
  }

  boolean get(int slot) {
    int w = slot >>> 6;
    return w < words.length && (words[w] >>> slot & 1) != 0;
  }

  /** Sets slot {@code slot + j} for each {@code j} of {@code [0, n)} with {@code keep[at + j]} 1 (marks are 0 or 1). */
  void setKept(byte[] keep, int at, int n, int slot) {
    if (n <= 0) {
      return;
    }
    grow(slot + n - 1);
    int j = 0;
    for (; j + 8 <= n; j += 8) {
      long bits = Marks.eightBits(keep, at + j);
      int p = slot + j;
      int shift = p & 63;
      words[p >>> 6] |= bits << shift;
      if (shift > 56) {
        words[(p >>> 6) + 1] |= bits >>> (64 - shift); // the eight straddle two words
      }
    }
    for (; j < n; j++) {
      int p = slot + j;
      words[p >>> 6] |= (long) keep[at + j] << p; // the shift takes p modulo 64
    }
  }

  private void grow(int slot) {
    int w = slot >>> 6;
    if (w >= words.length) {
      words = Arrays.copyOf(words, Math.max(w + 1, 2 * words.length));
    }
  }
}
