package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.read.metrics.TaskReadMetrics;
import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.spark.schema.DatasetView;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.chunk.BoxCopy;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.store.CountingStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * Computes a {@link PushedAggregate} over a range of planned chunks: each chunk is decoded and its
 * elements are added, in row order, straight from the decoded bytes to per-group accumulators
 * ({@link ChunkFeeder}); blosc chunks block by block as they are decoded. No row or column vector is
 * built for the data; the partition yields one batch of partial results.
 */
final class PartialAggregateReader implements PartitionReader<ColumnarBatch> {
  /** Whether byte-shuffled blosc blocks are summed without un-shuffling them first. */
  static final boolean FUSE_SHUFFLE = !Boolean.getBoolean("sparkzarr.noFusedShuffle");
  private final ScanPlan plan;
  private final DatasetView view;
  private final PushedAggregate aggregate;
  private final StructType schema;
  private final CountingStore store;
  private final long start;
  private final long end;
  private final ZarrArray[] variables;
  private final Accumulator[] accumulators;
  /**
   * The GROUP BY keys, then the positions along each weighted sum's dimension: hidden keys, not
   * returned, so each row's weight is known.
   */
  private final List<GroupKey> keys;
  /** The dimension of each key. */
  private final int[] groupDims;
  /** Each weighted sum's weights over the partition (null for other calls). */
  private final GroupKeyValues[] weights;
  /** The dimensions the keys are computed from, each once: groups are combinations of their positions. */
  private final int[] keyDims;
  /** Each GROUP BY key's values over the partition, or null where the key is the position itself. */
  private final GroupKeyValues[] keyValues;
  private final GroupSlots slots;
  /** The last box's group slots, and its origin and lengths: reused while the key cells repeat. */
  private int[] lastSlotOf;
  /** Which runs of cells have consecutive slots, known while the slots stay the same. */
  private final ConsecutiveRuns runs = new ConsecutiveRuns();
  private long[] lastLo;
  private int[] lastLen;
  private final PartitionKeys partitionKeys;
  /** Scratch for decoding block by block, reused across the partition's chunks and tasks. */
  private final DecodeBuffers buffers = DecodeBuffers.borrow();
  private long decodeNanos;
  /** Results are handed out this many rows at a time: Spark's batch size, so a batch stays in cache. */
  static final int BATCH_ROWS = 4096;
  private boolean accumulated;
  /** Groups met by the partition, and how many of their rows are handed out. */
  private int metGroups;
  private int emitted;
  /** The batch handed out, its columns reused from batch to batch. */
  private ColumnarBatch result;
  private WritableColumnVector[] columns;
  /** Scratch of each weighted call: its raw sums before weighting. */
  private WritableColumnVector[] unweighted;
  /** Each key's coordinate values over the partition, read at the first batch (null for other keys). */
  private KeyCoordinates[] coordinates;
  /** Scratch of {@link #forEachPiece}. */
  private long[] positions;
  /** The filter on values, or null; its scratch; which elements of the current box it kept. */
  private final ValueFilter filter;
  private final ValueFilter.Scratch filterScratch = new ValueFilter.Scratch();
  private final StoredIntegers filterIntegers = new StoredIntegers();
  private byte[] keep = new byte[0];
  /** With a filter: per variable, where its chunks are decoded (several are held at once), and its fill chunk. */
  private final DecodeBuffers[] variableBuffers;
  private final byte[][] fillChunks;
  /** With a filter: the slots that some kept element was added to. */
  private final TouchedSlots touched = new TouchedSlots();
  /** The rows of a result batch whose groups were {@link #touched}. */
  private final int[] keptRows = new int[BATCH_ROWS];
  /** The batch handed out: {@link #result}, or a view of its rows of touched groups. */
  private ColumnarBatch handedOut;

  PartialAggregateReader(ScanPlan plan, PushedAggregate aggregate, StructType schema,
      CountingStore store, long start, long end) {
    this.plan = plan;
    this.view = plan.view();
    this.aggregate = aggregate;
    this.schema = schema;
    this.store = store;
    this.start = start;
    this.end = end;
    List<AggregateCall> calls = aggregate.calls();
    variables = new ZarrArray[view.variables().size()];
    accumulators = new Accumulator[calls.size()];
    filter = plan.filter();
    variableBuffers = new DecodeBuffers[variables.length];
    fillChunks = new byte[variables.length][];
    for (int c = 0; c < calls.size(); c++) {
      int v = calls.get(c).variable();
      if (v >= 0 && variables[v] == null) {
        variables[v] = view.variables().get(v).array().open(store);
      }
    }
    for (int v : filter == null ? new int[0] : filter.variables()) {
      if (variables[v] == null) {
        variables[v] = view.variables().get(v).array().open(store);
      }
    }
    keys = new ArrayList<>(aggregate.groupBy());
    for (int d : aggregate.weightDims()) {
      keys.add(GroupKey.of(new OutputColumn(OutputColumn.Kind.POSITION, d), "position"));
    }
    groupDims = keys.stream().mapToInt(k -> k.column().index()).toArray();
    boolean elementwise = Arrays.stream(groupDims).anyMatch(d -> d == view.rank() - 1);
    for (int c = 0; c < calls.size(); c++) {
      accumulators[c] = Accumulator.of(calls.get(c), elementwise);
    }
    shareCounts(calls);
    pairExtremes(calls);
    weights = new GroupKeyValues[calls.size()];
    keyDims = java.util.Arrays.stream(groupDims).distinct().toArray();
    keyValues = new GroupKeyValues[groupDims.length];
    partitionKeys = new PartitionKeys(plan, store, start, end);
    slots = groupSlots(groupDims, partitionKeys);
    if (groupDims.length == 0) {
      // Without GROUP BY every partition answers one row, even an empty one: COUNT must say 0.
      slots.slot(new long[0]);
      ensureSlots();
    }
  }

  /** Slots for the groups of positions along {@code dims} that the partition reads. */
  private static GroupSlots groupSlots(int[] dims, PartitionKeys partitionKeys) {
    long[] first = new long[dims.length];
    long[] radix = new long[dims.length];
    for (int k = 0; k < dims.length; k++) {
      long[] range = partitionKeys.positionRange(dims[k]);
      first[k] = range == null ? 0 : range[0];
      radix[k] = range == null ? 1 : range[1] - range[0] + 1;
    }
    return new GroupSlots(first, radix);
  }

  /**
   * COUNT(v) beside a SUM(v) (AVG, which Spark splits into the two) reads the counts the sum
   * keeps, so the values are gone through once. So does COUNT(*) when a filter on values keeps
   * only elements where v is not null ({@code WHERE v > 280}): then it counts the same elements.
   */
  private void shareCounts(List<AggregateCall> calls) {
    for (int c = 0; c < calls.size(); c++) {
      AggregateCall count = calls.get(c);
      boolean rows = count.kind() == AggregateCall.Kind.COUNT_ROWS && count.weight() == null && filter != null;
      if (count.kind() != AggregateCall.Kind.COUNT && !rows) {
        continue;
      }
      for (int s = 0; s < calls.size(); s++) {
        int v = calls.get(s).variable();
        boolean same = rows ? v >= 0 && filter.trueOnlyWhenPresent(v) : v == count.variable();
        if (calls.get(s).kind() != AggregateCall.Kind.SUM || !same) {
          continue;
        }
        IntToLongFunction sumCounts = sumCounts(accumulators[s]);
        if (sumCounts != null) {
          accumulators[c] = new CountAccumulator.OfSum(sumCounts);
          break;
        }
      }
    }
  }

  /** How many values a SUM accumulator added into each slot, or null for another accumulator. */
  private static IntToLongFunction sumCounts(Accumulator a) {
    if (a instanceof SumAccumulator sum) {
      return sum::count;
    }
    return a instanceof IntSumAccumulator sum ? sum::count : null;
  }

  /**
   * The MIN and the MAX of one variable (unweighted) are fed together ({@link ExtremePair}): a
   * run is read once for both.
   */
  private void pairExtremes(List<AggregateCall> calls) {
    for (int c = 0; c < calls.size(); c++) {
      if (calls.get(c).kind() != AggregateCall.Kind.MIN || calls.get(c).weight() != null
          || !(accumulators[c] instanceof ExtremeAccumulator min)) {
        continue;
      }
      for (int s = 0; s < calls.size(); s++) {
        if (calls.get(s).kind() == AggregateCall.Kind.MAX && calls.get(s).weight() == null
            && calls.get(s).variable() == calls.get(c).variable()
            && accumulators[s] instanceof ExtremeAccumulator max) {
          ExtremePair pair = new ExtremePair(min, max);
          accumulators[c] = pair;
          accumulators[s] = pair.maxPlace();
          break;
        }
      }
    }
  }

  @Override
  public boolean next() throws IOException {
    if (!accumulated) {
      accumulated = true;
      accumulateAll();
      metGroups = slots.size();
    }
    while (emitted < metGroups) {
      int count = Math.min(BATCH_ROWS, metGroups - emitted);
      int from = emitted;
      emitted += count;
      fill(from, count);
      handedOut = keptGroups(from, count);
      if (handedOut.numRows() > 0) {
        return true;
      }
    }
    return false;
  }

  /**
   * The batch of slots {@code [from, from + count)}, less the groups no element reached: with a
   * filter on values, a box's groups get slots before the filter keeps any of their elements, and
   * Spark has no row for a group whose rows were all filtered out. (Without GROUP BY the one group
   * stays: a global aggregate has its row even with no input.)
   */
  private ColumnarBatch keptGroups(int from, int count) {
    if (filter == null || groupDims.length == 0) {
      return result;
    }
    int k = 0;
    for (int r = 0; r < count; r++) {
      keptRows[k] = r;
      k += touched.get(from + r) ? 1 : 0;
    }
    if (k == count) {
      return result;
    }
    ColumnVector[] views = new ColumnVector[columns.length];
    for (int c = 0; c < columns.length; c++) {
      views[c] = new SelectedColumnVector(columns[c], keptRows, k);
    }
    return new ColumnarBatch(views, k);
  }

  private void accumulateAll() throws IOException {
    for (int k = 0; k < groupDims.length; k++) {
      keyValues[k] = partitionKeys.grouping(keys.get(k));
    }
    for (int c = 0; c < weights.length; c++) {
      GroupKey w = aggregate.calls().get(c).weight();
      weights[c] = w == null ? null : partitionKeys.values(w);
    }
    for (long i = start; i < end; i++) {
      accumulate(plan.chunkCoords(i));
    }
  }

  /** Makes room in every accumulator for the groups met so far. */
  private void ensureSlots() {
    for (Accumulator a : accumulators) {
      a.ensure(slots.size());
    }
  }

  private void accumulate(long[] chunk) throws IOException {
    int rank = view.rank();
    long[] lo = new long[rank];
    int[] len = new int[rank];
    for (int d = 0; d < rank; d++) {
      long[] p = plan.positions(d, chunk[d]);
      if (p.length == 0) {
        return;
      }
      lo[d] = p[0];
      len[d] = p.length;
    }
    int[] slotOf = groupSlots(lo, len);
    if (filter != null) {
      accumulateKept(chunk, lo, len, slotOf);
      return;
    }
    for (int v = -1; v < variables.length; v++) {
      Accumulator[] targets = targets(v);
      if (targets.length == 0) {
        continue;
      }
      if (v < 0) {
        new ChunkFeeder(null, null, false, targets, len, BoxCopy.strides(len), 0, keyDims, slotOf, runs)
            .countAll();
      } else {
        read(v, chunk, lo, len, targets, slotOf);
      }
    }
  }

  /** The accumulators fed from variable {@code v} (-1: those reading no data, COUNT(*)). */
  private Accumulator[] targets(int v) {
    List<AggregateCall> calls = aggregate.calls();
    List<Accumulator> on = new ArrayList<>();
    for (int c = 0; c < calls.size(); c++) {
      if (calls.get(c).variable() == v && !(accumulators[c] instanceof CountAccumulator.OfSum)) {
        on.add(accumulators[c]);
      }
    }
    return on.toArray(new Accumulator[0]);
  }

  /**
   * Adds the elements of the box that the filter on values keeps: every variable it or a call reads
   * is decoded whole into its own buffers, the filter marks the kept elements, and each variable's
   * accumulators get those ({@link ChunkFeeder#feedKept}).
   */
  private void accumulateKept(long[] chunk, long[] lo, int[] len, int[] slotOf) throws IOException {
    int n = Math.toIntExact(ChunkData.count(len));
    NumericChunk[] boxes = new NumericChunk[variables.length];
    FilterValues[] values = new FilterValues[variables.length];
    for (int v : filter.variables()) {
      boxes[v] = box(v, chunk, lo, len);
      values[v] = new ChunkFilterValues(boxes[v], view.variables().get(v).type(), filterIntegers);
    }
    if (keep.length < n) {
      keep = new byte[n];
    }
    int kept = filter.select(values, n, keep, filterScratch);
    if (kept == 0) {
      return;
    }
    if (kept == n) {
      for (int slot : slotOf) {
        touched.set(slot);
      }
    }
    for (int v = -1; v < variables.length; v++) {
      Accumulator[] targets = targets(v);
      // With no aggregate at all (GROUP BY alone: Dataset.count() of a grouped query), a feeder of
      // none still marks the groups the kept elements reach.
      if (targets.length == 0 && (v >= 0 || accumulators.length > 0)) {
        continue;
      }
      NumericChunk data = v < 0 ? null : boxes[v] != null ? boxes[v] : box(v, chunk, lo, len);
      DataType type = v < 0 ? null : variables[v].memoryType();
      ChunkFeeder feeder = new ChunkFeeder(type, null, false, targets, len, BoxCopy.strides(len), 0, keyDims, slotOf, runs);
      feeder.feedKept(data, kept == n ? null : keep, buffers, touched);
      feeder.checkFinished();
    }
  }

  /**
   * Variable {@code v}'s elements over the box {@code lo, len} of a planned chunk, in C order from
   * index 0 (float16 widened to float32), in the variable's own buffers: the decoded chunk itself
   * when the box is all of it, else the box copied out of it, or read as a region when the grids
   * differ or the array is sharded.
   */
  private NumericChunk box(int v, long[] chunk, long[] lo, int[] len) throws IOException {
    long t0 = System.nanoTime();
    long fetch0 = store.fetchNanos();
    ZarrArray array = variables[v];
    DataType type = array.memoryType();
    if (variableBuffers[v] == null) {
      variableBuffers[v] = DecodeBuffers.borrow();
    }
    DecodeBuffers own = variableBuffers[v];
    int[] shape = array.metadata().chunkShape();
    int n = Math.toIntExact(ChunkData.count(len));
    byte[] bytes;
    if (Arrays.equals(shape, view.planChunks()) && (Arrays.equals(shape, len) || !array.readsPartialChunks())) {
      bytes = array.readChunkBytes(chunk, own);
      if (bytes == null) {
        if (fillChunks[v] == null) {
          fillChunks[v] = array.fillChunk(shape).bytes();
        }
        bytes = fillChunks[v];
      }
      if (!Arrays.equals(shape, len)) {
        int[] start = new int[lo.length];
        for (int d = 0; d < lo.length; d++) {
          start[d] = (int) (lo[d] - chunk[d] * view.planChunks()[d]);
        }
        byte[] box = own.get(10, n * type.size());
        BoxCopy.copy(bytes, shape, start, box, len, new int[len.length], len, type.size());
        bytes = box;
      }
    } else {
      bytes = array.read(lo, len).bytes();
    }
    if (NumericChunk.isHalf(type)) {
      bytes = ChunkFeeder.widened(bytes, 0, n, own);
      type = ChunkFeeder.FLOAT32;
    }
    decodeNanos += System.nanoTime() - t0 - (store.fetchNanos() - fetch0);
    return new NumericChunk(bytes, type, view.variables().get(v).cf());
  }

  /**
   * Adds the variable's elements over the box: from its whole chunk when the grids agree (block by
   * block as blosc decodes it, when blosc is the whole codec chain), inner chunk by inner chunk
   * from a shard, else from a region.
   */
  private void read(int v, long[] chunk, long[] lo, int[] len, Accumulator[] targets, int[] slotOf)
      throws IOException {
    ZarrArray array = variables[v];
    DataType type = array.memoryType();
    CfDecoding cf = view.variables().get(v).cf();
    long t0 = System.nanoTime();
    long fetch0 = store.fetchNanos();
    List<ChunkFeeder> feeders = new ArrayList<>();
    int[] shape = array.metadata().chunkShape();
    if (!Arrays.equals(shape, view.planChunks())) {
      ChunkData data = array.read(lo, len);
      ChunkFeeder feeder = feeder(type, cf, targets, data.shape(), new int[lo.length], len, slotOf);
      feeders.add(feeder);
      feeder.block(data.bytes(), 0, 0, data.bytes().length);
    } else {
      // A filter's box may start inside the chunk.
      int[] start = new int[lo.length];
      for (int d = 0; d < lo.length; d++) {
        start[d] = (int) (lo[d] - chunk[d] * view.planChunks()[d]);
      }
      boolean stored;
      if (array.readsPartialChunks()) {
        stored = array.readShardBlocks(chunk, start, len, buffers, (innerShape, inChunk, inBox, overlap) -> {
          long[] innerLo = new long[lo.length];
          for (int d = 0; d < lo.length; d++) {
            innerLo[d] = lo[d] + inBox[d];
          }
          ChunkFeeder feeder = feeder(type, cf, targets, innerShape, inChunk, overlap, groupSlots(innerLo, overlap));
          feeders.add(feeder);
          return feeder;
        });
      } else if (array.storedAxes() != null && keyDims.length == 0) {
        // Without groups the order of the elements does not matter: a chunk stored with its axes
        // permuted is added as it lies (3x less CPU for a sum of Fortran-ordered blosc chunks).
        // With groups, rows along the last axis in C order are added faster than the short runs
        // the stored order makes of them, which pays for the permutation.
        feeders.add(storedOrderFeeder(type, cf, targets, array, start, len, slotOf));
        stored = array.readChunkBlocksAsStored(chunk, buffers, feeders.get(0));
      } else {
        feeders.add(feeder(type, cf, targets, shape, start, len, slotOf));
        stored = array.readChunkBlocks(chunk, buffers, feeders.get(0));
      }
      if (!stored) {
        // nothing was handed out: the whole box is the fill value
        feeders.clear();
        ChunkFeeder feeder = feeder(type, cf, targets, shape, start, len, slotOf);
        feeders.add(feeder);
        byte[] fill = array.fillChunk(shape).bytes();
        feeder.block(fill, 0, 0, fill.length);
      }
    }
    long feeding = 0;
    for (ChunkFeeder feeder : feeders) {
      feeder.checkFinished();
      feeding += feeder.nanos();
    }
    decodeNanos += System.nanoTime() - t0 - (store.fetchNanos() - fetch0) - feeding;
  }

  /**
   * {@link #feeder} without groups for a chunk of {@code array} decoded in its stored order
   * ({@link ZarrArray#storedAxes}): the box is moved to the stored axes.
   */
  private ChunkFeeder storedOrderFeeder(DataType type, CfDecoding cf, Accumulator[] targets,
      ZarrArray array, int[] start, int[] len, int[] slotOf) {
    int[] axes = array.storedAxes();
    int[] storedStart = new int[axes.length];
    int[] storedLen = new int[axes.length];
    for (int d = 0; d < axes.length; d++) {
      storedStart[axes[d]] = start[d];
      storedLen[axes[d]] = len[d];
    }
    return feeder(type, cf, targets, array.storedChunkShape(), storedStart, storedLen, slotOf);
  }

  /** Feeds the box {@code [start, start + len)} of a chunk of {@code shape} to the targets. */
  private ChunkFeeder feeder(DataType type, CfDecoding cf, Accumulator[] targets, int[] shape,
      int[] start, int[] len, int[] slotOf) {
    long[] strides = BoxCopy.strides(shape);
    long origin = 0;
    for (int d = 0; d < start.length; d++) {
      origin += start[d] * strides[d];
    }
    return new ChunkFeeder(type, cf, FUSE_SHUFFLE, targets, len, strides, origin, keyDims, slotOf, runs)
        .widenHalfFloats(buffers);
  }

  /**
   * The slot of each group of the box, numbered in C order over the key dimensions: keys of one
   * dimension (year and month of time) are read at the same position.
   */
  private int[] groupSlots(long[] lo, int[] len) {
    if (lastSlotOf != null && sameKeyBox(lo, len)) {
      return lastSlotOf; // the chunk before covered the same cells (another time step of them)
    }
    int groups = 1;
    for (int d : keyDims) {
      groups *= len[d];
    }
    int[] out = slots.coded() ? codedSlots(lo, len, groups) : tupleSlots(lo, len, groups);
    ensureSlots(); // once per box, not per group
    lastSlotOf = out;
    lastLo = lo.clone();
    lastLen = len.clone();
    return out;
  }

  /** Whether the box spans the same positions as the last one along every key dimension. */
  private boolean sameKeyBox(long[] lo, int[] len) {
    for (int d : keyDims) {
      if (lo[d] != lastLo[d] || len[d] != lastLen[d]) {
        return false;
      }
    }
    return true;
  }

  /** The key at {@code position} of key {@code k}'s dimension: the position, or its value's representative. */
  private long keyAt(int k, long position) {
    return keyValues[k] == null ? position : keyValues[k].representative(position);
  }

  /**
   * Slots by code: per key dimension, what each position adds to a group's code (the keys on it
   * summed), then the groups in C order, the last key dimension in a tight loop.
   */
  private int[] codedSlots(long[] lo, int[] len, int groups) {
    int[] out = new int[groups];
    int dims = keyDims.length;
    if (dims == 0) {
      out[0] = slots.slotOfCode(0);
      return out;
    }
    if (slots.size() == 0 && groups == slots.range() && positionKeysOnly()) {
      // The first box holds every group: in C order their codes are 0, 1, 2, ... and so are their slots.
      slots.addEvery();
      for (int g = 0; g < groups; g++) {
        out[g] = g;
      }
      return out;
    }
    long[][] parts = new long[dims][];
    for (int j = 0; j < dims; j++) {
      int d = keyDims[j];
      parts[j] = new long[len[d]];
      for (int k = 0; k < groupDims.length; k++) {
        if (groupDims[k] == d) {
          for (int i = 0; i < len[d]; i++) {
            parts[j][i] += slots.codePart(k, keyAt(k, lo[d] + i));
          }
        }
      }
    }
    slots.reserve(groups);
    long[] inner = parts[dims - 1];
    int[] idx = new int[dims - 1];
    for (int g = 0; g < groups; ) {
      long base = 0;
      for (int j = 0; j < dims - 1; j++) {
        base += parts[j][idx[j]];
      }
      for (long part : inner) {
        out[g++] = slots.slotOfCode(base + part);
      }
      for (int j = dims - 2; j >= 0 && ++idx[j] == len[keyDims[j]]; j--) {
        idx[j] = 0;
      }
    }
    return out;
  }

  /**
   * Whether every key is a position (no function, no coordinate value two positions can share): a
   * box holding as many groups as there are codes then numbers them as their codes. (Two keys on
   * one dimension make more codes than groups, unless the box is one position wide along it.)
   */
  private boolean positionKeysOnly() {
    for (GroupKeyValues values : keyValues) {
      if (values != null) {
        return false;
      }
    }
    return true;
  }

  /** Slots by tuple of keys, when codes would not fit a long. */
  private int[] tupleSlots(long[] lo, int[] len, int groups) {
    int[] out = new int[groups];
    long[] at = new long[lo.length];
    int[] idx = new int[keyDims.length];
    long[] key = new long[groupDims.length];
    for (int g = 0; g < groups; g++) {
      for (int j = 0; j < keyDims.length; j++) {
        at[keyDims[j]] = lo[keyDims[j]] + idx[j];
      }
      for (int k = 0; k < groupDims.length; k++) {
        key[k] = keyAt(k, at[groupDims[k]]);
      }
      out[g] = slots.slot(key);
      for (int j = keyDims.length - 1; j >= 0 && ++idx[j] == len[keyDims[j]]; j--) {
        idx[j] = 0;
      }
    }
    return out;
  }

  /** Makes {@link #result} the rows of slots {@code [from, from + count)}. */
  private void fill(int from, int count) throws IOException {
    int visible = aggregate.groupBy().size();
    if (columns == null) {
      int capacity = Math.max(1, Math.min(metGroups, BATCH_ROWS));
      columns = new WritableColumnVector[schema.fields().length];
      for (int c = 0; c < columns.length; c++) {
        columns[c] = new OnHeapColumnVector(capacity, schema.fields()[c].dataType());
      }
      unweighted = new WritableColumnVector[accumulators.length];
      coordinates = new KeyCoordinates[visible];
      result = new ColumnarBatch(columns);
    }
    for (WritableColumnVector column : columns) {
      column.reset();
    }
    for (int k = 0; k < visible; k++) {
      writeGroupColumn(k, columns[k], from, count);
    }
    for (int c = 0; c < accumulators.length; c++) {
      if (aggregate.calls().get(c).weight() != null) {
        writeWeighted(c, columns[visible + c], from, count);
      } else {
        accumulators[c].write(columns[visible + c], from, count);
      }
    }
    result.setNumRows(count);
  }

  /** Call {@code c}'s sums (or counts) of slots {@code [from, from + count)}, times each position's weight. */
  private void writeWeighted(int c, WritableColumnVector out, int from, int count) {
    AggregateCall call = aggregate.calls().get(c);
    boolean counts = call.kind() == AggregateCall.Kind.COUNT_ROWS;
    if (unweighted[c] == null) {
      unweighted[c] = new OnHeapColumnVector(Math.max(1, Math.min(metGroups, BATCH_ROWS)),
          counts ? DataTypes.LongType : DataTypes.DoubleType);
    }
    WritableColumnVector raw = unweighted[c];
    raw.reset();
    accumulators[c].write(raw, from, count);
    int k = keys.size() - 1;
    while (groupDims[k] != call.weight().column().index()) {
      k--; // the hidden position key of the weight's dimension
    }
    for (int r = 0; r < count; r++) {
      Object w = weights[c].value(slots.position(from + r, k));
      if (raw.isNullAt(r) || w == null) {
        out.putNull(r);
      } else {
        out.putDouble(r, (counts ? raw.getLong(r) : raw.getDouble(r)) * (Double) w);
      }
    }
  }

  /**
   * GROUP BY key {@code k} of slots {@code [from, from + count)}: the function's values, else
   * positions or the coordinate values at them.
   */
  private void writeGroupColumn(int k, WritableColumnVector v, int from, int count) throws IOException {
    GroupKey key = keys.get(k);
    if (key.function() != null) {
      forEachPiece(k, from, count, (p, row, m) -> {
        for (int i = 0; i < m; i++) {
          keyValues[k].write(p[i], v, row + i);
        }
      });
    } else if (key.isPosition(view)) {
      forEachPiece(k, from, count, (p, row, m) -> v.putLongs(row, m, p, 0));
    } else {
      if (coordinates[k] == null) {
        coordinates[k] = keyCoordinates(k);
      }
      KeyCoordinates values = coordinates[k];
      forEachPiece(k, from, count, (p, row, m) -> {
        for (int i = 0; i < m; i++) {
          values.writer().write(values.values(), (int) (p[i] - values.min()), v, row + i, 1);
        }
      });
    }
  }

  /** A coordinate key's values at positions {@code min} on, and how they become column values. */
  private record KeyCoordinates(long min, ChunkData values, ValueWriter writer) {}

  /** Key {@code k}'s coordinate values over every position the partition's groups take. */
  private KeyCoordinates keyCoordinates(int k) throws IOException {
    long[] range = {Long.MAX_VALUE, -1};
    forEachPiece(k, 0, metGroups, (p, row, m) -> {
      for (int i = 0; i < m; i++) {
        range[0] = Math.min(range[0], p[i]);
        range[1] = Math.max(range[1], p[i]);
      }
    });
    long min = range[0];
    DatasetView.Dimension dim = view.dims().get(groupDims[k]);
    ZarrArray coordinate = dim.coordinate().open(store);
    ChunkData values = coordinate.read(new long[] {min}, new int[] {(int) (range[1] - min + 1)});
    return new KeyCoordinates(min, values, ValueWriters.of(coordinate.memoryType(), dim.cf()));
  }

  /** Receives key positions of rows {@code [row, row + m)} in {@code positions[0, m)}. */
  private interface PositionPiece {
    void accept(long[] positions, int row, int m);
  }

  /**
   * Key {@code k}'s positions of slots {@code [from, from + count)}, a cache-sized piece at a time,
   * numbered from row 0.
   */
  private void forEachPiece(int k, int from, int count, PositionPiece piece) {
    if (positions == null) {
      positions = new long[BATCH_ROWS];
    }
    for (int row = 0; row < count; row += positions.length) {
      int m = Math.min(positions.length, count - row);
      slots.positions(k, from + row, m, positions);
      piece.accept(positions, row, m);
    }
  }

  @Override
  public ColumnarBatch get() {
    return handedOut;
  }

  @Override
  public void close() throws IOException {
    if (result != null) {
      result.close();
    }
    if (unweighted != null) {
      for (WritableColumnVector raw : unweighted) {
        if (raw != null) {
          raw.close();
        }
      }
    }
    buffers.release();
    for (DecodeBuffers own : variableBuffers) {
      if (own != null) {
        own.release();
      }
    }
    store.close();
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return TaskReadMetrics.of(store, decodeNanos);
  }
}
