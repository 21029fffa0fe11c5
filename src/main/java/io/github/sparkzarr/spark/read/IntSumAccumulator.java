package io.github.sparkzarr.spark.read;

import java.util.Arrays;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * SUM of an integer variable as Spark's partial SUM keeps it: a long per group, missing values
 * skipped, null when a group has no value. One call adds fewer than 2^31 values of up to 32 bits,
 * whose sum cannot leave a long, so only its addition to the group's total is checked; int64 values
 * are checked one by one. An overflow is an error, as under Spark's ANSI rules, never a wrapped
 * total (the scan sums int64 variables only when those rules are on).
 */
final class IntSumAccumulator implements Accumulator {
  private long[] sums = new long[0];
  private long[] counts = new long[0];
  private final StoredIntegers stored = new StoredIntegers();

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
    if (chunk.floating()) {
      throw new IllegalStateException("an integer SUM was given " + chunk.layout + " values");
    }
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

  /** Element {@code j} to slot {@code slotOf[group + j * stride]}, each tested for a missing value. */
  @Override
  public void addEach(NumericChunk chunk, int from, int n, int[] slotOf, int group, int stride) {
    if (chunk.floating()) {
      throw new IllegalStateException("an integer SUM was given " + chunk.layout + " values");
    }
    boolean masks = chunk.masksValues();
    try {
      for (int j = 0; j < n; j++) {
        int i = from + j;
        if (!masks || !chunk.isMissing(i)) {
          int slot = slotOf[group + j * stride];
          sums[slot] = Math.addExact(sums[slot], chunk.integralAt(i));
          counts[slot]++;
        }
      }
    } catch (ArithmeticException e) {
      throw overflow();
    }
  }

  private static ArithmeticException overflow() {
    return new ArithmeticException("long overflow in SUM of an integer variable, computed in the Zarr "
        + "scan (Spark's ANSI rules fail the same way; option pushDownAggregate=false lets Spark sum)");
  }

  /** Element by element, each tested for a missing value. */
  private void addEachChecked(NumericChunk chunk, int from, int n, int slot) {
    long sum = 0;
    int added = 0;
    // int64 values can leave a long within a call: each of their additions is checked.
    boolean checkEach = chunk.layout == NumericChunk.Layout.INT64;
    for (int i = from; i < from + n; i++) {
      if (!chunk.isMissing(i)) {
        long v = chunk.integralAt(i);
        sum = checkEach ? Math.addExact(sum, v) : sum + v;
        added++;
      }
    }
    sums[slot] = Math.addExact(sums[slot], sum);
    counts[slot] += added;
  }

  @Override
  public void write(WritableColumnVector out, int slots) {
    for (int s = 0; s < slots; s++) {
      if (counts[s] == 0) {
        out.putNull(s);
      } else {
        out.putLong(s, sums[s]);
      }
    }
  }
}
