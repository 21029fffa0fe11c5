package io.github.sparkzarr.spark.read;

import java.util.Arrays;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * SUM of a float32 or float64 variable, or of integers unpacked by CF scaling: each value widened to
 * double, missing values skipped, null when a group has no value.
 *
 * <p>Values are added into eight interleaved partial sums per group (element {@code i} of the
 * decoded chunk into lane {@code i % 8}), joined at the end. One running sum would wait on the
 * latency of every addition; eight keep the CPU's adders busy, and the result is no less accurate
 * (numpy sums in interleaved lanes for the same reason). {@link LaneSums} runs the lanes as SIMD
 * vectors when the JVM has the Vector API. The order is fixed by the data alone, so
 * the same query on the same store gives the same bits, however the chunk was cut into pieces.
 *
 * <p>When every element goes to another group (the last dimension is grouped on: a time-mean
 * map), lanes would not be filled, and eight sums per group only multiply the memory the groups'
 * sums sweep: such a sum keeps one lane per group, adding in row order.
 *
 * <p>Pieces of the chunk are added a segment at a time without looking for missing values; only a
 * segment that turns a lane into NaN, when NaN means missing, is added again element by element
 * from the lanes as they were, so the common case of no missing value costs no test per element.
 */
final class SumAccumulator implements RowAccumulator {
  private static final int LANES = LaneSums.LANES;
  /** Elements per segment: small enough to redo while still in cache. */
  private static final int SEGMENT = 4096;
  private final LaneSums kernels = LaneSums.best();
  /** Partial sums per group: LANES, or 1 when elements are added one per group. */
  private final int width;
  private double[] sums = new double[0];
  private long[] counts = new long[0];
  private final double[] saved = new double[LANES];
  private final StoredIntegers stored = new StoredIntegers();
  /** Applied to each value before it is added ({@code SUM(v - 273.15)}), or null. */
  private final ValueTransform transform;

  SumAccumulator() {
    this(null, false);
  }

  /** @param elementwise whether consecutive elements go to different groups ({@link #addEach}) */
  SumAccumulator(ValueTransform transform, boolean elementwise) {
    this.transform = transform;
    this.width = elementwise ? 1 : LANES;
  }

  @Override
  public void ensure(int slots) {
    if (slots > counts.length) {
      int capacity = Accumulator.grow(counts.length, slots);
      sums = Arrays.copyOf(sums, capacity * width);
      counts = Arrays.copyOf(counts, capacity);
    }
  }

  @Override
  public void add(NumericChunk chunk, int from, int n, int slot) {
    if (width == 1) {
      for (int i = from; i < from + n; i++) {
        addChecked(chunk, i, slot, slot);
      }
      return;
    }
    if (chunk.unpacks && chunk.storedIntegersReadable() && transform == null) {
      stored.addUnpacked(chunk, from, n, sums, slot * LANES);
      counts[slot] += stored.counted;
      return;
    }
    int end = from + n;
    int lanes = slot * LANES;
    int i = from;
    for (; i < end && lane(chunk, i) != 0; i++) {
      addChecked(chunk, i, slot, lanes);
    }
    if (!chunk.unpacks && (!chunk.masksValues() || skipsOneFloat(chunk))) {
      int segmentsEnd = i + ((end - i) & -LANES);
      while (i < segmentsEnd) {
        int m = Math.min(SEGMENT, segmentsEnd - i);
        addSegment(chunk, i, m, slot, lanes);
        i += m;
      }
    }
    for (; i < end; i++) {
      addChecked(chunk, i, slot, lanes);
    }
  }

  /** Each element into its lane of its own slot, as {@link #add} would one at a time. */
  @Override
  public void addEach(NumericChunk chunk, int from, int n, int[] slotOf, int group, int stride) {
    if (transform == null && !chunk.unpacks && chunk.plane == 0 && chunk.layout.isFloat()
        && chunk.maskedValueCount() <= 1) {
      addEachFloat(chunk, from, n, slotOf, group, stride);
      return;
    }
    for (int j = 0; j < n; j++) {
      int slot = slotOf[group + j * stride];
      addChecked(chunk, from + j, slot, slot * width);
    }
  }

  /**
   * {@link #addEach} of stored floats with at most one masked value besides NaN, the layout and the
   * mask decided once rather than per element (about 1.4x less time, one slot per three elements).
   */
  private void addEachFloat(NumericChunk chunk, int from, int n, int[] slotOf, int group, int stride) {
    boolean f32 = chunk.layout == NumericChunk.Layout.FLOAT32;
    double skip = chunk.masksValues() ? chunk.maskedValue(0) : Double.NaN; // NaN equals nothing
    boolean keepsNaN = !chunk.maskNaN;
    int laneMask = width - 1;
    for (int i = from, g = group; i < from + n; i++, g += stride) {
      double v = f32 ? chunk.floatAt(i) : chunk.doubleAt(i);
      if ((v == v || keepsNaN) && v != skip) {
        int slot = slotOf[g];
        sums[slot * width + ((chunk.first + i) & laneMask)] += v;
        counts[slot]++;
      }
    }
  }

  /**
   * Element {@code j} into slot {@code slot + j}: with one sum per group, a float layout and only
   * NaN to skip, added a vector at a time without tests, then redone element by element if a
   * sum turned NaN (as {@link #add} does with its segments); packed integers a block of stored
   * values at a time. Same order per group, same bits.
   */
  @Override
  public void addRow(NumericChunk chunk, int from, int n, int slot) {
    if (width == 1 && transform == null && chunk.unpacks && chunk.storedIntegersReadable()) {
      addUnpackedRow(chunk, from, n, null, slot);
      return;
    }
    int m = n & -LANES;
    if (width != 1 || transform != null || chunk.unpacks || chunk.maskedValueCount() > 1 || chunk.plane != 0
        || (chunk.layout != NumericChunk.Layout.FLOAT32 && chunk.layout != NumericChunk.Layout.FLOAT64)) {
      m = 0;
    }
    if (m > 0 && (chunk.masksValues() || chunk.maskNaN)) {
      // counted in the same pass: a row's sums are a pass over memory as long as its adds
      double skip = chunk.masksValues() ? chunk.maskedValue(0) : Double.NaN; // NaN equals nothing
      kernels.addRowSkipping(chunk, from, m, null, sums, counts, slot, skip, chunk.maskNaN);
    } else if (m > 0) {
      kernels.addRow(chunk, from, m, sums, slot);
      for (int j = 0; j < m; j++) {
        counts[slot + j]++;
      }
    }
    for (int j = m; j < n; j++) {
      addChecked(chunk, from + j, slot + j, (slot + j) * width);
    }
  }

  /**
   * One sum per group, untransformed: floats with at most one masked value besides NaN, and packed
   * integers with at most one: see {@link #addRowKept}.
   */
  @Override
  public boolean addsRowKept(NumericChunk chunk) {
    if (width != 1 || transform != null) {
      return false;
    }
    return chunk.unpacks ? chunk.storedIntegersReadable()
        : chunk.plane == 0 && chunk.layout.isFloat() && chunk.maskedValueCount() <= 1;
  }

  /**
   * Floats in SIMD lanes, the dropped and missing elements added as -0.0 and not counted; packed
   * integers a widened block at a time.
   */
  @Override
  public void addRowKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    if (chunk.unpacks) {
      addUnpackedRow(chunk, from, n, keep, slot);
      return;
    }
    int m = n & -LANES;
    double skip = chunk.masksValues() ? chunk.maskedValue(0) : Double.NaN; // NaN equals nothing
    kernels.addRowSkipping(chunk, from, m, keep, sums, counts, slot, skip, chunk.maskNaN);
    for (int j = m; j < n; j++) {
      if (keep[from + j] != 0) {
        addChecked(chunk, from + j, slot + j, slot + j);
      }
    }
  }

  /**
   * Element {@code j}, unpacked, into slot {@code slot + j} unless it stores the skipped value or
   * {@code keep} (unless null) marks it 0.
   */
  private void addUnpackedRow(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    if (keep == null && chunk.plane == 0 && chunk.elementSize() <= 2) {
      int m = n & -LANES;
      kernels.addUnpackedRow(chunk, from, m, sums, counts, slot);
      from += m;
      n -= m;
      slot += m;
    }
    boolean skips = chunk.skipsOneValue;
    long skip = chunk.skippedValue;
    for (int start = 0; start < n; start += StoredIntegers.BLOCK) {
      int m = Math.min(StoredIntegers.BLOCK, n - start);
      long[] v = stored.widened(chunk, from + start, m);
      int s = slot + start;
      for (int k = 0; k < m; k++) {
        if ((!skips || v[k] != skip) && (keep == null || keep[from + start + k] != 0)) {
          sums[s + k] += chunk.unpack(v[k]);
          counts[s + k]++;
        }
      }
    }
  }

  private int lane(NumericChunk chunk, int i) {
    return (chunk.first + i) & (width - 1);
  }

  /**
   * Adds element {@code i} to its lane unless it is missing (decided on the stored value when
   * the chunk unpacks integers).
   */
  private void addChecked(NumericChunk chunk, int i, int slot, int lanes) {
    double v = chunk.floatingAt(i);
    boolean missing = chunk.unpacks ? chunk.isMissing(i)
        : v != v ? chunk.maskNaN : chunk.masksValues() && chunk.isMaskedValue(v);
    if (missing) {
      return;
    }
    sums[lanes + lane(chunk, i)] += transform == null ? v : transform.apply(v);
    counts[slot]++;
  }

  /**
   * Whether the lane kernels can skip the missing values of a float chunk themselves: one masked
   * value besides NaN (a fill value such as netCDF's 9.97e36 or CMIP's 1e20), no transform.
   */
  private boolean skipsOneFloat(NumericChunk chunk) {
    return chunk.layout.isFloat() && chunk.maskedValueCount() == 1 && transform == null;
  }

  /**
   * Adds {@code m} elements (a multiple of 8) from {@code i} (lane 0), when only NaN, or NaN and
   * one value the kernels skip, can be missing. A masked value is skipped by the kernels. A
   * segment whose sum turns NaN when NaN is missing is added again, skipping NaN: by the kernels
   * too without a transform, else element by element. Clean segments, the common case, pay no test.
   */
  private void addSegment(NumericChunk chunk, int i, int m, int slot, int lanes) {
    if (chunk.masksValues()) {
      counts[slot] += m - kernels.addSkipping(chunk, i, m, null, sums, lanes, chunk.maskedValue(0), chunk.maskNaN);
      return;
    }
    System.arraycopy(sums, lanes, saved, 0, LANES);
    if (transform == null) {
      kernels.add(chunk, i, m, sums, lanes);
    } else {
      kernels.addTransformed(chunk, i, m, sums, lanes, transform);
    }
    if (!chunk.maskNaN || !LaneSums.anyNaN(sums, lanes)) {
      counts[slot] += m;
      return;
    }
    System.arraycopy(saved, 0, sums, lanes, LANES);
    if (transform == null) {
      counts[slot] += m - kernels.addSkipping(chunk, i, m, null, sums, lanes, Double.NaN, true);
    } else {
      for (int k = i; k < i + m; k++) {
        addChecked(chunk, k, slot, lanes);
      }
    }
  }

  /**
   * Float elements with at most one masked value besides NaN, untransformed, in lanes: see {@link
   * #addKept}.
   */
  @Override
  public boolean addsKept(NumericChunk chunk) {
    return width == LANES && transform == null && !chunk.unpacks && chunk.layout.isFloat()
        && chunk.maskedValueCount() <= 1;
  }

  /**
   * The kept elements into their lanes, the dropped ones as -0.0 by the kernels, so nothing is
   * gathered: the same lanes whatever the filter kept, and no copy of the kept values.
   */
  @Override
  public void addKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    int end = from + n;
    int lanes = slot * LANES;
    int i = from;
    for (; i < end && lane(chunk, i) != 0; i++) {
      addIfKept(chunk, i, keep, slot, lanes);
    }
    int m = (end - i) & -LANES;
    if (m > 0) {
      double skip = chunk.masksValues() ? chunk.maskedValue(0) : Double.NaN; // NaN equals nothing
      counts[slot] += m - kernels.addSkipping(chunk, i, m, keep, sums, lanes, skip, chunk.maskNaN);
      i += m;
    }
    for (; i < end; i++) {
      addIfKept(chunk, i, keep, slot, lanes);
    }
  }

  private void addIfKept(NumericChunk chunk, int i, byte[] keep, int slot, int lanes) {
    if (keep[i] != 0) {
      addChecked(chunk, i, slot, lanes);
    }
  }

  /** How many values slot {@code s} has summed (missing values skipped). */
  long count(int s) {
    return counts[s];
  }

  @Override
  public void write(WritableColumnVector out, int from, int count) {
    for (int r = 0; r < count; r++) {
      int s = from + r;
      if (counts[s] == 0) {
        out.putNull(r);
        continue;
      }
      int lanes = s * width;
      double total = 0;
      for (int k = 0; k < width; k++) {
        total += sums[lanes + k];
      }
      out.putDouble(r, total);
    }
  }
}
