package io.github.sparkzarr.spark.read;

/**
 * Which runs of group cells go to consecutive slots, so that a row of a map is added as a row
 * ({@link RowAccumulator#addRow}). Kept by a partition's reader from chunk to chunk while the slots
 * stay the same: every chunk of one time step over a whole grid repeats the same runs, and
 * checking them is a pass over the slots as long as adding the chunk.
 */
final class ConsecutiveRuns {
  private int[] slotOf;
  private int stride;
  /**
   * Per group a run starts at: n > 0 if its first n slots are consecutive, -j if slot j breaks
   * the sequence, 0 if not looked at yet; null until asked.
   */
  private int[] known;

  /** These runs for {@code slotOf} with cells {@code stride} apart; forgets other slots'. */
  ConsecutiveRuns over(int[] slotOf, int stride) {
    if (slotOf != this.slotOf || stride != this.stride) {
      this.slotOf = slotOf;
      this.stride = stride;
      known = null;
    }
    return this;
  }

  /** Whether the {@code n} cells from group {@code g} on have consecutive slots. */
  boolean consecutive(int g, int n) {
    if (known == null) {
      known = new int[slotOf.length];
    }
    int k = known[g];
    if (k > 0 && n <= k) {
      return true;
    }
    if (k < 0 && n > -k) {
      return false;
    }
    int first = slotOf[g];
    for (int j = 1; j < n; j++) {
      if (slotOf[g + j * stride] != first + j) {
        known[g] = -j;
        return false;
      }
    }
    known[g] = n;
    return true;
  }
}
