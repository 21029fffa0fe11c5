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
}
