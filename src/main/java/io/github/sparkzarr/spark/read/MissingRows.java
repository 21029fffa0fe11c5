package io.github.sparkzarr.spark.read;

/**
 * The rows of a chunk read in place that are missing (null). When only NaN means missing, the
 * chunk is summed a segment at a time in SIMD lanes ({@link LaneSums}) and only a segment whose
 * sum is NaN is tested element by element, so a chunk without missing values costs a fast pass.
 */
final class MissingRows {
  /** Elements per segment: small enough to test again while still in cache. */
  private static final int SEGMENT = 4096;
  private static final LaneSums KERNELS = LaneSums.best();

  /** Missing rows, or null when none is. */
  final boolean[] missing;
  final int count;

  private MissingRows(boolean[] missing, int count) {
    this.missing = missing;
    this.count = count;
  }

  /** The missing rows among the first {@code rows} elements of {@code chunk}. */
  static MissingRows of(NumericChunk chunk, int rows) {
    Finder f = new Finder(chunk, rows);
    boolean onlyNaN = chunk.layout.isFloat() && chunk.maskNaN && !chunk.masksValues();
    if (!onlyNaN) {
      f.test(0, rows);
    } else {
      double[] sums = new double[LaneSums.LANES];
      int whole = rows - rows % LaneSums.LANES;
      for (int i = 0; i < whole; i += SEGMENT) {
        int m = Math.min(SEGMENT, whole - i);
        java.util.Arrays.fill(sums, 0);
        KERNELS.add(chunk, i, m, sums, 0);
        if (LaneSums.anyNaN(sums, 0)) { // NaN somewhere, or infinities of both signs
          f.test(i, i + m);
        }
      }
      f.test(whole, rows);
    }
    return new MissingRows(f.missing, f.count);
  }

  /** Tests elements one by one and remembers the missing ones. */
  private static final class Finder {
    private final NumericChunk chunk;
    private final int rows;
    private boolean[] missing;
    private int count;

    Finder(NumericChunk chunk, int rows) {
      this.chunk = chunk;
      this.rows = rows;
    }

    void test(int from, int to) {
      for (int i = from; i < to; i++) {
        if (chunk.isMissing(i)) {
          if (missing == null) {
            missing = new boolean[rows];
          }
          missing[i] = true;
          count++;
        }
      }
    }
  }
}
