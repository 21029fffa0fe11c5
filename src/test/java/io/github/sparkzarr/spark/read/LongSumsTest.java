package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.function.LongUnaryOperator;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * {@link LaneSums#sumLongs} and {@link LaneSums#sumPlanes}, SIMD and scalar: int64 elements stored
 * one after the other (with and without a filter's marks) or in blosc's byte planes, and int32 and
 * uint32 in byte planes. Whenever they answer, the answer is the exact sum; whenever the exact sum
 * leaves a long, they decline, so the caller's checked loop fails.
 */
class LongSumsTest {
  private static final DataType I8 = DataType.numeric(DataType.Kind.INT, 8, ByteOrder.LITTLE_ENDIAN);
  private static final LaneSums[] KERNELS = {new VectorLaneSums(), new ScalarLaneSums()};
  private static final int OFFSET = 3;

  /** Element k at {@code OFFSET + 8k}, or byte j of element k at {@code OFFSET + j * n + k} when shuffled. */
  private static NumericChunk chunk(long[] values, boolean shuffled) {
    return chunk(values, shuffled, null);
  }

  /** {@link #chunk(long[], boolean)} with the masking of {@code cf}. */
  private static NumericChunk chunk(long[] values, boolean shuffled, CfDecoding cf) {
    int n = values.length;
    ByteBuffer b = ByteBuffer.allocate(OFFSET + 8 * n).order(ByteOrder.LITTLE_ENDIAN);
    for (int k = 0; k < n; k++) {
      if (shuffled) {
        for (int j = 0; j < 8; j++) {
          b.put(OFFSET + j * n + k, (byte) (values[k] >>> (8 * j)));
        }
      } else {
        b.putLong(OFFSET + 8 * k, values[k]);
      }
    }
    return new NumericChunk(b.array(), OFFSET, shuffled ? n : 0, 0, I8, cf);
  }

  private static long[] values(int n, Random r, LongUnaryOperator shape) {
    long[] v = new long[n];
    for (int k = 0; k < n; k++) {
      v[k] = shape.applyAsLong(r.nextLong());
    }
    return v;
  }

  /** Checks every kernel on {@code [from, from + m)} of {@code v}: exact when it answers, declines when the sum leaves a long. */
  private static void check(long[] v, int from, int m, byte[] keep, boolean shuffled, String what) {
    BigInteger exact = BigInteger.ZERO;
    long dropped = 0;
    for (int k = from; k < from + m; k++) {
      if (keep != null && keep[k] == 0) {
        dropped++;
      } else {
        exact = exact.add(BigInteger.valueOf(v[k]));
      }
    }
    boolean fits = exact.bitLength() < 64;
    NumericChunk c = chunk(v, shuffled);
    for (LaneSums kernel : KERNELS) {
      long[] out = {-1, -1};
      boolean answered = shuffled ? kernel.sumPlanes(c, from, m, out) : kernel.sumLongs(c, from, m, keep, out);
      String which = what + " " + kernel.getClass().getSimpleName();
      if (!fits) {
        assertFalse(answered, which + ": the sum leaves a long");
      } else if (answered) {
        assertEquals(exact.longValueExact(), out[0], which);
        assertEquals(dropped, out[1], which);
      }
    }
  }

  @Test
  void sumsAreExactOrDeclinedForStoredAndShuffledElements() {
    Random r = new Random(11);
    int n = 3 * 4096 + 40;
    LongUnaryOperator[] shapes = {
        x -> x >> 40, // small, both signs
        x -> x >> 8, // about 2^55: sums of a few hundred leave a long
        x -> x, // any long
        x -> Math.abs(x >> 4), // large and positive: sums leave a long going up
        x -> -Math.abs(x >> 4)}; // and going down
    for (int s = 0; s < shapes.length; s++) {
      long[] v = values(n, r, shapes[s]);
      byte[] keep = new byte[n];
      for (int k = 0; k < n; k++) {
        keep[k] = (byte) (r.nextInt(3) == 0 ? 0 : 1);
      }
      for (int[] run : new int[][] {{0, 8}, {0, 64}, {16, 4096}, {8, n - 48}, {0, 8 * 600}}) {
        String what = "shape " + s + " run " + run[0] + "+" + run[1];
        check(v, run[0], run[1], null, false, what);
        check(v, run[0], run[1], keep, false, what + " kept");
      }
      // byte planes: any start and length (the SIMD loop takes 32 bytes of a plane at a time)
      for (int[] run : new int[][] {{0, n}, {5, 37}, {1, 4096 * 3}, {0, 31}}) {
        check(v, run[0], run[1], null, true, "shape " + s + " planes " + run[0] + "+" + run[1]);
      }
    }
  }

  /**
   * int64 with one masked value below 2^53 (a fill value stored in places): the lane kernels leave
   * it out of the sum and count it as left out, with and without a filter's marks, and the planes'
   * sum less the mask's matches gives the same, from any start.
   */
  @Test
  void maskedInt64IsLeftOutOfSumsAndCounts() {
    Random r = new Random(17);
    int n = 3 * 4096 + 40;
    for (long mask : new long[] {0, -9999, (1L << 53) - 1, -(1L << 53) + 1}) {
      long[] v = values(n, r, x -> x >> 20);
      byte[] keep = new byte[n];
      for (int k = 0; k < n; k++) {
        v[k] = r.nextInt(4) == 0 ? mask : v[k];
        keep[k] = (byte) (r.nextInt(3) == 0 ? 0 : 1);
      }
      CfDecoding cf = new CfDecoding(new double[] {mask}, false, 1, 0, false, true, null);
      NumericChunk plain = chunk(v, false, cf);
      NumericChunk planes = chunk(v, true, cf);
      for (int[] run : new int[][] {{0, 8}, {16, 4096}, {8, n - 48}, {3, 4101}}) {
        int from = run[0];
        int m = run[1];
        String what = "mask " + mask + " run " + from + "+" + m;
        long sum = 0;
        long count = 0;
        long keptSum = 0;
        long keptCount = 0;
        for (int k = from; k < from + m; k++) {
          if (v[k] != mask) {
            sum += v[k];
            count++;
            keptSum += keep[k] * v[k];
            keptCount += keep[k];
          }
        }
        if (m % 8 == 0) {
          for (LaneSums kernel : KERNELS) {
            String which = what + " " + kernel.getClass().getSimpleName();
            long[] out = new long[2];
            assertTrue(kernel.sumLongs(plain, from, m, null, out), which);
            assertEquals(sum, out[0], which);
            assertEquals(m - count, out[1], which);
            assertTrue(kernel.sumLongs(plain, from, m, keep, out), which);
            assertEquals(keptSum, out[0], which + " kept");
            assertEquals(m - keptCount, out[1], which + " kept");
          }
        }
        StoredIntegers stored = new StoredIntegers();
        for (NumericChunk c : new NumericChunk[] {plain, planes}) {
          String which = what + (c == planes ? " planes" : "");
          assertEquals(sum, stored.sum(c, from, m), which);
          assertEquals(count, stored.counted, which);
          assertEquals(count, stored.count(c, from, m), which);
        }
        assertEquals(keptSum, stored.sumKept(plain, from, m, keep), what + " kept");
        assertEquals(keptCount, stored.counted, what + " kept");
        assertEquals(keptCount, stored.countKept(plain, from, m, keep), what + " kept");
      }
    }
  }

  /**
   * Every element the mask (a chunk written but never filled): every lane matches at every step,
   * so a lane's count of matches reaches its limit before it is added up.
   */
  @Test
  void aChunkAllMaskedMatchesEverywhere() {
    int n = 3 * 255 * 32 + 45;
    long[] v = new long[n];
    java.util.Arrays.fill(v, -9999);
    CfDecoding cf = new CfDecoding(new double[] {-9999}, false, 1, 0, false, true, null);
    NumericChunk c = chunk(v, true, cf);
    for (LaneSums kernel : KERNELS) {
      assertEquals(n, kernel.planeMatches(c, 0, n, -9999), kernel.getClass().getSimpleName());
      assertEquals(n - 7, kernel.planeMatches(c, 7, n - 7, -9999), kernel.getClass().getSimpleName());
    }
    StoredIntegers stored = new StoredIntegers();
    assertEquals(0, stored.count(c, 0, n));
    assertEquals(0, stored.sum(c, 0, n));
    assertEquals(0, stored.counted);
  }

  /**
   * A mask of -2^52 stored 2,304 times in byte planes with 1,280 elements of 2^52: the planes' sum
   * (-2^62) fits a long, the masked values' total (-2^63 - 2^60) does not, the kept values' sum
   * (2^62 + 2^60) does, and is what the sum gives. A COUNT of kept elements whose sum leaves a long
   * still counts them.
   */
  @Test
  void maskedInt64SumsAreExactWhenTheMaskedTotalLeavesALong() {
    long mask = -(1L << 52);
    long[] v = new long[2304 + 1280];
    for (int k = 0; k < v.length; k++) {
      v[k] = k % 14 < 9 ? mask : 1L << 52; // 9 of every 14: 2,304 of 3,584
    }
    long masked = java.util.Arrays.stream(v).filter(x -> x == mask).count();
    assertEquals(2304, masked);
    CfDecoding cf = new CfDecoding(new double[] {mask}, false, 1, 0, false, true, null);
    StoredIntegers stored = new StoredIntegers();
    for (boolean shuffled : new boolean[] {true, false}) {
      NumericChunk c = chunk(v, shuffled, cf);
      assertEquals((1L << 62) + (1L << 60), stored.sum(c, 0, v.length), "shuffled=" + shuffled);
      assertEquals(1280, stored.counted, "shuffled=" + shuffled);
    }
    long[] big = new long[64];
    java.util.Arrays.fill(big, 1L << 62);
    big[5] = 7;
    byte[] keep = new byte[64];
    java.util.Arrays.fill(keep, (byte) 1);
    keep[9] = 0;
    NumericChunk c = chunk(big, false, new CfDecoding(new double[] {7}, false, 1, 0, false, true, null));
    assertEquals(62, stored.countKept(c, 0, 64, keep));
    assertEquals(63, stored.count(c, 0, 64));
    CountAccumulator count = new CountAccumulator(true);
    count.ensure(1);
    count.addKept(c, 0, 64, keep, 0);
    assertEquals(62, written(count));
  }

  /**
   * Runs long enough that the planes' 16-bit lanes must be flushed (128 rounds of 32 bytes), and
   * their int lanes too (a plane of over 512 KiB), every byte of the low six planes 0xFF; and every
   * top byte negative.
   */
  @Test
  void longRunsOfFullBytesSumExactlyByPlanes() {
    longRunOfFullBytes(3 * 4096 + 37, 0x0000_FFFF_FFFF_FFFFL, -1L, Long.MIN_VALUE / 16384, -0x0000_FFFF_FFFF_FFFFL);
    // the sums kept inside a long: five planes of 0xFF
    longRunOfFullBytes(1_100_003, 0x00FF_FFFF_FFFFL, -1L, Long.MIN_VALUE / (1 << 21), -0x00FF_FFFF_FFFFL);
  }

  private static void longRunOfFullBytes(int n, long... values) {
    for (long value : values) {
      long[] v = new long[n];
      java.util.Arrays.fill(v, value);
      NumericChunk c = chunk(v, true);
      for (LaneSums kernel : KERNELS) {
        long[] out = new long[2];
        assertTrue(kernel.sumPlanes(c, 0, n, out), kernel.getClass().getSimpleName());
        assertEquals(value * n, out[0], Long.toHexString(value) + " " + kernel.getClass().getSimpleName());
      }
    }
  }

  /** int32 and uint32 in byte planes (the top plane signed for int32 only), any start and length. */
  @Test
  void fourByteIntegersSumByPlanes() {
    Random r = new Random(5);
    int n = 3 * 4096 + 21;
    for (DataType.Kind kind : new DataType.Kind[] {DataType.Kind.INT, DataType.Kind.UINT}) {
      DataType t = DataType.numeric(kind, 4, ByteOrder.LITTLE_ENDIAN);
      int[] v = new int[n];
      for (int k = 0; k < n; k++) {
        v[k] = k % 5 == 0 ? (k % 2 == 0 ? -1 : Integer.MIN_VALUE) : r.nextInt();
      }
      byte[] bytes = new byte[OFFSET + 4 * n];
      for (int k = 0; k < n; k++) {
        for (int j = 0; j < 4; j++) {
          bytes[OFFSET + j * n + k] = (byte) (v[k] >>> (8 * j));
        }
      }
      NumericChunk c = new NumericChunk(bytes, OFFSET, n, 0, t, null);
      for (int[] run : new int[][] {{0, n}, {7, 33}, {100, 4096 * 2 + 5}, {0, 31}}) {
        long exact = 0;
        for (int k = run[0]; k < run[0] + run[1]; k++) {
          exact += kind == DataType.Kind.UINT ? v[k] & 0xFFFFFFFFL : v[k];
        }
        for (LaneSums kernel : KERNELS) {
          long[] out = new long[2];
          String what = kind + " " + run[0] + "+" + run[1] + " " + kernel.getClass().getSimpleName();
          assertTrue(kernel.sumPlanes(c, run[0], run[1], out), what);
          assertEquals(exact, out[0], what);
        }
      }
      // a masked value (-1, the fill): its matches in the planes counted, and taken off the planes' sum
      NumericChunk masked = new NumericChunk(bytes, OFFSET, n, 0, t,
          new io.github.sparkzarr.spark.schema.CfDecoding(new double[] {kind == DataType.Kind.UINT ? 0xFFFFFFFFL : -1},
              false, 1, 0, false, false, null));
      long kept = 0;
      long count = 0;
      for (int k = 0; k < n; k++) {
        if (v[k] != -1) {
          kept += kind == DataType.Kind.UINT ? v[k] & 0xFFFFFFFFL : v[k];
          count++;
        }
      }
      StoredIntegers stored = new StoredIntegers();
      assertEquals(kept, stored.sum(masked, 0, n), kind + " masked");
      assertEquals(count, stored.counted, kind + " masked");
      assertEquals(count, stored.count(masked, 0, n), kind + " masked");
      long minima = java.util.Arrays.stream(v).filter(x -> x == Integer.MIN_VALUE).count();
      for (LaneSums kernel : KERNELS) {
        String what = kind + " " + kernel.getClass().getSimpleName();
        assertEquals(n - count, kernel.planeMatches(c, 0, n, kind == DataType.Kind.UINT ? 0xFFFFFFFFL : -1), what);
        long low = kind == DataType.Kind.UINT ? 0x80000000L : Integer.MIN_VALUE;
        assertEquals(minima, kernel.planeMatches(c, 0, n, low), what);
        // runs from inside a step of 32, shorter than one, and ending in the scalar tail
        for (int[] run : new int[][] {{7, 33}, {0, 31}, {100, 4096 * 2 + 5}}) {
          long expected = 0;
          for (int k = run[0]; k < run[0] + run[1]; k++) {
            expected += v[k] == -1 ? 1 : 0;
          }
          assertEquals(expected, kernel.planeMatches(c, run[0], run[1], kind == DataType.Kind.UINT ? 0xFFFFFFFFL : -1),
              what + " " + run[0] + "+" + run[1]);
        }
      }
      // a masked value the type cannot hold (-1 for uint32) matches nothing, not the element 0xFFFFFFFF
      if (kind == DataType.Kind.UINT) {
        NumericChunk outside = new NumericChunk(bytes, OFFSET, n, 0, t,
            new io.github.sparkzarr.spark.schema.CfDecoding(new double[] {-1}, false, 1, 0, false, false, null));
        long all = 0;
        for (int x : v) {
          all += x & 0xFFFFFFFFL;
        }
        assertEquals(all, stored.sum(outside, 0, n), "uint32 masking -1");
        assertEquals(n, stored.count(outside, 0, n), "uint32 masking -1");
      }
    }
  }

  private static long written(Accumulator a) {
    OnHeapColumnVector out = new OnHeapColumnVector(1, DataTypes.LongType);
    a.write(out, 0, 1);
    return out.getLong(0);
  }

  /**
   * Four times 2^62 wraps to 0; summed in lanes or by planes it is declined, and the accumulator's
   * checked loop then fails, whichever way the elements are stored.
   */
  @Test
  void anOverflowIsNeverAWrappedTotal() {
    long q = 1L << 62;
    long[] v = new long[64];
    for (int k = 0; k < 4; k++) {
      v[8 * k] = q;
    }
    for (boolean shuffled : new boolean[] {false, true}) {
      for (LaneSums kernel : KERNELS) {
        NumericChunk c = chunk(v, shuffled);
        assertFalse(shuffled ? kernel.sumPlanes(c, 0, 64, new long[2]) : kernel.sumLongs(c, 0, 64, null, new long[2]));
      }
      IntSumAccumulator sum = new IntSumAccumulator();
      sum.ensure(1);
      NumericChunk c = chunk(v, shuffled);
      assertThrows(ArithmeticException.class, () -> sum.add(c, 0, 64, 0), "shuffled=" + shuffled);
      byte[] keep = new byte[64];
      java.util.Arrays.fill(keep, (byte) 1);
      if (!shuffled) {
        assertThrows(ArithmeticException.class, () -> sum.addKept(c, 0, 64, keep, 0));
        keep[16] = 0;
        keep[24] = 0; // two of 2^62 left: 2^63 still leaves a long
        assertThrows(ArithmeticException.class, () -> sum.addKept(c, 0, 64, keep, 0));
        keep[8] = 0;
        IntSumAccumulator kept = new IntSumAccumulator();
        kept.ensure(1);
        kept.addKept(c, 0, 64, keep, 0);
        assertEquals(q, written(kept));
        // COUNT(v) of the kept elements counts by the marks: it never fails for a sum's overflow
        CountAccumulator count = new CountAccumulator(true);
        count.ensure(1);
        java.util.Arrays.fill(keep, (byte) 1);
        keep[3] = 0;
        count.addKept(c, 0, 64, keep, 0);
        assertEquals(63, written(count));
      }
    }
  }
}
