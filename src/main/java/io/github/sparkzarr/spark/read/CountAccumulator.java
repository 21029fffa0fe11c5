package io.github.sparkzarr.spark.read;

import java.util.Arrays;
import java.util.function.IntToLongFunction;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * COUNT(*) (every row) or COUNT(variable) (rows not masked as missing). A floating-point variable's
 * values are counted by a {@link SumAccumulator}, which skips missing values without testing each
 * element; only masked values other than NaN need a test per element.
 */
final class CountAccumulator implements RowAccumulator {
  private final boolean skipMissing;
  private long[] counts = new long[0];
  /** Counts the values of a floating-point variable (its sums are not used); null for COUNT(*). */
  private final SumAccumulator floating;
  private final StoredIntegers stored = new StoredIntegers();

  CountAccumulator(boolean skipMissing) {
    this(skipMissing, false);
  }

  /** @param elementwise whether consecutive elements go to different groups (the last dimension is grouped on) */
  CountAccumulator(boolean skipMissing, boolean elementwise) {
    this.skipMissing = skipMissing;
    this.floating = skipMissing ? new SumAccumulator(null, elementwise) : null;
  }

  @Override
  public void ensure(int slots) {
    if (slots > counts.length) {
      counts = Arrays.copyOf(counts, Accumulator.grow(counts.length, slots));
    }
    if (floating != null) {
      floating.ensure(slots);
    }
  }

  /** Whether every element of {@code chunk} counts: COUNT(*), or nothing can be missing. */
  private boolean countsAll(NumericChunk chunk) {
    return !skipMissing || !chunk.masksValues() && !(chunk.layout.isFloat() && chunk.maskNaN);
  }

  @Override
  public void add(NumericChunk chunk, int from, int n, int slot) {
    if (countsAll(chunk)) {
      counts[slot] += n;
    } else if (chunk.layout.isFloat()) {
      floating.add(chunk, from, n, slot);
    } else if (chunk.storedIntegersReadable()) {
      counts[slot] += stored.count(chunk, from, n);
    } else {
      long k = 0;
      for (int i = from; i < from + n; i++) {
        if (!chunk.isMissing(i)) {
          k++;
        }
      }
      counts[slot] += k;
    }
  }

  /** The mask's matches counted in the planes ({@link StoredIntegers#count}). */
  @Override
  public boolean addsIntegerPlanes() {
    return true;
  }

  @Override
  public boolean addsKept(NumericChunk chunk) {
    return skipMissing && (StoredIntegers.sumsKept(chunk) || chunk.layout.isFloat() && floating.addsKept(chunk));
  }

  @Override
  public void addKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    if (chunk.layout.isFloat()) {
      floating.addKept(chunk, from, n, keep, slot);
      return;
    }
    if (countsAll(chunk)) {
      // nothing missing: the marks alone (a kept sum of int64 could overflow, which a count must not)
      counts[slot] += Marks.count(keep, from, n);
      return;
    }
    counts[slot] += stored.countKept(chunk, from, n, keep);
  }

  /**
   * COUNT(*), a variable with nothing missing, stored integers with one masked value, or floats a
   * {@link SumAccumulator} counts by rows.
   */
  @Override
  public boolean addsRowKept(NumericChunk chunk) {
    return countsAll(chunk) || chunk.storedIntegersReadable()
        || chunk.layout.isFloat() && floating.addsRowKept(chunk);
  }

  @Override
  public void addRowKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    if (countsAll(chunk)) {
      for (int j = 0; j < n; j++) {
        counts[slot + j] += keep[from + j];
      }
    } else if (chunk.layout.isFloat()) {
      floating.addRowKept(chunk, from, n, keep, slot);
    } else {
      long skip = chunk.skippedValue; // one masked value: storedIntegersReadable
      for (int start = 0; start < n; start += StoredIntegers.BLOCK) {
        int m = Math.min(StoredIntegers.BLOCK, n - start);
        long[] v = stored.widened(chunk, from + start, m);
        for (int k = 0; k < m; k++) {
          counts[slot + start + k] -= StoredIntegers.keptMask(v[k], skip) & -(long) keep[from + start + k];
        }
      }
    }
  }

  @Override
  public void addEach(NumericChunk chunk, int from, int n, int[] slotOf, int group, int stride) {
    if (countsAll(chunk)) {
      for (int j = 0; j < n; j++) {
        counts[slotOf[group + j * stride]]++;
      }
    } else if (chunk.layout.isFloat()) {
      floating.addEach(chunk, from, n, slotOf, group, stride);
    } else if (chunk.storedIntegersReadable()) {
      long skip = chunk.skippedValue;
      for (int start = 0; start < n; start += StoredIntegers.BLOCK) {
        int m = Math.min(StoredIntegers.BLOCK, n - start);
        long[] v = stored.widened(chunk, from + start, m);
        for (int k = 0, g = group + start * stride; k < m; k++, g += stride) {
          counts[slotOf[g]] -= StoredIntegers.keptMask(v[k], skip);
        }
      }
    } else {
      for (int j = 0; j < n; j++) {
        if (!chunk.isMissing(from + j)) {
          counts[slotOf[group + j * stride]]++;
        }
      }
    }
  }

  /** Element {@code j} to slot {@code slot + j}; stored integers tested a block at a time. */
  @Override
  public void addRow(NumericChunk chunk, int from, int n, int slot) {
    if (countsAll(chunk)) {
      for (int j = 0; j < n; j++) {
        counts[slot + j]++;
      }
    } else if (chunk.layout.isFloat()) {
      floating.addRow(chunk, from, n, slot);
    } else if (chunk.storedIntegersReadable()) {
      long skip = chunk.skippedValue;
      for (int start = 0; start < n; start += StoredIntegers.BLOCK) {
        int m = Math.min(StoredIntegers.BLOCK, n - start);
        long[] v = stored.widened(chunk, from + start, m);
        for (int k = 0, s = slot + start; k < m; k++) {
          counts[s + k] -= StoredIntegers.keptMask(v[k], skip);
        }
      }
    } else {
      for (int j = 0; j < n; j++) {
        if (!chunk.isMissing(from + j)) {
          counts[slot + j]++;
        }
      }
    }
  }

  @Override
  public void write(WritableColumnVector out, int from, int count) {
    for (int r = 0; r < count; r++) {
      int s = from + r;
      out.putLong(r, counts[s] + (floating == null ? 0 : floating.count(s)));
    }
  }

  /** COUNT(variable) answered by the counts of a SUM of the same variable, which is fed instead. */
  static final class OfSum implements Accumulator {
    private final IntToLongFunction sumCounts;

    /** @param sumCounts how many values the sum added into a slot */
    OfSum(IntToLongFunction sumCounts) {
      this.sumCounts = sumCounts;
    }

    @Override
    public void ensure(int slots) {}

    @Override
    public void add(NumericChunk chunk, int from, int n, int slot) {
      throw new IllegalStateException("a COUNT answered by a SUM is not fed");
    }

    @Override
    public void write(WritableColumnVector out, int from, int count) {
      for (int r = 0; r < count; r++) {
        out.putLong(r, sumCounts.applyAsLong(from + r));
      }
    }
  }
}
