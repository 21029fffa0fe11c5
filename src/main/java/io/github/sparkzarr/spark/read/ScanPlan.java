package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.DatasetView;
import java.io.Serializable;
import java.util.List;

/**
 * What the executors read: the view, the output columns, the selected positions along each
 * dimension, and the plan-grid chunks that hold them. A partition is a range of this chunk list,
 * numbered in C order, so partitions stay a few bytes each however many chunks there are.
 *
 * @param chunks the selected chunk indices along each dimension
 * @param limit the most rows a partition needs to return, or -1
 */
public record ScanPlan(DatasetView view, List<OutputColumn> columns, IntervalSet[] selection,
    long[][] chunks, long limit) implements Serializable {

  /** Number of chunks in the plan. */
  public long chunkCount() {
    long n = 1;
    for (long[] c : chunks) {
      n = Math.multiplyExact(n, c.length);
    }
    return n;
  }

  /** The grid coordinates of the {@code i}th planned chunk (C order). */
  public long[] chunkCoords(long i) {
    long[] out = new long[chunks.length];
    for (int d = chunks.length - 1; d >= 0; d--) {
      out[d] = chunks[d][(int) (i % chunks[d].length)];
      i /= chunks[d].length;
    }
    return out;
  }

  /** The selected positions of dimension {@code d} inside chunk {@code c} of the plan grid. */
  public long[] positions(int d, long c) {
    long lo = c * view.planChunks()[d];
    long hi = Math.min(lo + view.planChunks()[d], view.dims().get(d).length());
    return selection[d].positionsIn(lo, hi);
  }

  /** Rows the {@code i}th planned chunk yields. */
  public long rowsOf(long i) {
    long[] c = chunkCoords(i);
    long n = 1;
    for (int d = 0; d < c.length; d++) {
      n *= selection[d].intersect(IntervalSet.range(c[d] * view.planChunks()[d],
          (c[d] + 1) * view.planChunks()[d])).size();
    }
    return n;
  }
}
