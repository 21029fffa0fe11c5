package io.github.sparkzarr.spark.read;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The rows of a chunk read in place that are missing (null). When only NaN means missing, the
 * chunk is summed a segment at a time in SIMD lanes ({@link LaneSums}) and only a segment whose
 * sum is NaN is tested element by element, so a chunk without missing values costs a fast pass.
 * When one value means missing (a fill value; NaN too for floats), each element is compared with
 * it in a loop of its own layout; anything else is decided element by element by the chunk's CF
 * rule.
 */
final class MissingRows {
  private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

  /** Elements per segment: small enough to test again while still in cache. */
  private static final int SEGMENT = 4096;
  private static final LaneSums KERNELS = LaneSums.best();

  /** Missing rows, or null when none is. */
  final boolean[] missing;
  final int count;

  private MissingRows(boolean[] missing, int count) {
    this.missing = missing;
    this.count = count;
  }

  /** The missing rows among the first {@code rows} elements of {@code chunk}. */
  static MissingRows of(NumericChunk chunk, int rows) {
    Finder f = new Finder(chunk, rows);
    boolean onlyNaN = chunk.layout.isFloat() && chunk.maskNaN && !chunk.masksValues();
    if (chunk.plane == 0 && chunk.skipsOneValue) {
      f.testInteger(chunk.skippedValue);
    } else if (chunk.plane == 0 && chunk.layout.isFloat() && chunk.maskedValueCount() == 1) {
      f.testFloat(chunk.maskedValue(0));
    } else if (!onlyNaN) {
      f.test(0, rows);
    } else {
      double[] sums = new double[LaneSums.LANES];
      int whole = rows - rows % LaneSums.LANES;
      for (int i = 0; i < whole; i += SEGMENT) {
        int m = Math.min(SEGMENT, whole - i);
        java.util.Arrays.fill(sums, 0);
        KERNELS.add(chunk, i, m, sums, 0);
        if (LaneSums.anyNaN(sums, 0)) { // NaN somewhere, or infinities of both signs
          f.test(i, i + m);
        }
      }
      f.test(whole, rows);
    }
    return new MissingRows(f.missing, f.count);
  }

  /** Tests elements one by one and remembers the missing ones. */
  private static final class Finder {
    private final NumericChunk chunk;
    private final int rows;
    private boolean[] missing;
    private int count;

    Finder(NumericChunk chunk, int rows) {
      this.chunk = chunk;
      this.rows = rows;
    }

    void test(int from, int to) {
      for (int i = from; i < to; i++) {
        if (chunk.isMissing(i)) {
          mark(i);
        }
      }
    }

    /** Integers, missing where they store {@code v}. */
    void testInteger(long v) {
      byte[] b = chunk.bytes;
      int o = chunk.offset;
      switch (chunk.layout) {
        case INT8, UINT8 -> {
          int mask = chunk.layout == NumericChunk.Layout.UINT8 ? 0xFF : -1;
          for (int i = 0; i < rows; i++) {
            if ((b[o + i] & mask) == v) {
              mark(i);
            }
          }
        }
        case INT16, UINT16 -> {
          int mask = chunk.layout == NumericChunk.Layout.UINT16 ? 0xFFFF : -1;
          for (int i = 0; i < rows; i++) {
            if (((short) SHORT.get(b, o + 2 * i) & mask) == v) {
              mark(i);
            }
          }
        }
        case INT32, UINT32 -> {
          long mask = chunk.layout == NumericChunk.Layout.UINT32 ? 0xFFFFFFFFL : -1L;
          for (int i = 0; i < rows; i++) {
            if (((int) INT.get(b, o + 4 * i) & mask) == v) {
              mark(i);
            }
          }
        }
        case INT64 -> {
          for (int i = 0; i < rows; i++) {
            if ((long) LONG.get(b, o + 8 * i) == v) {
              mark(i);
            }
          }
        }
        default -> test(0, rows);
      }
    }

    /** Floats missing where they equal {@code m} as doubles (CF's rule), or are NaN if NaN is masked. */
    void testFloat(double m) {
      byte[] b = chunk.bytes;
      int o = chunk.offset;
      boolean nan = chunk.maskNaN;
      if (chunk.layout == NumericChunk.Layout.FLOAT32) {
        float fm = (float) m;
        boolean held = fm == m; // else no float32 equals m
        for (int i = 0; i < rows; i++) {
          float x = (float) FLOAT.get(b, o + 4 * i);
          if (x != x ? nan : held && x == fm) {
            mark(i);
          }
        }
      } else {
        for (int i = 0; i < rows; i++) {
          double x = (double) DOUBLE.get(b, o + 8 * i);
          if (x != x ? nan : x == m) {
            mark(i);
          }
        }
      }
    }

    private void mark(int i) {
      if (missing == null) {
        missing = new boolean[rows];
      }
      missing[i] = true;
      count++;
    }
  }
}
