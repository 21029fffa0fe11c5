package io.github.sparkzarr.spark.read;

import java.util.Arrays;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * SUM of a float32 or float64 variable as Spark computes it: each value widened to double and
 * added in row order, missing values skipped, null when a group has no value. Adding in the order
 * Spark would gives the very same partial sums.
 */
final class SumAccumulator implements Accumulator {
  private double[] sums = new double[0];
  private long[] counts = new long[0];

  @Override
  public void ensure(int slots) {
    if (slots > sums.length) {
      int capacity = Accumulator.grow(sums.length, slots);
      sums = Arrays.copyOf(sums, capacity);
      counts = Arrays.copyOf(counts, capacity);
    }
  }

  @Override
  public void add(NumericChunk chunk, int from, int n, int slot) {
    double sum = sums[slot];
    long count = counts[slot];
    boolean maskNaN = chunk.maskNaN;
    boolean masksValues = chunk.masksValues();
    int end = from + n;
    if (chunk.plane != 0) {
      // A byte-shuffled blosc block: each value is assembled from its byte planes and added at
      // once, so the un-shuffled block is never written out (same values, same order).
      byte[] b = chunk.bytes;
      int plane = chunk.plane;
      if (chunk.layout == NumericChunk.Layout.FLOAT32) {
        for (int i = from, p = chunk.offset + from; i < end; i++, p++) {
          float v = Float.intBitsToFloat((b[p] & 0xFF) | (b[p + plane] & 0xFF) << 8
              | (b[p + 2 * plane] & 0xFF) << 16 | b[p + 3 * plane] << 24);
          if (v != v ? maskNaN : masksValues && chunk.isMaskedValue(v)) {
            continue;
          }
          sum += v;
          count++;
        }
      } else {
        for (int i = from; i < end; i++) {
          double v = Double.longBitsToDouble(chunk.shuffledLong(i));
          if (v != v ? maskNaN : masksValues && chunk.isMaskedValue(v)) {
            continue;
          }
          sum += v;
          count++;
        }
      }
    } else if (chunk.layout == NumericChunk.Layout.FLOAT32) {
      for (int i = from; i < end; i++) {
        float v = chunk.floatAt(i);
        if (v != v ? maskNaN : masksValues && chunk.isMaskedValue(v)) {
          continue;
        }
        sum += v;
        count++;
      }
    } else {
      for (int i = from; i < end; i++) {
        double v = chunk.doubleAt(i);
        if (v != v ? maskNaN : masksValues && chunk.isMaskedValue(v)) {
          continue;
        }
        sum += v;
        count++;
      }
    }
    sums[slot] = sum;
    counts[slot] = count;
  }

  @Override
  public void write(WritableColumnVector out, int slots) {
    for (int s = 0; s < slots; s++) {
      if (counts[s] == 0) {
        out.putNull(s);
      } else {
        out.putDouble(s, sums[s]);
      }
    }
  }
}
