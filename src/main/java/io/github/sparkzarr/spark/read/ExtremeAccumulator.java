package io.github.sparkzarr.spark.read;

import java.util.Arrays;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * MIN or MAX of a numeric variable (integers packed by CF scaling compared unpacked), with Spark's ordering of floating-point values: NaN is larger
 * than every number, so MAX is NaN as soon as one value is, and MIN is NaN only when all are.
 * Runs are reduced in SIMD lanes ({@link LaneExtremes}) when at most one value besides NaN is
 * masked; a run whose extreme is a zero is redone element by element, since the lanes give 0.0 for
 * MAX and -0.0 for MIN where Spark keeps the first of the two. Rows of a map (one slot per element) are
 * compared in SIMD lanes too, slot by slot, keeping the first of equal values as the element loop.
 */
final class ExtremeAccumulator implements RowAccumulator {
  private final boolean max;
  /** What every value beats: the smallest long for MAX, the largest for MIN. */
  private final long identity;
  private final DataType resultType;
  private double[] floating = new double[0];
  /** Whether a slot may hold a NaN value, not empty (only {@link #addFloating} writes one). */
  private boolean mayHoldNaN;
  private long[] integral = new long[0];
  private boolean[] seen = new boolean[0];
  /** SIMD runs of floating-point elements, or null to test every element. */
  private final LaneExtremes kernels;
  private final int[] nans = new int[2];
  /** The smallest and the largest of a run, from the kernel. */
  private final double[] both = new double[2];
  private final StoredIntegers stored = new StoredIntegers();

  /** Applied to each slot's extreme when written (an increasing one: see {@link ValueTransform}), or null. */
  private final ValueTransform transform;

  ExtremeAccumulator(boolean max, DataType resultType) {
    this(max, resultType, LaneExtremes.best());
  }

  ExtremeAccumulator(boolean max, DataType resultType, LaneExtremes kernels) {
    this(max, resultType, kernels, null);
  }

  ExtremeAccumulator(boolean max, DataType resultType, LaneExtremes kernels, ValueTransform transform) {
    if (transform != null && !transform.increasing()) {
      throw new IllegalArgumentException("MIN and MAX of " + transform.describe("v") + " are not those of v");
    }
    this.max = max;
    this.identity = max ? Long.MIN_VALUE : Long.MAX_VALUE;
    this.resultType = resultType;
    this.kernels = kernels;
    this.transform = transform;
  }

  @Override
  public void ensure(int slots) {
    if (slots > seen.length) {
      int capacity = Accumulator.grow(seen.length, slots);
      int old = floating.length;
      floating = Arrays.copyOf(floating, capacity);
      Arrays.fill(floating, old, capacity, Double.NaN); // empty, for the row kernel
      integral = Arrays.copyOf(integral, capacity);
      Arrays.fill(integral, old, capacity, identity); // empty, for the integer row kernel
      seen = Arrays.copyOf(seen, capacity);
    }
  }

  @Override
  public void add(NumericChunk chunk, int from, int n, int slot) {
    if (chunk.storedIntegersReadable()) {
      addStored(chunk, from, n, slot);
      return;
    }
    int whole = laneElements(chunk, n);
    if (whole > 0) {
      nans[0] = 0;
      nans[1] = 0;
      kernels.extremes(chunk, from, whole, skipOf(chunk), null, both, nans);
      addLaneExtreme(chunk, from, whole, null, both[max ? 1 : 0], nans, slot);
    }
    addElements(chunk, from + whole, from + n, slot);
  }

  /**
   * How many of a run's {@code n} elements {@link #add} hands to the SIMD kernel: a multiple of
   * {@link LaneExtremes#LANES} for floats (not packed) with at most one masked value, else 0.
   */
  int laneElements(NumericChunk chunk, int n) {
    return takesFloats(chunk) ? n - n % LaneExtremes.LANES : 0;
  }

  /** The SIMD kernels, or null to test every element. */
  LaneExtremes kernels() {
    return kernels;
  }

  /** The masked value the SIMD kernel leaves out besides NaN, or NaN for none. */
  static double skipOf(NumericChunk chunk) {
    return chunk.masksValues() ? chunk.maskedValue(0) : Double.NaN;
  }

  /**
   * The kernel's extreme of the {@code whole} elements from {@code from} (those {@code keep} marks,
   * unless it is null), which left out {@code left[0]} NaN and {@code left[1]} others. A zero
   * extreme is found again element by element: lanes give 0.0 for MAX and -0.0 for MIN of the
   * two zeros, where Spark, which holds them equal, keeps the first.
   */
  void addLaneExtreme(NumericChunk chunk, int from, int whole, byte[] keep, double extreme, int[] left, int slot) {
    if (extreme == 0.0 && left[0] + left[1] < whole) {
      if (keep == null) {
        addElements(chunk, from, from + whole, slot);
      } else {
        addKeptElements(chunk, from, from + whole, keep, slot);
      }
      return;
    }
    if (left[0] + left[1] < whole) {
      addFloating(extreme, slot);
    }
    if (left[0] > 0 && !chunk.maskNaN) {
      addFloating(Double.NaN, slot); // a value here: Spark orders it above every number
    }
  }

  /** With the SIMD kernels, which gather a byte-shuffled block's elements a vector at a time. */
  @Override
  public boolean addsIntegerPlanes() {
    return kernels != null;
  }

  /** Stored integers and floats the SIMD kernels take, in their lanes: see {@link #addKept}. */
  @Override
  public boolean addsKept(NumericChunk chunk) {
    return kernels != null && (LaneExtremes.takesStored(chunk) || takesFloats(chunk));
  }

  /** Whether the SIMD kernel takes runs of {@code chunk}: floats (not packed), at most one masked value. */
  private boolean takesFloats(NumericChunk chunk) {
    return kernels != null && !chunk.storedIntegersReadable() && chunk.maskedValueCount() <= 1 && chunk.floating()
        && !chunk.unpacks;
  }

  @Override
  public void addKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    if (chunk.storedIntegersReadable()) {
      int taken = storedLaneElements(chunk, n);
      kernels.storedIntegerExtremes(chunk, from, taken, keep, storedExtremes);
      addStoredExtremes(chunk, storedExtremes, slot);
      addKeptElements(chunk, from + taken, from + n, keep, slot);
      return;
    }
    int whole = laneElements(chunk, n);
    nans[0] = 0;
    nans[1] = 0;
    kernels.extremes(chunk, from, whole, skipOf(chunk), keep, both, nans);
    addLaneExtreme(chunk, from, whole, keep, both[max ? 1 : 0], nans, slot);
    addKeptElements(chunk, from + whole, from + n, keep, slot);
  }

  /** Elements {@code [i, end)} one by one, those with {@code keep[i]} 1. */
  void addKeptElements(NumericChunk chunk, int i, int end, byte[] keep, int slot) {
    boolean floats = chunk.floating();
    for (; i < end; i++) {
      if (keep[i] != 0 && !chunk.isMissing(i)) {
        if (floats) {
          addFloating(chunk.floatingAt(i), slot);
        } else {
          addStoredValue(chunk, chunk.integralAt(i), slot);
        }
      }
    }
  }

  /** Elements {@code [i, end)} one by one. */
  void addElements(NumericChunk chunk, int i, int end, int slot) {
    boolean floats = chunk.floating();
    for (; i < end; i++) {
      if (chunk.isMissing(i)) {
        continue;
      }
      if (floats) {
        addFloating(chunk.floatingAt(i), slot);
      } else {
        addIntegral(chunk.integralAt(i), slot);
      }
    }
  }

  /**
   * The extreme of stored integers in SIMD lanes: int32 and int64 with nothing masked by this
   * side's kernel alone ({@link LaneExtremes#integralExtreme}, also from blosc's shuffled planes),
   * others by both sides' kernel; what no kernel takes, a block at a time ({@link
   * StoredIntegers}). Unpacking keeps or reverses their order, so a packed variable's extreme is
   * that of its stored integers, unpacked.
   */
  private void addStored(NumericChunk chunk, int from, int n, int slot) {
    int taken = unfilteredStoredLaneElements(chunk, n);
    if (taken > 0) {
      kernels.storedIntegerExtremes(chunk, from, taken, null, storedExtremes);
      addStoredExtremes(chunk, storedExtremes, slot);
      from += taken;
      n -= taken;
    }
    boolean storedMax = max != chunk.unpackReversesOrder();
    int i = from;
    int whole = n - n % LaneExtremes.LANES;
    if (kernels != null && !chunk.masksValues() && whole > 0 && chunk.layout.hasLanes()) {
      addStoredValue(chunk, kernels.integralExtreme(chunk, from, whole, storedMax), slot);
      i += whole;
    }
    long rest = stored.extreme(chunk, i, from + n - i, storedMax);
    if (stored.counted > 0) {
      addStoredValue(chunk, rest, slot);
    }
  }

  private final long[] storedExtremes = new long[LaneExtremes.STORED_OUT];

  /**
   * How many of a run's {@code n} elements {@link LaneExtremes#storedIntegerExtremes} takes: a
   * multiple of its lanes for integers it reads ({@link LaneExtremes#takesStored}); else 0.
   */
  int storedLaneElements(NumericChunk chunk, int n) {
    return kernels != null && LaneExtremes.takesStored(chunk) ? n - n % LaneExtremes.STORED_LANES : 0;
  }

  /**
   * {@link #storedLaneElements}, and 4- and 8-byte integers from byte planes too, except for int32
   * and int64 with nothing masked, whose one-sided kernel ({@link LaneExtremes#integralExtreme},
   * a min or max per vector) is faster than both sides leaving a mask out (0.05 against 0.16 ns
   * per int32 element on JDK 17), so MIN and MAX each take their own pass.
   */
  int unfilteredStoredLaneElements(NumericChunk chunk, int n) {
    boolean taken = kernels != null && LaneExtremes.takesStoredUnfiltered(chunk)
        && !(chunk.layout.hasLanes() && !chunk.masksValues());
    return taken ? n - n % LaneExtremes.STORED_LANES : 0;
  }

  /** The stored minimum and maximum of {@link LaneExtremes#storedIntegerExtremes}: this side's, unpacked. */
  void addStoredExtremes(NumericChunk chunk, long[] extremes, int slot) {
    if (extremes[2] > 0) {
      addStoredValue(chunk, extremes[max != chunk.unpackReversesOrder() ? 1 : 0], slot);
    }
  }

  private void addStoredValue(NumericChunk chunk, long v, int slot) {
    if (chunk.unpacks) {
      addFloating(chunk.unpack(v), slot);
    } else {
      addIntegral(v, slot);
    }
  }

  /** Whether {@link #addEach} takes {@code chunk}'s elements a block of stored integers at a time. */
  static boolean readsStoredEach(NumericChunk chunk) {
    return chunk.storedIntegersReadable() && !chunk.unpacks;
  }

  /** Each element against its own slot's extreme, as {@link #add} compares single elements. */
  @Override
  public void addEach(NumericChunk chunk, int from, int n, int[] slotOf, int group, int stride) {
    if (readsStoredEach(chunk)) {
      addEachStored(chunk, from, n, slotOf, group, stride, null);
      return;
    }
    for (int j = 0; j < n; j++) {
      addElement(chunk, from + j, slotOf[group + j * stride]);
    }
  }

  /**
   * {@link #addEach} of stored integers, a widened block at a time, with no branch on the values: a
   * masked value (a third of genotype calls, at random) is replaced by each side's identity and
   * leaves its slot unseen, and the comparison is a max or min, not a jump. {@code other}, if not
   * null, is the opposite side of a pair ({@link ExtremePair}), fed from the same block.
   */
  void addEachStored(NumericChunk chunk, int from, int n, int[] slotOf, int group, int stride,
      ExtremeAccumulator other) {
    boolean skips = chunk.skipsOneValue;
    long skip = chunk.skippedValue;
    for (int start = 0; start < n; start += StoredIntegers.BLOCK) {
      int m = Math.min(StoredIntegers.BLOCK, n - start);
      long[] v = stored.widened(chunk, from + start, m);
      for (int k = 0, g = group + start * stride; k < m; k++, g += stride) {
        int s = slotOf[g];
        long kept = skips ? StoredIntegers.keptMask(v[k], skip) : -1;
        update(s, v[k], kept);
        if (other != null) {
          other.update(s, v[k], kept);
        }
      }
    }
  }

  /** Slot {@code s} takes {@code value} unless {@code kept} is 0 (then it keeps its extreme and state). */
  private void update(int s, long value, long kept) {
    long candidate = value & kept | identity & ~kept;
    long current = seen[s] ? integral[s] : identity;
    integral[s] = max ? Math.max(current, candidate) : Math.min(current, candidate);
    seen[s] |= kept != 0;
  }

  /**
   * A row into consecutive slots: in SIMD lanes when the row is floating point with at most one
   * masked value besides NaN ({@link #addLaneRow}); stored integers of up to 32 bits in SIMD lanes
   * too, the rest a widened block at a time ({@link #addRowStored}); else element by element as
   * {@link #addEach}. Same results either way.
   */
  @Override
  public void addRow(NumericChunk chunk, int from, int n, int slot) {
    if (readsStoredEach(chunk)) {
      addRowStored(chunk, from, n, null, slot);
      return;
    }
    int m = rowInLanes(chunk) ? addLaneRow(chunk, from, n, null, slot) : 0;
    for (int j = m; j < n; j++) {
      addElement(chunk, from + j, slot + j);
    }
  }

  /**
   * Every chunk: stored integers by blocks, what {@link #rowInLanes} takes in lanes, the rest
   * element by element in one loop (floats with several masked values, say), not a call per element.
   */
  @Override
  public boolean addsRowKept(NumericChunk chunk) {
    return chunk != null;
  }

  /**
   * Floats with at most one value masked besides NaN, and packed 1- and 2-byte integers with at
   * most one masked value: what the SIMD row kernel takes.
   */
  private boolean rowInLanes(NumericChunk chunk) {
    if (kernels == null || chunk.plane != 0) {
      return false;
    }
    return chunk.unpacks ? chunk.layout.isSmallInteger() && chunk.storedIntegersReadable()
        : chunk.layout.isFloat() && chunk.maskedValueCount() <= 1;
  }

  @Override
  public void addRowKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    if (readsStoredEach(chunk)) {
      addRowStored(chunk, from, n, keep, slot);
      return;
    }
    for (int j = rowInLanes(chunk) ? addLaneRow(chunk, from, n, keep, slot) : 0; j < n; j++) {
      if (keep[from + j] != 0) {
        addElement(chunk, from + j, slot + j);
      }
    }
  }

  /**
   * Stored integers {@code [from, from + n)} into slots {@code slot + j}: the whole vectors of a row
   * of integers of up to 32 bits through {@link LaneExtremes#integerRow}, the rest a widened block
   * at a time with no branch on the values, as {@link #addEachStored}: the masked ones, and those
   * {@code keep} marks 0 (unless it is null), leave their slots as they were.
   */
  private void addRowStored(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    boolean skips = chunk.skipsOneValue;
    long skip = chunk.skippedValue;
    int lanes = kernels != null && chunk.plane == 0 && LaneExtremes.takesIntegerRow(chunk) ? n & -LaneExtremes.LANES : 0;
    if (lanes > 0 && (kernels.integerRow(chunk, from, lanes, keep, max, integral, slot) & LaneExtremes.ROW_FILLED) != 0) {
      // an empty slot holds the identity, which no integer of these layouts is
      for (int s = slot; s < slot + lanes; s++) {
        seen[s] |= integral[s] != identity;
      }
    }
    for (int start = lanes; start < n; start += StoredIntegers.BLOCK) {
      int m = Math.min(StoredIntegers.BLOCK, n - start);
      long[] v = stored.widened(chunk, from + start, m);
      for (int k = 0; k < m; k++) {
        long kept = skips ? StoredIntegers.keptMask(v[k], skip) : -1;
        if (keep != null) {
          kept &= -(long) keep[from + start + k]; // a mark is 0 or 1
        }
        update(slot + start + k, v[k], kept);
      }
    }
  }

  /**
   * The row kernel over the whole vectors of a row (the kept elements, unless {@code keep} is
   * null); returns how many it took. The kernel leaves NaN out and takes an empty slot (NaN) for
   * any number; where NaN is a value (no NaN fill value), the NaN elements are then added as the
   * element loop adds them (Spark orders NaN above every number), and a MAX row whose slots already
   * hold a NaN value, which the kernel would take for empty, goes to the element loop instead.
   */
  private int addLaneRow(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    int m = n & -LaneExtremes.LANES;
    boolean nanIsValue = !chunk.unpacks && !chunk.maskNaN;
    if (nanIsValue && max && mayHoldNaN && holdsNaN(slot, m)) {
      return 0;
    }
    // packed values come out of the kernel's widening already NaN where masked
    double skip = !chunk.unpacks && chunk.masksValues() ? chunk.maskedValue(0) : Double.NaN;
    int found = kernels.row(chunk, from, m, keep, max, skip, floating, slot);
    if ((found & LaneExtremes.ROW_FILLED) != 0) {
      // a scalar loop, 3 times the kernel's time in a filtered map: only when a slot was filled
      for (int s = slot; s < slot + m; s++) {
        seen[s] |= floating[s] == floating[s];
      }
    }
    if (nanIsValue && (found & LaneExtremes.ROW_NAN) != 0) {
      for (int j = 0; j < m; j++) {
        double v = chunk.floatingAt(from + j);
        if (v != v && (keep == null || keep[from + j] != 0)) {
          addFloating(v, slot + j);
        }
      }
    }
    return m;
  }

  /** Whether any of slots {@code [slot, slot + m)} holds a NaN value (not an empty slot). */
  private boolean holdsNaN(int slot, int m) {
    for (int s = slot; s < slot + m; s++) {
      if (seen[s] && floating[s] != floating[s]) {
        return true;
      }
    }
    return false;
  }

  private void addElement(NumericChunk chunk, int i, int slot) {
    if (chunk.isMissing(i)) {
      return;
    }
    if (chunk.floating()) {
      addFloating(chunk.floatingAt(i), slot);
    } else {
      addIntegral(chunk.integralAt(i), slot);
    }
  }

  private void addFloating(double v, int slot) {
    mayHoldNaN |= v != v;
    if (!seen[slot]) {
      floating[slot] = v;
      seen[slot] = true;
      return;
    }
    double best = floating[slot];
    boolean better = max ? best == best && (v != v || v > best) : v < best || (best != best && v == v);
    if (better) {
      floating[slot] = v;
    }
  }

  private void addIntegral(long v, int slot) {
    if (!seen[slot] || (max ? v > integral[slot] : v < integral[slot])) {
      integral[slot] = v;
      seen[slot] = true;
    }
  }

  @Override
  public void write(WritableColumnVector out, int from, int count) {
    for (int r = 0; r < count; r++) {
      int s = from + r;
      if (!seen[s]) {
        out.putNull(r);
      } else if (resultType.equals(DataTypes.FloatType)) {
        out.putFloat(r, (float) floating[s]);
      } else if (resultType.equals(DataTypes.DoubleType)) {
        out.putDouble(r, transform == null ? floating[s] : transform.apply(floating[s]));
      } else if (resultType.equals(DataTypes.IntegerType)) {
        out.putInt(r, (int) integral[s]);
      } else if (resultType.equals(DataTypes.ShortType)) {
        out.putShort(r, (short) integral[s]);
      } else if (resultType.equals(DataTypes.ByteType)) {
        out.putByte(r, (byte) integral[s]);
      } else {
        out.putLong(r, integral[s]);
      }
    }
  }
}
