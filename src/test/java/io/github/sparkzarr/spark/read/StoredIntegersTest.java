package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.DoubleStream;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The block loops give what the element loop of {@link NumericChunk} gives, for every integer
 * layout: runs longer than a block and starting inside one, with nothing masked, one masked value
 * (skipped), two masked values (left to the element loop), and packed values unpacked into the
 * lanes of their element numbers.
 */
class StoredIntegersTest {
  private static final int N = 3 * StoredIntegers.BLOCK + 123;
  private static final int OFFSET = 5;

  @ParameterizedTest
  @CsvSource({"INT,1", "UINT,1", "INT,2", "UINT,2", "INT,4", "UINT,4", "INT,8"})
  void blockLoopsMatchTheElementLoop(String kind, int size) {
    DataType t = DataType.numeric(DataType.Kind.valueOf(kind), size, ByteOrder.LITTLE_ENDIAN);
    long skip = skippedValue(t);
    byte[] bytes = randomElements(t, skip, OFFSET, N);
    CfDecoding[] decodings = decodings(skip);
    CfDecoding twoMasked = decodings[2];
    for (CfDecoding cf : decodings) {
      NumericChunk c = new NumericChunk(bytes, OFFSET, 0, 9, t, cf);
      boolean readable = c.storedIntegersReadable();
      // One masked integer is skipped by the block loops (0.5 never matches an integer), int64's
      // too (below 2^53); two masked values are left to the element loop.
      boolean expected = cf == null || cf.masked().length == 0 || cf != twoMasked;
      assertEquals(expected, readable, t + " " + cf);
      if (!readable) {
        continue;
      }
      for (int from : new int[] {0, 17, StoredIntegers.BLOCK - 1}) {
        check(c, from, N - from - 3);
      }
    }
  }

  /**
   * int64 masks compare as doubles (CF's rule, as xarray does): one below 2^53 in magnitude is one
   * stored value, which the block loops skip; one of 2^53 or more also masks the int64 values that
   * round to it (2^53 + 1 rounds to 2^53), so the element loop decides, and the block loops
   * answer the same.
   */
  @org.junit.jupiter.api.Test
  void int64MasksFrom2To53OnMatchEveryValueRoundingToThem() {
    DataType t = DataType.numeric(DataType.Kind.INT, 8, ByteOrder.LITTLE_ENDIAN);
    long big = 1L << 53;
    long[] values = {big - 1, big, big + 1, big + 2, -big, -big - 1, -big + 1, 5, big - 1, big + 1};
    ByteBuffer b = ByteBuffer.allocate(8 * values.length).order(ByteOrder.LITTLE_ENDIAN);
    for (long v : values) {
      b.putLong(v);
    }
    // {mask, readable, how many of values it masks}
    double[][] cases = {{big - 1, 1, 2}, {-big + 1, 1, 1}, {big, 0, 3}, {-big, 0, 2}, {0x1p60, 0, 0}};
    for (double[] k : cases) {
      CfDecoding cf = new CfDecoding(new double[] {k[0]}, false, 1, 0, false, true, null);
      NumericChunk c = new NumericChunk(b.array(), 0, 0, 0, t, cf);
      String what = "mask " + (long) k[0];
      assertEquals(k[1] == 1, c.storedIntegersReadable(), what);
      long masked = 0;
      for (int i = 0; i < values.length; i++) {
        masked += c.isMissing(i) ? 1 : 0;
      }
      assertEquals((long) k[2], masked, what);
      if (c.storedIntegersReadable()) {
        check(c, 0, values.length);
      }
    }
  }

  /**
   * Sums of 1-, 2- and 4-byte integers over runs long enough for the SIMD kernel's int lanes to go
   * to the long several times, every element at the type's extreme, so that a lane held longer (or
   * an int32 lane not widened) would overflow; a masked value outside an int masks nothing (it
   * wraps to 0 as an int).
   */
  @ParameterizedTest
  @CsvSource({"UINT,2,65535", "INT,2,-32768", "INT,2,32767", "UINT,1,255", "INT,1,-128", "INT,1,127",
      "UINT,4,4294967295", "INT,4,-2147483648"})
  void longRunsOfExtremeSmallIntegersSumExactly(String kind, int size, long value) {
    DataType t = DataType.numeric(DataType.Kind.valueOf(kind), size, ByteOrder.LITTLE_ENDIAN);
    int n = 3 * (1 << 17) + 40;
    ByteBuffer b = ByteBuffer.allocate(n * size + 2).order(ByteOrder.LITTLE_ENDIAN);
    b.put((byte) 0);
    for (int k = 0; k < n; k++) {
      if (size == 1) {
        b.put((byte) (k % 1000 == 7 ? 0 : value));
      } else if (size == 4) {
        b.putInt((int) (k % 1000 == 7 ? 0 : value));
      } else {
        b.putShort((short) (k % 1000 == 7 ? 0 : value));
      }
    }
    long zeros = (n - 7 + 999) / 1000;
    CfDecoding outside = new CfDecoding(new double[] {0x1p40}, false, 1, 0, false, true, null);
    CfDecoding zero = new CfDecoding(new double[] {0}, false, 1, 0, false, true, null);
    for (CfDecoding cf : new CfDecoding[] {null, outside, zero}) {
      NumericChunk c = new NumericChunk(b.array(), 1, 0, 0, t, cf);
      StoredIntegers s = new StoredIntegers();
      assertEquals((n - zeros) * value, s.sum(c, 0, n), t + " " + cf);
      assertEquals(cf == zero ? n - zeros : n, s.counted, t + " " + cf);
    }
  }

  private static void check(NumericChunk c, int from, int n) {
    long sum = 0;
    long max = Long.MIN_VALUE;
    long min = Long.MAX_VALUE;
    long count = 0;
    double[] lanes = new double[8];
    for (int i = from; i < from + n; i++) {
      if (c.isMissing(i)) {
        continue;
      }
      long v = c.integralAt(i);
      sum += v;
      max = Math.max(max, v);
      min = Math.min(min, v);
      count++;
      lanes[(c.first + i) & 7] += c.unpacks ? c.floatingAt(i) : 0;
    }
    assertTrue(count > 0 && count < n || !c.masksValues(), "some values are skipped");
    StoredIntegers s = new StoredIntegers();
    String what = c.layout + " from " + from;
    assertEquals(sum, s.sum(c, from, n), what);
    assertEquals(count, s.counted, what);
    assertEquals(count, s.count(c, from, n), what);
    assertEquals(max, s.extreme(c, from, n, true), what);
    assertEquals(min, s.extreme(c, from, n, false), what);
    assertEquals(count, s.counted, what);
    if (c.unpacks) {
      double[] got = new double[10];
      s.addUnpacked(c, from, n, got, 1);
      assertArrayEquals(lanes, java.util.Arrays.copyOfRange(got, 1, 9), what);
      assertEquals(0.0, got[0]);
      assertEquals(count, s.counted, what);
    } else {
      assertFalse(c.floating());
    }
  }

  /**
   * The SIMD kernel for packed 1- and 2-byte integers gives the scalar one's bits and skipped
   * count, in float32 and double arithmetic, with and without a skipped value, from any offset:
   * runs of 8 lanes each added to sums that already hold values.
   */
  @ParameterizedTest
  @CsvSource({"INT,1", "UINT,1", "INT,2", "UINT,2"})
  void packedSmallIntegerKernelsGiveTheSameBits(String kind, int size) {
    DataType t = DataType.numeric(DataType.Kind.valueOf(kind), size, ByteOrder.LITTLE_ENDIAN);
    long skip = skippedValue(t);
    byte[] bytes = randomElements(t, skip, OFFSET, N);
    Random random = new Random(3);
    for (CfDecoding cf : decodings(skip)) {
      if (cf == null || !cf.scaled()) {
        continue;
      }
      NumericChunk c = new NumericChunk(bytes, OFFSET, 0, 0, t, cf);
      for (int round = 0; round < 50; round++) {
        int i = random.nextInt(N / 2);
        int m = 8 * random.nextInt((N - i) / 8);
        double[] start = new double[12];
        for (int k = 0; k < start.length; k++) {
          start[k] = random.nextGaussian() * 1e4;
        }
        double[] scalar = start.clone();
        double[] vector = start.clone();
        int skippedScalar = new ScalarLaneSums().addUnpackedSmall(c, i, m, scalar, 2);
        int skippedVector = new VectorLaneSums().addUnpackedSmall(c, i, m, vector, 2);
        String what = t + " " + cf + " at " + i + " for " + m;
        assertEquals(skippedScalar, skippedVector, what);
        assertTrue(skippedScalar > 0 || cf.masked().length == 0 || m < 200, what); // one in five is skip
        for (int k = 0; k < start.length; k++) {
          assertEquals(Double.doubleToLongBits(scalar[k]), Double.doubleToLongBits(vector[k]), what + " lane " + k);
        }
      }
    }
  }

  /**
   * Rows of integers, one element per slot (a time-mean map), packed or not: the SIMD kernels give
   * the scalar loops' sums and counts, bit for bit, with the masked value held by the layout or
   * outside it.
   */
  @ParameterizedTest
  @CsvSource({"INT,1", "UINT,1", "INT,2", "UINT,2", "INT,4"})
  void integerRowKernelsGiveTheSameBits(String kind, int size) {
    DataType t = DataType.numeric(DataType.Kind.valueOf(kind), size, ByteOrder.LITTLE_ENDIAN);
    long skip = skippedValue(t);
    byte[] bytes = randomElements(t, skip, OFFSET, N);
    Random random = new Random(4);
    List<CfDecoding> decodings = new ArrayList<>(Arrays.asList(decodings(skip)));
    long outside = 1L << 40; // no layout holds it
    decodings.add(new CfDecoding(new double[] {outside}, false, 1, 0, false, false, null));
    decodings.add(new CfDecoding(new double[] {outside}, false, 0.01, 273.15, true, true, null));
    for (CfDecoding cf : decodings) {
      NumericChunk c = new NumericChunk(bytes, OFFSET, 0, 0, t, cf);
      if (c.unpacks && size == 4) {
        continue; // packed int32 rows take the scalar loop
      }
      for (int round = 0; round < 30; round++) {
        int i = random.nextInt(N / 2);
        int m = 8 * random.nextInt((N - i) / 8);
        int at = 1 + random.nextInt(5);
        long[] start = new long[at + m + 3];
        long[] counts = new long[start.length];
        for (int k = 0; k < start.length; k++) {
          start[k] = c.unpacks ? Double.doubleToLongBits(random.nextGaussian() * 1e4) : random.nextInt();
          counts[k] = random.nextInt(100);
        }
        long[][] sums = {start.clone(), start.clone()};
        long[][] counted = {counts.clone(), counts.clone()};
        LaneSums[] kernels = {new ScalarLaneSums(), new VectorLaneSums()};
        for (int k = 0; k < 2; k++) {
          if (c.unpacks) {
            double[] d = LongStream.of(sums[k]).mapToDouble(Double::longBitsToDouble).toArray();
            kernels[k].addUnpackedRow(c, i, m, d, counted[k], at);
            sums[k] = DoubleStream.of(d).mapToLong(Double::doubleToLongBits).toArray();
          } else {
            kernels[k].addIntegerRow(c, i, m, sums[k], counted[k], at);
          }
        }
        String what = t + " " + cf + " at " + i + " for " + m;
        assertArrayEquals(sums[0], sums[1], what);
        assertArrayEquals(counted[0], counted[1], what);
        long added = LongStream.of(counted[0]).sum() - LongStream.of(counts).sum();
        if (!c.skipsOneValue || c.skippedValue == outside) { // nothing, or two values, or no value it holds
          assertEquals(m, added, what);
        } else {
          assertTrue(added < m || m < 200, what); // one in five is skip
        }
      }
    }
  }

  /** The value masked in {@link #decodings}: one the layout holds. */
  static long skippedValue(DataType t) {
    return t.kind() == DataType.Kind.UINT ? 7 : -3;
  }

  /**
   * Nothing masked; {@code skip} and a fraction masked (one integer to skip); {@code skip} and 11
   * masked (two values: the element loop); packed with {@code skip} masked (float32 arithmetic);
   * packed with a negative scale; packed in double arithmetic with {@code skip} masked.
   */
  static CfDecoding[] decodings(long skip) {
    return new CfDecoding[] {
        null,
        new CfDecoding(new double[] {skip, 0.5}, false, 1, 0, false, false, null),
        new CfDecoding(new double[] {skip, 11}, false, 1, 0, false, false, null),
        new CfDecoding(new double[] {skip}, false, 0.01, 273.15, true, true, null),
        new CfDecoding(new double[0], false, -0.25, 3, true, false, null),
        new CfDecoding(new double[] {skip}, false, 0.1, -7.5, true, false, null)};
  }

  /** {@code n} random elements after {@code offset} bytes, one in five the value {@code skip}. */
  static byte[] randomElements(DataType t, long skip, int offset, int n) {
    Random random = new Random(t.size() * 31L + t.kind().ordinal());
    ByteBuffer b = ByteBuffer.allocate(offset + n * t.size()).order(ByteOrder.LITTLE_ENDIAN);
    b.position(offset);
    for (int i = 0; i < n; i++) {
      long v = random.nextInt(5) == 0 ? skip : random.nextLong();
      switch (t.size()) {
        case 1 -> b.put((byte) v);
        case 2 -> b.putShort((short) v);
        case 4 -> b.putInt((int) v);
        default -> b.putLong(v == skip ? skip : v >> 20); // int64 sums stay inside a long
      }
    }
    return b.array();
  }
}
