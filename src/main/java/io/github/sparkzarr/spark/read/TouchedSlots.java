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
    int end = slot + n;
    int j = at;
    for (int s = slot; s < end; ) {
      int w = s >>> 6;
      int stop = Math.min(end, (w + 1) << 6);
      long bits = 0;
      for (; s < stop; s++, j++) {
        bits |= (long) keep[j] << s; // the shift takes s modulo 64
      }
      words[w] |= bits;
    }
  }

  private void grow(int slot) {
    int w = slot >>> 6;
    if (w >= words.length) {
      words = Arrays.copyOf(words, Math.max(w + 1, 2 * words.length));
    }
  }
}
