package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.read.metrics.TaskReadMetrics;
import io.github.sparkzarr.spark.schema.DatasetView;
import io.github.sparkzarr.spark.schema.DatasetView.Dimension;
import io.github.sparkzarr.spark.schema.DatasetView.Variable;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.BoxCopy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.store.CountingStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Reads a range of planned chunks, one {@link ColumnarBatch} per chunk: the selected part of the
 * chunk box, rows in C order. Variables come from decoded chunk buffers, read in place when a
 * batch is a whole chunk of a 4- or 8-byte number ({@link ChunkValueVector}), else bulk-copied;
 * dimension and position columns are written out in runs of equal values, broadcast columns are
 * computed views over small vectors.
 */
final class ChunkBatchReader implements PartitionReader<ColumnarBatch> {
  private final ScanPlan plan;
  private final DatasetView view;
  private final CountingStore store;
  private final long end;
  private final ZarrArray[] variables;
  private final ZarrArray[] coordinates;
  private final ValueWriter[] variableWriters;
  private final ValueWriter[] coordinateWriters;
  /** Per variable: where its chunks are read and decoded, reused from batch to batch. */
  private final DecodeBuffers[] decodeBuffers;
  /** Per variable: its fill chunk, once one was needed. */
  private final byte[][] fillChunks;
  /** Per variable: the selected box of its current chunk, when that is not the whole chunk. */
  private final byte[][] boxBuffers;
  /** The last region read per column, with the box it covers: neighbouring chunks often share it. */
  private final Map<String, Region> lastRegion = new HashMap<>();
  /** The filter on values, or null; and the variables it reads. */
  private final ValueFilter filter;
  private final int[] filterVariables;
  private final ValueFilter.Scratch filterScratch = new ValueFilter.Scratch();
  private final StoredIntegers filterIntegers = new StoredIntegers();
  /** Per row of the current chunk, 1 where the filter keeps it; and the kept rows in order. */
  private byte[] keep = new byte[0];
  private int[] keptRows = new int[0];
  private long next;
  private long rowsLeft;
  private long decodeNanos;
  private ColumnarBatch current;

  ChunkBatchReader(ScanPlan plan, CountingStore store, long start, long end) {
    this.plan = plan;
    this.view = plan.view();
    this.store = store;
    this.next = start;
    this.end = end;
    this.rowsLeft = plan.limit() < 0 ? Long.MAX_VALUE : plan.limit();
    int nv = view.variables().size();
    variables = new ZarrArray[nv];
    variableWriters = new ValueWriter[nv];
    decodeBuffers = new DecodeBuffers[nv];
    fillChunks = new byte[nv][];
    boxBuffers = new byte[nv][];
    int nd = view.rank();
    coordinates = new ZarrArray[nd];
    coordinateWriters = new ValueWriter[nd];
    filter = plan.filter();
    filterVariables = filter == null ? new int[0] : filter.variables();
    for (int v : filterVariables) {
      openVariable(v);
    }
    for (OutputColumn c : plan.columns()) {
      if (c.kind() == OutputColumn.Kind.VARIABLE) {
        openVariable(c.index());
      } else if (c.kind() == OutputColumn.Kind.DIMENSION && view.dims().get(c.index()).coordinate() != null) {
        Dimension d = view.dims().get(c.index());
        coordinates[c.index()] = d.coordinate().open(store);
        coordinateWriters[c.index()] = ValueWriters.of(coordinates[c.index()].memoryType(), d.cf());
      }
    }
  }

  /** Opens variable {@code index} for reading, once. */
  private void openVariable(int index) {
    if (variables[index] == null) {
      Variable v = view.variables().get(index);
      variables[index] = v.array().open(store);
      variableWriters[index] = ValueWriters.of(variables[index].memoryType(), v.cf());
      decodeBuffers[index] = DecodeBuffers.borrow();
    }
  }

  @Override
  public boolean next() throws IOException {
    closeCurrent();
    while (next < end && rowsLeft > 0) {
      long[] chunk = plan.chunkCoords(next++);
      ColumnarBatch batch = read(chunk);
      if (batch.numRows() > 0) {
        current = batch;
        return true;
      }
      batch.close();
    }
    return false;
  }

  private ColumnarBatch read(long[] chunk) throws IOException {
    int rank = view.rank();
    long[][] sel = new long[rank][];
    int[] len = new int[rank];
    int[] rowStride = new int[rank];
    long rows = 1;
    for (int d = rank - 1; d >= 0; d--) {
      sel[d] = plan.positions(d, chunk[d]);
      len[d] = sel[d].length;
      rowStride[d] = (int) rows;
      rows *= len[d];
    }
    if (rows == 0) {
      return new ColumnarBatch(new ColumnVector[0], 0);
    }
    List<OutputColumn> columns = plan.columns();
    ColumnVector[] vectors = new ColumnVector[columns.size()];
    int kept = (int) rows;
    try {
      if (filter != null) {
        kept = select(chunk, sel, (int) rows, rowStride, len, vectors);
      }
      for (int i = 0; i < vectors.length && kept > 0; i++) {
        OutputColumn c = columns.get(i);
        if (vectors[i] != null) {
          continue; // a variable the filter read
        }
        vectors[i] = switch (c.kind()) {
          case POSITION -> dimensionView(positions(sel[c.index()]), c.index(), (int) rows, rowStride, len);
          case DIMENSION -> dimensionView(coordinates[c.index()] == null ? positions(sel[c.index()])
              : coordinate(c.index(), chunk[c.index()], sel[c.index()]), c.index(), (int) rows, rowStride, len);
          case VARIABLE -> variable(c.index(), chunk, sel, (int) rows, rowStride, len);
        };
      }
    } catch (IOException | RuntimeException e) {
      closeAll(vectors);
      throw e;
    }
    if (kept == 0) {
      closeAll(vectors);
      return new ColumnarBatch(new ColumnVector[0], 0);
    }
    if (kept < rows) {
      for (int i = 0; i < vectors.length; i++) {
        vectors[i] = new SelectedColumnVector(vectors[i], keptRows, kept);
      }
    }
    int n = (int) Math.min(kept, rowsLeft);
    rowsLeft -= n;
    return new ColumnarBatch(vectors, n);
  }

  private static void closeAll(ColumnVector[] vectors) {
    new ColumnarBatch(Arrays.stream(vectors).filter(v -> v != null).toArray(ColumnVector[]::new)).close();
  }

  /**
   * Evaluates the filter on values over the chunk's rows: reads the variables it needs (into
   * {@code vectors} where they are output columns too), lists the kept rows in {@link #keptRows},
   * and returns how many there are.
   */
  private int select(long[] chunk, long[][] sel, int rows, int[] rowStride, int[] len, ColumnVector[] vectors)
      throws IOException {
    FilterValues[] values = new FilterValues[view.variables().size()];
    List<ColumnVector> hidden = new ArrayList<>();
    try {
      for (int v : filterVariables) {
        ColumnVector vector = variable(v, chunk, sel, rows, rowStride, len);
        int out = plan.columns().indexOf(new OutputColumn(OutputColumn.Kind.VARIABLE, v));
        if (out >= 0) {
          vectors[out] = vector;
        } else {
          hidden.add(vector);
        }
        // A column read in place is filtered from its elements, by the aggregates' loops.
        values[v] = vector instanceof ChunkValueVector inPlace
            ? new ChunkFilterValues(inPlace.elements(), vector.dataType(), filterIntegers) : new ColumnFilterValues(vector);
      }
      if (keep.length < rows) {
        keep = new byte[rows];
        keptRows = new int[rows];
      }
      int kept = filter.select(values, rows, keep, filterScratch);
      for (int i = 0, k = 0; k < kept; i++) {
        keptRows[k] = i;
        k += keep[i];
      }
      return kept;
    } finally {
      hidden.forEach(ColumnVector::close);
    }
  }

  private static ColumnVector dimensionView(WritableColumnVector inner, int d, int rows, int[] rowStride,
      int[] len) {
    return RepeatedColumn.of(inner, rows, rowStride[d], len[d]);
  }

  private static WritableColumnVector positions(long[] sel) {
    WritableColumnVector v = new OnHeapColumnVector(sel.length, DataTypes.LongType);
    for (int i = 0; i < sel.length; i++) {
      v.putLong(i, sel[i]);
    }
    return v;
  }

  /** The coordinate values at the selected positions; the chunk's region is read once per task. */
  private WritableColumnVector coordinate(int d, long chunk, long[] sel) throws IOException {
    long lo = chunk * view.planChunks()[d];
    int length = (int) (Math.min(lo + view.planChunks()[d], view.dims().get(d).length()) - lo);
    ChunkData region = region("dim:" + d, coordinates[d], new long[] {lo}, new int[] {length});
    WritableColumnVector v = new OnHeapColumnVector(sel.length, view.dims().get(d).type());
    for (int i = 0; i < sel.length; i++) {
      coordinateWriters[d].write(region, (int) (sel[i] - lo), v, i, 1);
    }
    return v;
  }

  private ColumnVector variable(int index, long[] chunk, long[][] sel, int rows, int[] rowStride,
      int[] len) throws IOException {
    Variable var = view.variables().get(index);
    ZarrArray array = variables[index];
    int[] dims = var.dims();
    int m = dims.length;
    long[] origin = new long[m];
    int[] shape = new int[m];
    ChunkData data;
    boolean sameGrid = var.coversAll(view.rank())
        && Arrays.equals(array.metadata().chunkShape(), view.planChunks());
    if (sameGrid && ChunkValueVector.supports(array.memoryType(), var.cf())) {
      int[] chunkShape = array.metadata().chunkShape();
      if (wholeChunk(chunkShape, len)) {
        // Rows are the chunk's elements in order: read them in place, from a buffer reused per chunk
        // (a whole shard is assembled there from its inner chunks).
        return new ChunkValueVector(chunkBytes(index, chunk), array.memoryType(), var.cf(), rows, var.type());
      }
      int[] start = runStarts(chunk, sel);
      if (start != null && !array.readsPartialChunks()) {
        // An edge chunk, or a box of one: its rows copied out in runs, into a buffer reused per chunk.
        return new ChunkValueVector(boxBytes(index, chunk, chunkShape, start, len), array.memoryType(), var.cf(),
            rows, var.type());
      }
    }
    // Parts of shards go through region reads, which fetch only the inner chunks selected.
    boolean aligned = sameGrid && !array.readsPartialChunks();
    if (aligned) {
      for (int k = 0; k < m; k++) {
        origin[k] = chunk[k] * view.planChunks()[k];
      }
      data = decoding(() -> array.readChunk(chunk));
    } else {
      for (int k = 0; k < m; k++) {
        long[] s = sel[dims[k]];
        origin[k] = s[0];
        shape[k] = (int) (s[s.length - 1] - s[0] + 1);
      }
      data = region("var:" + index, array, origin, shape);
    }
    int[] dataShape = data.shape();
    int[] innerLen = new int[m];
    int innerRows = 1;
    for (int k = m - 1; k >= 0; k--) {
      innerLen[k] = len[dims[k]];
      innerRows *= innerLen[k];
    }
    WritableColumnVector inner = new OnHeapColumnVector(innerRows, var.type());
    try {
      fill(inner, data, dataShape, origin, dims, sel, variableWriters[index]);
    } catch (RuntimeException e) {
      inner.close();
      throw e;
    }
    boolean identity = var.coversAll(view.rank());
    if (identity) {
      return inner;
    }
    int[] innerStride = new int[view.rank()];
    int stride = 1;
    for (int k = m - 1; k >= 0; k--) {
      innerStride[dims[k]] = stride;
      stride *= innerLen[k];
    }
    int[] lengths = len.clone();
    for (int d = 0; d < lengths.length; d++) {
      lengths[d] = Math.max(1, lengths[d]);
    }
    return new GatherColumnVector(inner, rows, rowStride, lengths, innerStride);
  }

  /**
   * The decoded bytes of a variable's chunk in the variable's reused buffers: Spark's batch
   * contract lets them change once the reader moves to the next batch. A chunk never written is
   * the fill chunk, made once.
   */
  private byte[] chunkBytes(int index, long[] chunk) throws IOException {
    ZarrArray array = variables[index];
    byte[] bytes = decoding(() -> array.readChunkBytes(chunk, decodeBuffers[index]));
    if (bytes == null) {
      if (fillChunks[index] == null) {
        fillChunks[index] = array.fillChunk(array.metadata().chunkShape()).bytes();
      }
      bytes = fillChunks[index];
    }
    return bytes;
  }

  /**
   * Where the selection starts inside the chunk along each dimension, when it is one run of
   * consecutive positions along every dimension; else null.
   */
  private int[] runStarts(long[] chunk, long[][] sel) {
    int[] start = new int[sel.length];
    for (int d = 0; d < sel.length; d++) {
      long[] s = sel[d];
      if (s[s.length - 1] - s[0] + 1 != s.length) {
        return null;
      }
      start[d] = (int) (s[0] - chunk[d] * view.planChunks()[d]);
    }
    return start;
  }

  /** The box {@code start}, {@code len} of a variable's decoded chunk, compact in C order. */
  private byte[] boxBytes(int index, long[] chunk, int[] chunkShape, int[] start, int[] len) throws IOException {
    byte[] bytes = chunkBytes(index, chunk);
    int elementSize = variables[index].memoryType().size();
    int size = Math.toIntExact(ChunkData.count(len) * elementSize);
    if (boxBuffers[index] == null || boxBuffers[index].length < size) {
      boxBuffers[index] = new byte[size];
    }
    BoxCopy.copy(bytes, chunkShape, start, boxBuffers[index], len, new int[len.length], len, elementSize);
    return boxBuffers[index];
  }

  /** Whether the selection is all of a chunk of {@code chunkShape} (positions are sorted and unique). */
  private static boolean wholeChunk(int[] chunkShape, int[] len) {
    for (int k = 0; k < chunkShape.length; k++) {
      if (len[k] != chunkShape[k]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Writes the selected elements of {@code data} (a box of the array starting at {@code origin})
   * in C order over the array's dimensions, copying runs of consecutive positions at once.
   */
  private static void fill(WritableColumnVector out, ChunkData data, int[] dataShape, long[] origin,
      int[] dims, long[][] sel, ValueWriter writer) {
    int m = dims.length;
    if (m == 0) {
      writer.write(data, 0, out, 0, 1);
      return;
    }
    long[] strides = io.github.sparkzarr.zarr.chunk.BoxCopy.strides(dataShape);
    long[] last = sel[dims[m - 1]];
    int[] idx = new int[m - 1];
    int row = 0;
    while (true) {
      long base = 0;
      for (int k = 0; k < m - 1; k++) {
        base += (sel[dims[k]][idx[k]] - origin[k]) * strides[k];
      }
      int i = 0;
      while (i < last.length) {
        int j = i + 1;
        while (j < last.length && last[j] == last[j - 1] + 1) {
          j++;
        }
        writer.write(data, (int) (base + (last[i] - origin[m - 1]) * strides[m - 1]), out, row, j - i);
        row += j - i;
        i = j;
      }
      int k = m - 2;
      while (k >= 0 && ++idx[k] == sel[dims[k]].length) {
        idx[k] = 0;
        k--;
      }
      if (k < 0) {
        return;
      }
    }
  }

  private record Region(long[] origin, int[] shape, ChunkData data) {}

  /** A region of an array, reusing the column's previous one when it covers the same box. */
  private ChunkData region(String column, ZarrArray array, long[] origin, int[] shape)
      throws IOException {
    Region last = lastRegion.get(column);
    if (last != null && Arrays.equals(last.origin(), origin) && Arrays.equals(last.shape(), shape)) {
      return last.data();
    }
    ChunkData data = decoding(() -> array.read(origin, shape));
    lastRegion.put(column, new Region(origin, shape, data));
    return data;
  }

  /** A read whose time, less the store's fetching, counts as decoding (a task metric). */
  private <T> T decoding(ChunkRead<T> read) throws IOException {
    long t0 = System.nanoTime();
    long fetch0 = store.fetchNanos();
    T result = read.run();
    decodeNanos += System.nanoTime() - t0 - (store.fetchNanos() - fetch0);
    return result;
  }

  private interface ChunkRead<T> {
    T run() throws IOException;
  }

  @Override
  public ColumnarBatch get() {
    return current;
  }

  private void closeCurrent() {
    if (current != null) {
      current.close();
      current = null;
    }
  }

  @Override
  public void close() throws IOException {
    closeCurrent();
    for (DecodeBuffers b : decodeBuffers) {
      if (b != null) {
        b.release();
      }
    }
    store.close();
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return TaskReadMetrics.of(store, decodeNanos);
  }
}
