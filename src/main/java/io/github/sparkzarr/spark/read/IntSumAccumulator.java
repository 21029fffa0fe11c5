package io.github.sparkzarr.spark.read;

import java.util.Arrays;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * SUM of an integer variable as Spark's partial SUM keeps it: a long per group, missing values
 * skipped, null when a group has no value. One call adds fewer than 2^31 values of up to 32 bits,
 * whose sum cannot leave a long, so only its addition to the group's total is checked; int64 values
 * are summed exactly in SIMD lanes or by byte planes, and one by one, each addition checked, when
 * those may have overflowed ({@link StoredIntegers}). An overflow is an error, as under Spark's ANSI
 * rules, never a wrapped total (the scan sums int64 variables only when those rules are on).
 */
final class IntSumAccumulator implements RowAccumulator {
  /**
   * Fewer additions than this of values of at most 32 bits cannot take any slot's sum out of a
   * long ((2^31 - 1) * 2^32 < 2^63), so rows below it are added without a check per element.
   */
  private static final long UNCHECKED_LIMIT = Integer.MAX_VALUE;
  private long[] sums = new long[0];
  /** Values added so far into any slot (one accumulator sums one variable: int64 rows are always checked). */
  private long added;
  private long[] counts = new long[0];
  private final StoredIntegers stored = new StoredIntegers();
  private final LaneSums kernels = LaneSums.best();
  /** A skipped value no integer of at most 32 bits can have: nothing is skipped. */
  private static final long NONE = Long.MIN_VALUE;

  @Override
  public void ensure(int slots) {
    if (slots > counts.length) {
      int capacity = Accumulator.grow(counts.length, slots);
      sums = Arrays.copyOf(sums, capacity);
      counts = Arrays.copyOf(counts, capacity);
    }
  }

  @Override
  public void add(NumericChunk chunk, int from, int n, int slot) {
    checkIntegral(chunk);
    added += n;
    try {
      if (chunk.storedIntegersReadable()) {
        sums[slot] = Math.addExact(sums[slot], stored.sum(chunk, from, n));
        counts[slot] += stored.counted;
      } else {
        addEachChecked(chunk, from, n, slot);
      }
    } catch (ArithmeticException e) {
      throw overflow();
    }
  }

  /** The sums of byte planes ({@link StoredIntegers#sum}). */
  @Override
  public boolean addsIntegerPlanes() {
    return true;
  }

  @Override
  public boolean addsKept(NumericChunk chunk) {
    return StoredIntegers.sumsKept(chunk);
  }

  @Override
  public void addKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    added += n;
    try {
      sums[slot] = Math.addExact(sums[slot], stored.sumKept(chunk, from, n, keep));
    } catch (ArithmeticException e) {
      throw overflow();
    }
    counts[slot] += stored.counted;
  }

  /**
   * Element {@code j} to slot {@code slotOf[group + j * stride]}: stored integers a widened block at
   * a time while no slot can overflow ({@link #UNCHECKED_LIMIT}), else each tested for a missing
   * value and each addition checked.
   */
  @Override
  public void addEach(NumericChunk chunk, int from, int n, int[] slotOf, int group, int stride) {
    checkIntegral(chunk);
    boolean unchecked = uncheckedBlocks(chunk, n);
    added += n;
    if (!unchecked) {
      try {
        for (int j = 0; j < n; j++) {
          addOne(chunk, from + j, slotOf[group + j * stride]);
        }
      } catch (ArithmeticException e) {
        throw overflow();
      }
      return;
    }
    long skip = chunk.skipsOneValue ? chunk.skippedValue : NONE;
    for (int start = 0; start < n; start += StoredIntegers.BLOCK) {
      int m = Math.min(StoredIntegers.BLOCK, n - start);
      long[] v = stored.widened(chunk, from + start, m);
      for (int k = 0, g = group + start * stride; k < m; k++, g += stride) {
        int s = slotOf[g];
        long kept = StoredIntegers.keptMask(v[k], skip);
        sums[s] += v[k] & kept;
        counts[s] -= kept;
      }
    }
  }

  /**
   * Whether {@code n} more elements can be added a widened block at a time with no check: stored
   * integers of at most 32 bits, masked by at most one stored value, too few to overflow a slot.
   */
  private boolean uncheckedBlocks(NumericChunk chunk, int n) {
    return chunk.storedIntegersReadable() && chunk.layout != NumericChunk.Layout.INT64
        && added + n < UNCHECKED_LIMIT;
  }

  /** Element {@code i} to slot {@code slot} unless it is missing, the addition checked. */
  private void addOne(NumericChunk chunk, int i, int slot) {
    if (!chunk.masksValues() || !chunk.isMissing(i)) {
      sums[slot] = Math.addExact(sums[slot], chunk.integralAt(i));
      counts[slot]++;
    }
  }

  /**
   * Element {@code j} to slot {@code slot + j}, a block of widened stored integers at a time, with
   * no check per element while no slot can overflow ({@link #UNCHECKED_LIMIT}).
   */
  @Override
  public void addRow(NumericChunk chunk, int from, int n, int slot) {
    checkIntegral(chunk);
    boolean unchecked = uncheckedBlocks(chunk, n);
    added += n;
    if (!unchecked) {
      try {
        for (int j = 0; j < n; j++) {
          addOne(chunk, from + j, slot + j);
        }
      } catch (ArithmeticException e) {
        throw overflow();
      }
      return;
    }
    if (chunk.plane == 0 && chunk.layout != NumericChunk.Layout.UINT32) {
      int m = n & -LaneSums.LANES;
      kernels.addIntegerRow(chunk, from, m, sums, counts, slot);
      from += m;
      n -= m;
      slot += m;
    }
    boolean skips = chunk.skipsOneValue;
    long skip = chunk.skippedValue;
    for (int start = 0; start < n; start += StoredIntegers.BLOCK) {
      int m = Math.min(StoredIntegers.BLOCK, n - start);
      long[] v = stored.widened(chunk, from + start, m);
      int s = slot + start;
      if (skips) {
        for (int k = 0; k < m; k++) {
          long kept = StoredIntegers.keptMask(v[k], skip);
          sums[s + k] += v[k] & kept;
          counts[s + k] -= kept;
        }
      } else {
        for (int k = 0; k < m; k++) {
          sums[s + k] += v[k];
          counts[s + k]++;
        }
      }
    }
  }

  private static void checkIntegral(NumericChunk chunk) {
    if (chunk.floating()) {
      throw new IllegalStateException("an integer SUM was given " + chunk.layout + " values");
    }
  }

  private static ArithmeticException overflow() {
    return new ArithmeticException("long overflow in SUM of an integer variable, computed in the Zarr "
        + "scan (Spark's ANSI rules fail the same way; option pushDownAggregate=false lets Spark sum)");
  }

  /** Element by element, each tested for a missing value. */
  private void addEachChecked(NumericChunk chunk, int from, int n, int slot) {
    long sum = 0;
    int kept = 0;
    // int64 values can leave a long within a call: each of their additions is checked.
    boolean checkEach = chunk.layout == NumericChunk.Layout.INT64;
    for (int i = from; i < from + n; i++) {
      if (!chunk.isMissing(i)) {
        long v = chunk.integralAt(i);
        sum = checkEach ? Math.addExact(sum, v) : sum + v;
        kept++;
      }
    }
    sums[slot] = Math.addExact(sums[slot], sum);
    counts[slot] += kept;
  }

  /** How many values slot {@code s} has summed (missing values skipped). */
  long count(int s) {
    return counts[s];
  }

  @Override
  public void write(WritableColumnVector out, int from, int count) {
    for (int r = 0; r < count; r++) {
      int s = from + r;
      if (counts[s] == 0) {
        out.putNull(r);
      } else {
        out.putLong(r, sums[s]);
      }
    }
  }
}
