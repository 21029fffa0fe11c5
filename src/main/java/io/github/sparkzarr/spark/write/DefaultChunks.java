package io.github.sparkzarr.spark.write;

/**
 * Chunk lengths when the write names none: about {@code targetBytes} per chunk of the widest
 * value array. With a known shape, chunks fill the last dimensions first (whole rows are
 * contiguous in C order); without one, the elements are split evenly across dimensions.
 */
final class DefaultChunks {
  private DefaultChunks() {}

  /** Variable-length elements are counted at this many bytes. */
  static final int VARIABLE_LENGTH_BYTES = 16;

  static int[] of(int rank, int elementBytes, long targetBytes, long[] shape) {
    long budget = Math.max(1, targetBytes / Math.max(1, elementBytes));
    int[] chunks = new int[rank];
    if (shape != null) {
      for (int d = rank - 1; d >= 0; d--) {
        long len = Math.max(1, Math.min(shape[d], budget));
        chunks[d] = (int) Math.min(len, Integer.MAX_VALUE);
        budget = Math.max(1, budget / len);
      }
      return chunks;
    }
    int even = (int) Math.max(1, Math.floor(Math.pow(budget, 1.0 / Math.max(1, rank))));
    java.util.Arrays.fill(chunks, even);
    return chunks;
  }
}
