package io.github.sparkzarr.spark.read;

/**
 * An accumulator with a loop for a grid row whose groups are consecutive slots (a time-mean map:
 * the last dimension grouped on), where {@link Accumulator#addEach} would look up each element's
 * slot and decide the element's layout one element at a time.
 */
interface RowAccumulator extends Accumulator {
  /**
   * Adds elements {@code [from, from + n)} of {@code chunk}, element {@code j} to slot
   * {@code slot + j}, with the same result as {@link #addEach} given those slots.
   */
  void addRow(NumericChunk chunk, int from, int n, int slot);

  /** Whether {@link #addRowKept} takes runs of {@code chunk} (null for COUNT(*)). */
  default boolean addsRowKept(NumericChunk chunk) {
    return false;
  }

  /**
   * {@link #addRow} of the elements a filter kept: element {@code j}, when {@code keep[from + j]}
   * is 1, to slot {@code slot + j}; only where {@link #addsRowKept} says so.
   */
  default void addRowKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " adds kept rows one by one");
  }
}
