package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.read.NumericChunk.Layout;
import io.github.sparkzarr.zarr.dtype.LittleEndianIntegers;

/**
 * Runs of stored integers for aggregates, a block at a time: one tight loop per layout widens the
 * block to longs ({@link LittleEndianIntegers}), then SUM, MIN and MAX run one simple loop over them whatever the layout, where a
 * loop through {@link NumericChunk#integralAt} would decide the layout again for every element.
 * Missing values are skipped when they are one stored value ({@link NumericChunk#skipsOneValue});
 * callers test other masks element by element. Not thread-safe: one per accumulator.
 */
final class StoredIntegers {
  static final int BLOCK = 4096;

  private final long[] values = new long[BLOCK];
  private final LaneSums kernels = LaneSums.best();
  private final long[] small = new long[2];
  /** How many values the last {@link #sum} or {@link #extreme} took (missing ones skipped). */
  long counted;

  /**
   * The exact sum of elements {@code [from, from + n)}; int64 additions are checked, the others
   * cannot leave a long. Throws ArithmeticException on an overflow.
   */
  long sum(NumericChunk c, int from, int n) {
    boolean checked = c.layout == NumericChunk.Layout.INT64;
    long sum = 0;
    counted = 0;
    if (c.plane != 0 && kernels.sumPlanes(c, from, n, small)) {
      // a byte-shuffled block (4- and 8-byte integers): each plane's bytes summed as they are, the
      // masked ones (if any) then taken off
      long all = small[0];
      long masked = maskedInPlanes(c, from, n);
      try {
        long kept = Math.subtractExact(all, Math.multiplyExact(masked, c.skippedValue));
        counted = n - masked;
        return kept;
      } catch (ArithmeticException e) {
        // int64 only: the masked values' total left a long; the kept ones' sum may not, so
        // they are added one by one below, each addition checked
      }
    }
    if (storedInLanes(c)) {
      // 1-, 2- and 4-byte integers in SIMD lanes: the masked value left out there, not by passes
      // of its own (widened, then the masked ones dropped: 3x the time of a masked int32 sum)
      int m = n & -LaneSums.LANES;
      kernels.sumSmall(c, from, m, null, small);
      sum = small[0];
      counted = m - small[1];
      from += m;
      n -= m;
    } else if (checked && c.plane == 0) {
      // int64 in SIMD lanes, the masked value left out there, unless a lane's sum may have
      // overflowed: then one by one, checked
      int m = n & -LaneSums.LANES;
      if (kernels.sumLongs(c, from, m, null, small)) {
        sum = small[0];
        counted = m - small[1];
        from += m;
        n -= m;
      }
    }
    for (int start = from; start < from + n; start += BLOCK) {
      int kept = loadKept(c, start, Math.min(BLOCK, from + n - start));
      for (int k = 0; k < kept; k++) {
        sum = checked ? Math.addExact(sum, values[k]) : sum + values[k];
      }
      counted += kept;
    }
    return sum;
  }

  /**
   * As {@link #sum}, of the elements {@code k} of {@code [from, from + n)} a filter kept ({@code
   * keep[k]} 1) only, in SIMD lanes with no gather of the kept ones: integers stored one after the
   * other ({@link #sumsKept}). int64 additions are checked; throws ArithmeticException on an overflow.
   */
  long sumKept(NumericChunk c, int from, int n, byte[] keep) {
    int m = n & -LaneSums.LANES;
    if (c.layout != Layout.INT64) {
      kernels.sumSmall(c, from, m, keep, small);
    } else if (!kernels.sumLongs(c, from, m, keep, small)) {
      // a lane's sum may have overflowed: all of them one by one, each addition checked
      small[0] = 0;
      small[1] = 0;
      m = 0;
    }
    long sum = small[0];
    counted = m - small[1];
    for (int k = from + m; k < from + n; k++) {
      long v = c.integralAt(k);
      if (keep[k] != 0 && !(c.skipsOneValue && v == c.skippedValue)) {
        sum = Math.addExact(sum, v);
        counted++;
      }
    }
    return sum;
  }

  /**
   * How many of the elements {@code k} of {@code [from, from + n)} a filter kept ({@code keep[k]}
   * 1) are not missing, as {@link #sumKept} counts them, but never failing on a sum that leaves a
   * long (int64).
   */
  long countKept(NumericChunk c, int from, int n, byte[] keep) {
    if (c.layout != Layout.INT64) {
      sumKept(c, from, n, keep);
      return counted;
    }
    int m = n & -LaneSums.LANES;
    if (!kernels.sumLongs(c, from, m, keep, small)) {
      m = 0;
      small[1] = 0;
    }
    long count = m - small[1];
    for (int k = from + m; k < from + n; k++) {
      if (keep[k] != 0 && !(c.skipsOneValue && c.integralAt(k) == c.skippedValue)) {
        count++;
      }
    }
    return count;
  }

  /** How many of elements {@code [from, from + n)} of a byte-shuffled block store the masked value. */
  private long maskedInPlanes(NumericChunk c, int from, int n) {
    boolean masks = c.skipsOneValue && IntegerSelect.holds(c.layout, c.skippedValue);
    return masks ? kernels.planeMatches(c, from, n, c.skippedValue) : 0;
  }

  /** Whether {@link LaneSums#sumSmall} reads {@code c}: integers of up to 4 bytes one after the other. */
  private static boolean storedInLanes(NumericChunk c) {
    return (c.layout.isSmallInteger() || c.layout == Layout.INT32 || c.layout == Layout.UINT32)
        && c.plane == 0;
  }

  /** Whether {@link #sumKept} reads {@code c}. */
  static boolean sumsKept(NumericChunk c) {
    boolean layout = c.layout.isSmallInteger() || c.layout == Layout.INT32 || c.layout == Layout.UINT32
        || c.layout == Layout.INT64;
    return layout && c.plane == 0 && c.storedIntegersReadable();
  }

  /** How many of elements {@code [from, from + n)} are not missing. */
  long count(NumericChunk c, int from, int n) {
    if (!c.skipsOneValue) {
      return n;
    }
    if (c.plane != 0) {
      return n - maskedInPlanes(c, from, n);
    }
    long count = 0;
    int m = n & -LaneSums.LANES;
    if (storedInLanes(c)) {
      // the masked ones counted in SIMD lanes as a sum leaves them out
      kernels.sumSmall(c, from, m, null, small);
      count = m - small[1];
      from += m;
      n -= m;
    } else if (c.layout == Layout.INT64 && kernels.sumLongs(c, from, m, null, small)) {
      // likewise for int64, unless a lane's sum may have left a long: then a block at a time
      count = m - small[1];
      from += m;
      n -= m;
    }
    for (int start = from; start < from + n; start += BLOCK) {
      count += loadKept(c, start, Math.min(BLOCK, from + n - start));
    }
    return count;
  }

  /** The largest ({@code max}) or smallest of elements {@code [from, from + n)}; see {@link #counted}. */
  long extreme(NumericChunk c, int from, int n, boolean max) {
    long best = max ? Long.MIN_VALUE : Long.MAX_VALUE;
    counted = 0;
    for (int start = from; start < from + n; start += BLOCK) {
      int kept = loadKept(c, start, Math.min(BLOCK, from + n - start));
      for (int k = 0; k < kept; k++) {
        best = max ? Math.max(best, values[k]) : Math.min(best, values[k]);
      }
      counted += kept;
    }
    return best;
  }

  /**
   * Adds the unpacked values of elements {@code [from, from + n)} of a chunk that unpacks, element
   * {@code i} into lane {@code (first + i) % 8} at {@code sums[at]}, as the element loop would;
   * see {@link #counted}.
   */
  void addUnpacked(NumericChunk c, int from, int n, double[] sums, int at) {
    counted = 0;
    if (c.layout.isSmallInteger() && c.plane == 0) {
      // Packed 1- and 2-byte integers (int16 is ERA5's and much netCDF data's packing): the
      // elements before lane 0 one by one, then whole runs of the eight lanes in SIMD, then the
      // rest one by one.
      int head = Math.min(n, -(c.first + from) & (LaneSums.LANES - 1));
      addUnpackedBlocks(c, from, head, sums, at);
      int m = (n - head) & -LaneSums.LANES;
      counted += m - kernels.addUnpackedSmall(c, from + head, m, sums, at);
      from += head + m;
      n -= head + m;
    }
    addUnpackedBlocks(c, from, n, sums, at);
  }

  /** {@link #addUnpacked} a block of stored values at a time, adding to {@link #counted}. */
  private void addUnpackedBlocks(NumericChunk c, int from, int n, double[] sums, int at) {
    for (int start = from; start < from + n; start += BLOCK) {
      int m = Math.min(BLOCK, from + n - start);
      load(c, start, m);
      int lane = c.first + start;
      for (int k = 0; k < m; k++) {
        long raw = values[k];
        if (!c.skipsOneValue || raw != c.skippedValue) {
          sums[at + ((lane + k) & (LaneSums.LANES - 1))] += c.unpack(raw);
          counted++;
        }
      }
    }
  }

  /**
   * Elements {@code [start, start + m)} widened to longs ({@code m} at most {@link #BLOCK}), in
   * {@code [0, m)} of the array returned, which the next call reuses.
   */
  long[] widened(NumericChunk c, int start, int m) {
    load(c, start, m);
    return values;
  }

  /** Loads elements {@code [start, start + m)}; the ones not missing are then {@code values[0, k)}, k returned. */
  private int loadKept(NumericChunk c, int start, int m) {
    load(c, start, m);
    return c.skipsOneValue ? dropSkipped(m, c.skippedValue) : m;
  }

  /** Moves the values other than {@code skip} to the front of the block; returns how many. */
  private int dropSkipped(int m, long skip) {
    int kept = 0;
    for (int k = 0; k < m; k++) {
      long v = values[k];
      values[kept] = v;
      kept -= (int) keptMask(v, skip);
    }
    return kept;
  }

  /**
   * -1 (all bits) unless {@code v == skip}, then 0. Masked values come at random among the others
   * (a third of genotype calls): a branch or a conditional the JIT makes one would be mispredicted,
   * which took a scattered sum from 1.5 to 4 ns per element.
   */
  static long keptMask(long v, long skip) {
    long differs = v ^ skip;
    return (differs | -differs) >> 63;
  }

  /** Widens elements {@code [from, from + m)} to {@code values[0, m)}. */
  private void load(NumericChunk c, int from, int m) {
    byte[] b = c.bytes;
    long[] out = values;
    if (c.plane != 0) {
      for (int k = 0; k < m; k++) {
        out[k] = c.integralAt(from + k);
      }
      return;
    }
    int size = switch (c.layout) {
      case INT8, UINT8 -> 1;
      case INT16, UINT16 -> 2;
      case INT32, UINT32 -> 4;
      case INT64 -> 8;
      default -> throw new IllegalStateException("not an integer layout: " + c.layout);
    };
    boolean unsigned = c.layout == Layout.UINT8 || c.layout == Layout.UINT16 || c.layout == Layout.UINT32;
    LittleEndianIntegers.widen(b, c.offset + size * from, size, unsigned, m, out);
  }
}
