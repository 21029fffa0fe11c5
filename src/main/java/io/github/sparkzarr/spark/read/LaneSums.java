package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.VectorApi;

/**
 * The inner loops of SUM: adds runs of little-endian float32 or float64 elements, widened to
 * double, into eight interleaved partial sums {@code sums[at + k]}, element {@code j} of a run
 * into lane {@code j % 8}. Runs are whole multiples of 8 elements and nothing is tested for
 * missing values ({@link SumAccumulator} does that). Every implementation gives the same bits.
 */
interface LaneSums {
  int LANES = 8;

  /** The fastest implementation this JVM runs: SIMD when it has the Vector API, else scalar. */
  static LaneSums best() {
    return Holder.BEST;
  }

  /** {@code n} float32 elements stored one after the other from {@code bytes[offset]}. */
  void addFloats(byte[] bytes, int offset, int n, double[] sums, int at);

  /** {@code n} float64 elements stored one after the other from {@code bytes[offset]}. */
  void addDoubles(byte[] bytes, int offset, int n, double[] sums, int at);

  /**
   * {@code n} float32 elements of a byte-shuffled block: byte k of the run's element j at
   * {@code bytes[offset + k * plane + j]}.
   */
  void addShuffledFloats(byte[] bytes, int offset, int plane, int n, double[] sums, int at);

  /** {@link #addShuffledFloats} for float64 elements. */
  void addShuffledDoubles(byte[] bytes, int offset, int plane, int n, double[] sums, int at);

  /**
   * Adds elements {@code [i, i + m)} of {@code chunk} (a float layout, {@code m} a multiple of 8,
   * element {@code i} in lane 0) into {@code sums[at, at + 8)}, with the loop for its layout.
   */
  default void add(NumericChunk chunk, int i, int m, double[] sums, int at) {
    boolean float32 = chunk.layout == NumericChunk.Layout.FLOAT32;
    if (chunk.plane != 0) {
      if (float32) {
        addShuffledFloats(chunk.bytes, chunk.offset + i, chunk.plane, m, sums, at);
      } else {
        addShuffledDoubles(chunk.bytes, chunk.offset + i, chunk.plane, m, sums, at);
      }
    } else if (float32) {
      addFloats(chunk.bytes, chunk.offset + 4 * i, m, sums, at);
    } else {
      addDoubles(chunk.bytes, chunk.offset + 8 * i, m, sums, at);
    }
  }

  /**
   * {@link #add}, except that missing elements are not added: those equal to {@code skip} as
   * doubles (a masked fill value, CF's rule; NaN for none) and, if {@code nan}, NaN; nor, unless
   * {@code keep} is null, those a filter dropped ({@code keep[k]} 0 for element {@code k}). Their
   * lanes get -0.0, which leaves every sum as it was, bit for bit. Returns how many were left out.
   */
  default int addSkipping(NumericChunk chunk, int i, int m, byte[] keep, double[] sums, int at, double skip,
      boolean nan) {
    int skipped = 0;
    for (int k = 0; k < m; k++) {
      double v = chunk.floatingAt(i + k);
      if (v == skip || nan && v != v || keep != null && keep[i + k] == 0) {
        skipped++;
      } else {
        sums[at + (k & (LANES - 1))] += v;
      }
    }
    return skipped;
  }

  /**
   * Adds {@code t} of elements {@code [i, i + m)} of {@code chunk} (a float layout, {@code m} a
   * multiple of 8, element {@code i} in lane 0) into {@code sums[at, at + 8)}: each value widened
   * to double, then combined with t's constant, as the element loop and Spark compute it.
   */
  default void addTransformed(NumericChunk chunk, int i, int m, double[] sums, int at, ValueTransform t) {
    for (int k = 0; k < m; k++) {
      sums[at + (k & (LANES - 1))] += t.apply(chunk.floatingAt(i + k));
    }
  }

  /**
   * Adds element {@code i + j} of {@code chunk} (a float layout, not byte-shuffled, {@code m} a
   * multiple of 8) into {@code sums[at + j]}: a grid row whose elements are each their own group,
   * none of them missing (rows with NaN missing take {@link #addRowSkipping}).
   */
  default void addRow(NumericChunk chunk, int i, int m, double[] sums, int at) {
    for (int j = 0; j < m; j++) {
      sums[at + j] += chunk.floatingAt(i + j);
    }
  }

  /**
   * {@link #addRow} with its missing elements skipped, as {@link #addSkipping} skips them: element
   * {@code i + j}, unless it equals {@code skip} as a double or is NaN when {@code nan}, or a
   * filter dropped it ({@code keep[i + j]} 0, unless {@code keep} is null), is added to
   * {@code sums[at + j]} and counted in {@code counts[at + j]}.
   */
  default void addRowSkipping(NumericChunk chunk, int i, int m, byte[] keep, double[] sums, long[] counts, int at,
      double skip, boolean nan) {
    for (int j = 0; j < m; j++) {
      double v = chunk.floatingAt(i + j);
      if (v != skip && !(nan && v != v) && (keep == null || keep[i + j] != 0)) {
        sums[at + j] += v;
        counts[at + j]++;
      }
    }
  }

  /**
   * Adds the unpacked values of elements {@code [i, i + m)} of {@code chunk} (packed integers of 1
   * or 2 bytes, stored one after the other, {@code m} a multiple of 8, element {@code i} in lane
   * 0) into {@code sums[at, at + 8)}, each unpacked as {@link NumericChunk#unpack} does; the
   * elements storing the skipped value ({@link NumericChunk#skipsOneValue}) are left out. Returns
   * how many were.
   */
  default int addUnpackedSmall(NumericChunk chunk, int i, int m, double[] sums, int at) {
    int skipped = 0;
    for (int k = 0; k < m; k++) {
      long raw = chunk.integralAt(i + k);
      if (chunk.skipsOneValue && raw == chunk.skippedValue) {
        skipped++;
      } else {
        sums[at + (k & (LANES - 1))] += chunk.unpack(raw);
      }
    }
    return skipped;
  }

  /**
   * {@link #addUnpackedSmall} one element per group: the unpacked value of element {@code i + j}
   * is added to {@code sums[at + j]} and counted in {@code counts[at + j]}, unless it stores the
   * skipped value.
   */
  default void addUnpackedRow(NumericChunk chunk, int i, int m, double[] sums, long[] counts, int at) {
    for (int j = 0; j < m; j++) {
      long raw = chunk.integralAt(i + j);
      if (!chunk.skipsOneValue || raw != chunk.skippedValue) {
        sums[at + j] += chunk.unpack(raw);
        counts[at + j]++;
      }
    }
  }

  /**
   * Adds element {@code i + j} of {@code chunk} (integers of 1, 2 or 4 bytes stored one after the
   * other, not uint32, {@code m} a multiple of 8) to {@code sums[at + j]} and counts it in {@code
   * counts[at + j]}, unless it stores the skipped value ({@link NumericChunk#skipsOneValue}). The
   * caller makes sure no slot can overflow.
   */
  default void addIntegerRow(NumericChunk chunk, int i, int m, long[] sums, long[] counts, int at) {
    for (int j = 0; j < m; j++) {
      long raw = chunk.integralAt(i + j);
      if (!chunk.skipsOneValue || raw != chunk.skippedValue) {
        sums[at + j] += raw;
        counts[at + j]++;
      }
    }
  }

  /**
   * The exact sum ({@code out[0]}) of elements {@code [i, i + m)} of {@code chunk}, integers of 1,
   * 2 or 4 bytes stored one after the other, {@code m} a multiple of 8, leaving out the elements
   * storing the skipped value ({@link NumericChunk#skipsOneValue}) and, unless {@code keep} is
   * null, those a filter dropped ({@code keep[k]} 0 for element {@code k}); {@code out[1]} how many
   * were left out.
   */
  default void sumSmall(NumericChunk chunk, int i, int m, byte[] keep, long[] out) {
    long sum = 0;
    long skipped = 0;
    for (int k = i; k < i + m; k++) {
      long raw = chunk.integralAt(k);
      if (chunk.skipsOneValue && raw == chunk.skippedValue || keep != null && keep[k] == 0) {
        skipped++;
      } else {
        sum += raw;
      }
    }
    out[0] = sum;
    out[1] = skipped;
  }

  /**
   * The sum ({@code out[0]}) of elements {@code [i, i + m)} of {@code chunk}, int64 stored one
   * after the other, {@code m} a multiple of 8, leaving out the elements storing the skipped value
   * ({@link NumericChunk#skipsOneValue}) and, unless {@code keep} is null, those a filter dropped;
   * {@code out[1]} how many were left out. Returns false, {@code out} then undefined, when a
   * partial sum may have left a long: the caller adds them again one by one, each addition
   * checked. True means {@code out[0]} is the exact sum.
   */
  default boolean sumLongs(NumericChunk chunk, int i, int m, byte[] keep, long[] out) {
    return checkedSum(chunk, i, m, keep, chunk.skipsOneValue, out);
  }

  /**
   * The exact sum ({@code out[0]}) of elements {@code [i, i + m)} of {@code chunk}, 4- or 8-byte
   * integers in a byte-shuffled block's planes ({@link NumericChunk#plane} not 0), none masked, any
   * {@code m}; {@code out[1]} 0. Returns false, {@code out} then undefined, when the sum may have
   * left a long: the caller adds them again one by one, each addition checked.
   */
  default boolean sumPlanes(NumericChunk chunk, int i, int m, long[] out) {
    return checkedSum(chunk, i, m, null, false, out);
  }

  /**
   * How many of elements {@code [i, i + m)} of {@code chunk}, 4- or 8-byte integers in a
   * byte-shuffled block's planes, store {@code value}, which the layout holds: the masked ones that
   * {@link #sumPlanes} adds with the others.
   */
  default long planeMatches(NumericChunk chunk, int i, int m, long value) {
    long matches = 0;
    for (int k = i; k < i + m; k++) {
      if (chunk.integralAt(k) == value) {
        matches++;
      }
    }
    return matches;
  }

  /**
   * Element by element, any layout and plane: the scalar {@link #sumLongs} and {@link #sumPlanes}
   * (which adds the masked elements too: {@code skips} false).
   */
  private static boolean checkedSum(NumericChunk chunk, int i, int m, byte[] keep, boolean skips, long[] out) {
    long sum = 0;
    long skipped = 0;
    try {
      for (int k = i; k < i + m; k++) {
        long v = chunk.integralAt(k);
        if (keep != null && keep[k] == 0 || skips && v == chunk.skippedValue) {
          skipped++;
        } else {
          sum = Math.addExact(sum, v);
        }
      }
    } catch (ArithmeticException e) {
      return false;
    }
    out[0] = sum;
    out[1] = skipped;
    return true;
  }

  /** Whether any of the eight sums {@code sums[at, at + 8)} is NaN. */
  static boolean anyNaN(double[] sums, int at) {
    for (int k = at; k < at + LANES; k++) {
      if (Double.isNaN(sums[k])) {
        return true;
      }
    }
    return false;
  }

  /** Chooses once per JVM. */
  final class Holder {
    static final LaneSums BEST = choose();

    private Holder() {
    }

    private static LaneSums choose() {
      return VectorApi.choose(LaneSums.class, "io.github.sparkzarr.spark.read.VectorLaneSums",
          new ScalarLaneSums());
    }
  }
}
