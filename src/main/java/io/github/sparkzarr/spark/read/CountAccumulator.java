package io.github.sparkzarr.spark.read;

import java.util.Arrays;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/** COUNT(*) (every row) or COUNT(variable) (rows not masked as missing). */
final class CountAccumulator implements Accumulator {
  private final boolean skipMissing;
  private long[] counts = new long[0];

  CountAccumulator(boolean skipMissing) {
    this.skipMissing = skipMissing;
  }

  @Override
  public void ensure(int slots) {
    if (slots > counts.length) {
      counts = Arrays.copyOf(counts, Accumulator.grow(counts.length, slots));
    }
  }

  @Override
  public void add(NumericChunk chunk, int from, int n, int slot) {
    if (!skipMissing) {
      counts[slot] += n;
      return;
    }
    long k = 0;
    for (int i = from; i < from + n; i++) {
      if (!chunk.isMissing(i)) {
        k++;
      }
    }
    counts[slot] += k;
  }

  @Override
  public void write(WritableColumnVector out, int slots) {
    for (int s = 0; s < slots; s++) {
      out.putLong(s, counts[s]);
    }
  }
}
