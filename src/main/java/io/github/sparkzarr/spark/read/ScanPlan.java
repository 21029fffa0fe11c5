package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.DatasetView;
import java.io.Serializable;
import java.util.List;
import java.util.stream.IntStream;

/**
 * What the executors read: the view, the output columns, the selected positions along each
 * dimension, and the plan-grid chunks that hold them. A partition is a range of this chunk list,
 * so partitions stay a few bytes each however many chunks there are.
 *
 * <p>Chunks are numbered in C order, except for an aggregate grouped by some dimensions: those
 * dimensions come first ({@code order}), so the chunks of one <em>tile</em> (one chunk index
 * along each grouped dimension) are numbered consecutively, and a partition made of whole tiles
 * holds every element of its groups.
 *
 * @param chunks the selected chunk indices along each dimension
 * @param limit the most rows a partition needs to return, or -1
 * @param order the dimensions from the slowest-varying chunk index to the fastest
 * @param tileDims how many leading dimensions of {@code order} a tile spans one chunk of
 * @param filter the filter on variables' values the scan evaluates, or null
 */
public record ScanPlan(DatasetView view, List<OutputColumn> columns, IntervalSet[] selection,
    long[][] chunks, long limit, int[] order, int tileDims, ValueFilter filter) implements Serializable {

  /** A plan numbering chunks in C order. */
  public ScanPlan(DatasetView view, List<OutputColumn> columns, IntervalSet[] selection,
      long[][] chunks, long limit, ValueFilter filter) {
    this(view, columns, selection, chunks, limit, IntStream.range(0, chunks.length).toArray(), 0, filter);
  }

  /** A plan numbering chunks in C order, with no filter on values. */
  public ScanPlan(DatasetView view, List<OutputColumn> columns, IntervalSet[] selection,
      long[][] chunks, long limit) {
    this(view, columns, selection, chunks, limit, null);
  }

  /** A plan for an aggregate grouped along {@code groupDims}: their chunk indices vary slowest. */
  public static ScanPlan grouped(DatasetView view, IntervalSet[] selection, long[][] chunks,
      int[] groupDims, ValueFilter filter) {
    int[] dims = IntStream.of(groupDims).distinct().sorted().toArray();
    int[] order = IntStream.concat(IntStream.of(dims),
        IntStream.range(0, chunks.length).filter(d -> IntStream.of(dims).noneMatch(g -> g == d))).toArray();
    return new ScanPlan(view, List.of(), selection, chunks, -1, order, dims.length, filter);
  }

  /** The chunks of one tile: every chunk sharing its indices along the grouped dimensions. */
  public long chunksPerTile() {
    long n = 1;
    for (int k = tileDims; k < order.length; k++) {
      n = Math.multiplyExact(n, chunks[order[k]].length);
    }
    return n;
  }

  /**
   * At most how many group cells one tile holds: the product of the selected positions inside one
   * chunk along each grouped dimension. A partition's aggregate keeps a slot per cell it meets.
   */
  public long cellsPerTile() {
    long n = 1;
    for (int k = 0; k < tileDims; k++) {
      int d = order[k];
      n = Math.multiplyExact(n, Math.min(view.planChunks()[d], selection[d].size()));
    }
    return n;
  }

  /**
   * The selected elements of one group cell (one position along each grouped dimension): the
   * product of the selection's sizes along the other dimensions. A partition returns a partial
   * row per cell it touches, so this is how many elements each of those rows sums up.
   */
  public long elementsPerCell() {
    long n = 1;
    for (int k = tileDims; k < order.length; k++) {
      n = Math.multiplyExact(n, selection[order[k]].size());
    }
    return n;
  }

  /** Number of chunks in the plan. */
  public long chunkCount() {
    long n = 1;
    for (long[] c : chunks) {
      n = Math.multiplyExact(n, c.length);
    }
    return n;
  }

  /** The grid coordinates of the {@code i}th planned chunk. */
  public long[] chunkCoords(long i) {
    long[] out = new long[chunks.length];
    for (int k = order.length - 1; k >= 0; k--) {
      int d = order[k];
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
