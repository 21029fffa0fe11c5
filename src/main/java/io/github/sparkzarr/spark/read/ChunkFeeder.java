package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.codec.BlockSink;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.HalfFloat;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Adds the elements of one variable over a partition's box of one chunk to the accumulators of
 * the calls on that variable, in row order, from pieces of the decoded chunk handed out in order
 * (blosc blocks while they are still in cache, or the whole chunk as one piece). A cursor over the
 * box's runs (rows along the last dimension, or longer where the box is contiguous) carries over
 * from one piece to the next, so a run split by a block boundary is added in two parts, and every
 * accumulator sees its elements in the same order as from the whole chunk. A run whose elements
 * do not step through group cells evenly (a short dimension after a grouped one) carries a table of
 * each element's slot. float16 pieces are widened to float32 before they are added.
 */
final class ChunkFeeder implements BlockSink {
  /**
   * Runs shorter than this cost more per run than per element: they are lengthened by a table.
   * Through a table each element costs a scattered add (a float SUM and COUNT: about 8 ns an
   * element, whatever the run); a call per run about 3 ns an element from 16 elements on, and as
   * much as the table at 8 (docs/benchmarks-history.md, session 38).
   */
  static final int SHORT_RUN = 16;
  /** A table run is lengthened up to this many elements, where the box allows. */
  private static final int TABLE_TARGET = 1024;
  /** No table holds more elements than this. */
  private static final int TABLE_MAX = 1 << 15;

  /** The type float16 elements are widened to before they are added. */
  static final DataType FLOAT32 = DataType.numeric(DataType.Kind.FLOAT, 4, ByteOrder.LITTLE_ENDIAN);
  private final DataType type;
  /** The type of the elements handed to the accumulators: float32 for float16 data, else {@link #type}. */
  private final DataType chunkType;
  /** Where float16 pieces are widened to float32; null for other types. */
  private DecodeBuffers widening;
  private final CfDecoding cf;
  private final int elementSize;
  private final boolean fuseShuffle;
  private final Accumulator[] accumulators;
  private final int[] len;
  /** Element strides of the decoded data (the chunk's shape, or the box's for a region read). */
  private final long[] strides;
  private final int[] slotOf;
  /** Which runs of cells have consecutive slots: the reader's, known from earlier chunks. */
  private final ConsecutiveRuns runs;
  /** Where the box's first element is in the decoded data (a filter's box may start inside a chunk). */
  private final long origin;
  private final int[] groupDims;
  private final int[] groupStride;
  /** The slot step between neighbours along the last dimension; 0 when it is not grouped on. */
  private final int lastStride;
  /**
   * For runs made long by a table: the group cell offset of each element of a run from the run's
   * own cell; null when runs move by {@link #lastStride} per element.
   */
  private final int[] cellOffsets;
  /** The slot of each element of the current run, when {@link #cellOffsets} is set. */
  private final int[] runSlots;
  /** The group {@link #runSlots} holds the slots of; -1 before the first. */
  private int slotsGroup = -1;
  private final int run;
  private final int[] idx;
  /** {@link #integersByPlanes()}, decided once. */
  private final boolean integersByPlanes;
  /** The current run: its first element, its group, how much of it has been added. */
  private int base;
  private int group;
  private int done;
  private boolean finished;
  private long nanos;
  /** For {@link #feedKept}: which elements of the box a filter kept, and where they are gathered. */
  private byte[] keep;
  /** Whether every accumulator adds the kept elements by their marks ({@link Accumulator#addsKept}). */
  private boolean addsByMarks;
  /** Whether every accumulator adds rows of kept elements by their marks ({@link RowAccumulator#addsRowKept}). */
  private boolean addsRowsByMarks;
  private DecodeBuffers keptScratch;
  private TouchedSlots touched;

  /**
   * @param type the variable's memory type (null when the accumulators read no data: COUNT(*))
   * @param fuseShuffle whether to read byte-shuffled blocks without un-shuffling them first
   * @param origin the element index of the box's first element in the decoded data
   * @param runs what is known of the runs of cells with consecutive slots, shared with the
   *     feeders of other chunks of the same reader
   */
  ChunkFeeder(DataType type, CfDecoding cf, boolean fuseShuffle, Accumulator[] accumulators,
      int[] len, long[] strides, long origin, int[] groupDims, int[] slotOf, ConsecutiveRuns runs) {
    this.type = type;
    this.chunkType = type != null && NumericChunk.isHalf(type) ? FLOAT32 : type;
    this.cf = cf;
    this.elementSize = type == null ? 1 : type.size();
    this.fuseShuffle = fuseShuffle;
    this.accumulators = accumulators;
    this.len = len;
    this.strides = strides;
    this.slotOf = slotOf;
    this.runs = runs;
    this.origin = origin;
    this.groupDims = groupDims;
    int rank = len.length;
    groupStride = new int[groupDims.length];
    for (int k = groupDims.length - 1, s = 1; k >= 0; s *= len[groupDims[k]], k--) {
      groupStride[k] = s;
    }
    long[] cellStep = cellSteps(rank, groupDims, groupStride);
    lastStride = rank == 0 ? 0 : (int) cellStep[rank - 1];
    int first = runStart(len, strides, cellStep);
    int tableFirst = product(len, first) < SHORT_RUN ? tableStart(len, strides, first) : first;
    cellOffsets = tableFirst < first ? cellOffsets(len, cellStep, tableFirst) : null;
    runSlots = cellOffsets == null ? null : new int[cellOffsets.length];
    run = product(len, tableFirst);
    idx = new int[tableFirst];
    integersByPlanes = integersByPlanes(); // once here: asked again for every blosc block
    startRun();
  }

  /** The number of elements in dimensions {@code [first, rank)} of the box. */
  private static int product(int[] len, int first) {
    int r = 1;
    for (int d = first; d < len.length; d++) {
      r *= len[d];
    }
    return r;
  }

  /**
   * The first dimension of a run lengthened by a table of cell offsets (GROUP BY samples over
   * variants x samples x ploidy: runs of two elements become one of samples x ploidy, each pair
   * to the next cell): dimensions before {@code first} while the box covers whole rows of them,
   * until the run is long enough or the table would grow too big.
   */
  private static int tableStart(int[] len, long[] strides, int first) {
    long r = product(len, first);
    while (first > 0 && r < TABLE_TARGET && strides[first - 1] == len[first] * strides[first]
        && r * len[first - 1] <= TABLE_MAX) {
      first--;
      r *= len[first];
    }
    return first;
  }

  /** Each element's cell offset from the first's, over dimensions {@code [first, rank)} in C order. */
  private static int[] cellOffsets(int[] len, long[] cellStep, int first) {
    int[] offsets = new int[product(len, first)];
    int size = 1;
    for (int d = len.length - 1; d >= first; d--) {
      for (int i = 1; i < len[d]; i++) {
        for (int j = 0; j < size; j++) {
          offsets[i * size + j] = offsets[j] + (int) (i * cellStep[d]);
        }
      }
      size *= len[d];
    }
    return offsets;
  }

  /**
   * The first dimension of a run: the last one, and the ones before it while the box covers whole
   * rows of the decoded data and the run's group cell still moves by the same step per element:
   * dimensions not grouped on while the last one is not either (every element of the run goes to
   * one cell), or grouped on right after it in the same order (a map grouped by lat, lon over a
   * whole chunk: one run of lat x lon elements, each to the next cell). A contiguous box is then
   * added in a few long runs rather than one per row.
   */
  private static int runStart(int[] len, long[] strides, long[] cellStep) {
    int first = Math.max(0, len.length - 1);
    while (first > 0 && strides[first - 1] == len[first] * strides[first]
        && cellStep[first - 1] == len[first] * cellStep[first]) {
      first--;
    }
    return first;
  }

  /** How far one step along each dimension moves the group cell (0 for a dimension not grouped on). */
  private static long[] cellSteps(int rank, int[] groupDims, int[] groupStride) {
    long[] step = new long[rank];
    for (int k = 0; k < groupDims.length; k++) {
      if (groupDims[k] < rank) {
        step[groupDims[k]] += groupStride[k];
      }
    }
    return step;
  }

  /**
   * Makes a feeder of float16 data widen each piece to float32 in {@code buffers} first, so that
   * the accumulators take their float32 paths; required before the first piece for float16.
   */
  ChunkFeeder widenHalfFloats(DecodeBuffers buffers) {
    widening = buffers;
    return this;
  }

  /** {@code n} float16 elements from {@code bytes[offset]}, widened to float32 in scratch buffer 8 of {@code buffers}. */
  static byte[] widened(byte[] bytes, int offset, int n, DecodeBuffers buffers) {
    byte[] out = buffers.get(8, 4 * n);
    HalfFloat.widen(bytes, offset, n, out);
    return out;
  }

  @Override
  public void block(byte[] buffer, int offset, int start, int length) {
    long t0 = System.nanoTime();
    int first = start / elementSize;
    int n = length / elementSize;
    if (chunkType != type) {
      buffer = widened(buffer, offset, n, widening);
      offset = 0;
    }
    feed(new NumericChunk(buffer, offset, 0, first, chunkType, cf), first, first + n);
    nanos += System.nanoTime() - t0;
  }

  @Override
  public boolean readsByteShuffled(int typeSize) {
    // Elements added one by one (a grouped last dimension) read faster from un-shuffled bytes, and
    // so do integers, which sums widen a block at a time from un-shuffled bytes but would gather
    // element by element from the planes (an int64 sum took 1.4x the time of Spark summing rows),
    // except 4- and 8-byte integers only summed, counted and compared, which add each plane's bytes
    // (and count a masked value's matches there) or gather a vector of elements at a time.
    return fuseShuffle && lastStride == 0 && cellOffsets == null && typeSize == elementSize && (typeSize == 4 || typeSize == 8)
        && (type.kind() == DataType.Kind.FLOAT || integersByPlanes);
  }

  /** Runs shorter than this are summed faster un-shuffled (each plane's sum ends with a reduction). */
  private static final int PLANE_RUN = 1024;

  /**
   * Whether the elements are int32, uint32 or int64 with their stored values (no scale or time; at
   * most one masked value, {@link NumericChunk#skipsOneValue}), in runs long enough to sum each
   * byte plane as it is ({@link LaneSums#sumPlanes}), for aggregates that all read the planes
   * ({@link Accumulator#addsIntegerPlanes}: sums, counts, and minima and maxima in SIMD lanes).
   */
  private boolean integersByPlanes() {
    if (type == null) {
      return false;
    }
    boolean integers = type.kind() == DataType.Kind.INT || type.kind() == DataType.Kind.UINT && type.size() == 4;
    boolean stored = cf == null || cf.time() == null && !cf.scaled()
        && new NumericChunk(new byte[0], type, cf).storedIntegersReadable();
    return integers && stored && run >= PLANE_RUN
        && Arrays.stream(accumulators).allMatch(Accumulator::addsIntegerPlanes);
  }

  @Override
  public void byteShuffledBlock(byte[] buffer, int offset, int start, int length, int typeSize) {
    long t0 = System.nanoTime();
    int first = start / elementSize;
    int n = length / elementSize;
    feed(new NumericChunk(buffer, offset, n, first, type, cf), first, first + n);
    nanos += System.nanoTime() - t0;
  }

  /** Adds every element of the box with no data to read (COUNT(*)). */
  void countAll() {
    feed(null, 0, Integer.MAX_VALUE);
  }

  /**
   * Adds the box's elements that a filter on values kept ({@code keep[i]} 1 for element i of the box
   * in C order; all when {@code keep} is null). {@code data} holds the whole box, element i at
   * index i (the feeder's strides are the box's and its origin 0), already widened from float16;
   * null for COUNT(*). The kept elements of a run to one group are gathered first and added at
   * once, in {@code scratch}; runs through several groups are added element by element. Marks in
   * {@code touched} the slots that kept elements were added to (with {@code keep} null, none: every
   * slot of the box is).
   */
  void feedKept(NumericChunk data, byte[] keep, DecodeBuffers scratch, TouchedSlots touched) {
    long t0 = System.nanoTime();
    this.keep = keep;
    this.addsByMarks = data != null && Arrays.stream(accumulators).allMatch(a -> a.addsKept(data));
    this.addsRowsByMarks = Arrays.stream(accumulators).allMatch(a -> a instanceof RowAccumulator r && r.addsRowKept(data));
    this.keptScratch = scratch;
    this.touched = touched;
    feed(data, 0, Integer.MAX_VALUE);
    nanos += System.nanoTime() - t0;
  }

  /** Adds the kept elements of the run {@code [at, at + n)} (of the current run, from element {@link #done}). */
  private void addKept(NumericChunk data, int at, int n) {
    if (cellOffsets == null && lastStride == 0 && addsByMarks) {
      // added in place by the marks: a gather costs more than the sum (random values keep few
      // blocks of eight whole)
      if (Marks.any(keep, at, n)) {
        touched.set(slotOf[group]);
        for (Accumulator a : accumulators) {
          a.addKept(data, at, n, keep, slotOf[group]);
        }
      }
      return;
    }
    if (cellOffsets == null && lastStride != 0 && addsRowsByMarks && consecutive(group + done * lastStride, n)) {
      // a row of a map, each element its own group: added by the marks a row at a time (SIMD
      // lanes, widened blocks), not one call per kept element
      int slot = slotOf[group + done * lastStride];
      touched.setKept(keep, at, n, slot);
      for (Accumulator a : accumulators) {
        ((RowAccumulator) a).addRowKept(data, at, n, keep, slot);
      }
      return;
    }
    if (cellOffsets == null && lastStride == 0) {
      NumericChunk.Kept kept = data == null ? null : data.gather(keep, at, n, keptScratch.get(9, n * data.elementSize()));
      int k = kept == null ? Marks.count(keep, at, n) : kept.count();
      if (k > 0) {
        touched.set(slotOf[group]);
        for (Accumulator a : accumulators) {
          a.add(kept == null ? null : kept.chunk(), 0, k, slotOf[group]);
        }
      }
      return;
    }
    for (int j = 0; j < n; j++) {
      if (keep[at + j] != 0) {
        int slot = cellOffsets != null ? runSlots[done + j] : slotOf[group + (done + j) * lastStride];
        touched.set(slot);
        for (Accumulator a : accumulators) {
          a.add(data, at + j, 1, slot);
        }
      }
    }
  }

  /** Time spent adding, to keep it out of the decode time. */
  long nanos() {
    return nanos;
  }

  /** Fails unless every element of the box was added: a piece of the chunk went missing. */
  void checkFinished() {
    if (!finished) {
      throw new IllegalStateException("the decoded chunk ended before element " + (base + done)
          + " of the box");
    }
  }

  private void startRun() {
    int g = 0;
    for (int k = 0; k < groupDims.length; k++) {
      if (groupDims[k] < idx.length) {
        g += idx[groupDims[k]] * groupStride[k];
      }
    }
    long b = origin;
    for (int d = 0; d < idx.length; d++) {
      b += idx[d] * strides[d];
    }
    group = g;
    base = (int) b;
    done = 0;
    if (cellOffsets != null && g != slotsGroup) {
      for (int j = 0; j < cellOffsets.length; j++) {
        runSlots[j] = slotOf[g + cellOffsets[j]];
      }
      slotsGroup = g;
    }
  }

  /**
   * Whether the {@code n} elements of a run from group {@code g} go to consecutive slots; found
   * once per group, since the chunk's other rows (other time steps) and the next chunks over the
   * same cells repeat it.
   */
  private boolean consecutive(int g, int n) {
    return runs.over(slotOf, lastStride).consecutive(g, n);
  }

  /** Adds the box's elements among {@code [first, end)}, the piece {@code data} holds. */
  private void feed(NumericChunk data, int first, int end) {
    while (!finished) {
      int from = base + done;
      if (from >= end) {
        return;
      }
      if (from < first) {
        throw new IllegalStateException("element " + from + " comes before the piece at " + first);
      }
      int n = Math.min(base + run, end) - from;
      if (keep != null) {
        addKept(data, from - first, n);
      } else if (cellOffsets != null) {
        for (Accumulator a : accumulators) {
          a.addEach(data, from - first, n, runSlots, done, 1);
        }
      } else if (lastStride == 0) {
        int slot = slotOf[group];
        for (Accumulator a : accumulators) {
          a.add(data, from - first, n, slot);
        }
      } else {
        int g = group + done * lastStride;
        boolean row = consecutive(g, n);
        for (Accumulator a : accumulators) {
          if (row && a instanceof RowAccumulator r) {
            r.addRow(data, from - first, n, slotOf[g]);
          } else {
            a.addEach(data, from - first, n, slotOf, g, lastStride);
          }
        }
      }
      done += n;
      if (done == run) {
        int d = idx.length - 1;
        while (d >= 0 && ++idx[d] == len[d]) {
          idx[d] = 0;
          d--;
        }
        if (d < 0) {
          finished = true;
          return;
        }
        startRun();
      }
    }
  }
}
