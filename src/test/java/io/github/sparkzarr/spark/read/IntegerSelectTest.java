package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteOrder;
import java.util.Random;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A one-comparison filter on stored integers of 1 to 8 bytes marks, SIMD and scalar alike, exactly what the
 * three-valued evaluation keeps (signed and unsigned orders, the masked value never kept, literals
 * at the type's bounds, lengths that leave a tail after the last vector); and the sums, counts and
 * extremes of the kept elements, taken by their marks, are those of the kept elements one by one.
 */
class IntegerSelectTest {
  private static final int OFFSET = 5;

  @ParameterizedTest
  @CsvSource({"INT,1", "UINT,1", "INT,2", "UINT,2", "INT,4", "UINT,4", "INT,8"})
  void marksAreWhatTheFilterKeeps(String kind, int size) {
    DataType t = DataType.numeric(DataType.Kind.valueOf(kind), size, ByteOrder.LITTLE_ENDIAN);
    long skip = StoredIntegersTest.skippedValue(t);
    long low = kind.equals("UINT") ? 0 : size == 8 ? Long.MIN_VALUE : -(1L << (8 * size - 1));
    long high = kind.equals("UINT") ? (1L << (8 * size)) - 1 : size == 8 ? Long.MAX_VALUE : (1L << (8 * size - 1)) - 1;
    long[] literals = {low, high, skip, 0, 1, -1, 100, low + 1, high - 1};
    int checked = 0;
    for (int n : new int[] {1, 15, 16, 31, 33, 64, 203}) {
      byte[] bytes = StoredIntegersTest.randomElements(t, skip, OFFSET, n);
      for (CfDecoding cf : new CfDecoding[] {null, StoredIntegersTest.decodings(skip)[1]}) {
        NumericChunk chunk = new NumericChunk(bytes, OFFSET, 0, 0, t, cf);
        FilterValues[] source = {new ChunkFilterValues(chunk, DataTypes.LongType, new StoredIntegers())};
        for (int outcomes = 1; outcomes < 7; outcomes++) {
          for (long literal : literals) {
            // the direct loops take no int64 that masks values (NumericChunk skips none of them)
            if (!IntegerSelect.holds(chunk.layout, literal) || !chunk.storedIntegersReadable()) {
              continue;
            }
            ValueFilter.Comparison c = new ValueFilter.Comparison(0, outcomes, false, false, false, false, literal);
            byte[] expected = FloatSelectTest.viaStates(c, source, n);
            String what = t + " " + cf + " " + outcomes + " " + literal + " n=" + n;
            boolean skips = chunk.skipsOneValue;
            byte[] scalar = new byte[n];
            byte[] simd = new byte[n];
            int kept = new IntegerSelect.Scalar().select(chunk, n, outcomes, literal, skips, chunk.skippedValue, scalar);
            assertArrayEquals(expected, scalar, "scalar " + what);
            assertEquals(FloatSelectTest.count(expected), kept, what);
            assertEquals(kept, IntegerSelect.best().select(chunk, n, outcomes, literal, skips, chunk.skippedValue, simd));
            assertArrayEquals(expected, simd, IntegerSelect.best().getClass() + " " + what);
            byte[] viaFilter = new byte[n];
            assertEquals(kept, c.select(source, n, viaFilter, new ValueFilter.Scratch()), what);
            assertArrayEquals(expected, viaFilter, what);
            if (StoredIntegers.sumsKept(chunk)) {
              checkKeptSums(chunk, n, expected, what);
            }
            if (LaneExtremes.takesStored(chunk)) {
              for (int from : starts(n)) {
                int m = n - from;
                checkKeptExtremes(chunk, from, m - m % LaneExtremes.STORED_LANES, expected, what + " from " + from);
              }
            }
            checked++;
          }
        }
      }
    }
    assertTrue(checked > 100);
  }

  /** Holds only values of the layout's range. */
  @ParameterizedTest
  @CsvSource({"INT,1,-128,127", "UINT,1,0,255", "INT,2,-32768,32767", "UINT,2,0,65535", "INT,4,-2147483648,2147483647",
      "UINT,4,0,4294967295"})
  void literalsOutsideTheRangeAreNotHeld(String kind, int size, long low, long high) {
    DataType t = DataType.numeric(DataType.Kind.valueOf(kind), size, ByteOrder.LITTLE_ENDIAN);
    NumericChunk.Layout layout = new NumericChunk(new byte[8], t, null).layout;
    assertTrue(IntegerSelect.holds(layout, low) && IntegerSelect.holds(layout, high));
    assertTrue(!IntegerSelect.holds(layout, low - 1) && !IntegerSelect.holds(layout, high + 1));
  }

  /** Sums and counts of the kept elements by their marks, from several starts, as one by one. */
  private static void checkKeptSums(NumericChunk chunk, int n, byte[] keep, String what) {
    for (int from : starts(n)) {
      int m = n - from;
      long sum = 0;
      long count = 0;
      for (int i = from; i < from + m; i++) {
        if (keep[i] != 0 && !chunk.isMissing(i)) {
          sum += chunk.integralAt(i);
          count++;
        }
      }
      StoredIntegers stored = new StoredIntegers();
      assertEquals(sum, stored.sumKept(chunk, from, m, keep), what + " from " + from);
      assertEquals(count, stored.counted, what + " from " + from);
      int body = m & -LaneSums.LANES;
      long[] scalar = new long[2];
      long[] vector = new long[2];
      if (chunk.layout == NumericChunk.Layout.INT64) {
        assertTrue(new ScalarLaneSums().sumLongs(chunk, from, body, keep, scalar), what);
        assertTrue(new VectorLaneSums().sumLongs(chunk, from, body, keep, vector), what);
      } else {
        new ScalarLaneSums().sumSmall(chunk, from, body, keep, scalar);
        new VectorLaneSums().sumSmall(chunk, from, body, keep, vector);
      }
      assertArrayEquals(scalar, vector, what + " kernels from " + from);
    }
  }

  /** Where runs of {@code n} elements start: 0 and two random places. */
  private static int[] starts(int n) {
    Random random = new Random(n);
    return new int[] {0, random.nextInt(n), random.nextInt(n)};
  }

  /** The SIMD kernel's extremes of the kept elements, as one by one. */
  private static void checkKeptExtremes(NumericChunk chunk, int from, int m, byte[] keep, String what) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    long count = 0;
    for (int i = from; i < from + m; i++) {
      if (keep[i] != 0 && !chunk.isMissing(i)) {
        min = Math.min(min, chunk.integralAt(i));
        max = Math.max(max, chunk.integralAt(i));
        count++;
      }
    }
    long[] out = new long[LaneExtremes.STORED_OUT];
    LaneExtremes.best().storedIntegerExtremes(chunk, from, m, keep, out);
    assertEquals(count > 0, out[2] > 0, what + " extremes' count");
    if (count > 0) {
      assertEquals(min, out[0], what + " min");
      assertEquals(max, out[1], what + " max");
    }
    // The accumulators, alone and paired, over the run and its tail in two calls.
    ExtremeAccumulator minAlone = new ExtremeAccumulator(false, DataTypes.LongType);
    ExtremeAccumulator maxAlone = new ExtremeAccumulator(true, DataTypes.LongType);
    ExtremePair pair = new ExtremePair(new ExtremeAccumulator(false, DataTypes.LongType),
        new ExtremeAccumulator(true, DataTypes.LongType));
    Accumulator maxPlace = pair.maxPlace();
    int end = (chunk.bytes.length - OFFSET) / chunk.elementSize();
    for (int i = from; i < end; i++) {
      if (keep[i] != 0 && !chunk.isMissing(i)) {
        min = Math.min(min, chunk.integralAt(i));
        max = Math.max(max, chunk.integralAt(i));
      }
    }
    int split = from + (end - from) / 2;
    for (Accumulator a : new Accumulator[] {minAlone, maxAlone, pair, maxPlace}) {
      a.ensure(1);
      assertTrue(a.addsKept(chunk), what);
      a.addKept(chunk, from, split - from, keep, 0);
      a.addKept(chunk, split, end - split, keep, 0);
    }
    String expected = min > max ? "null" : Long.toString(min);
    assertEquals(expected, written(minAlone), what + " MIN");
    assertEquals(expected, written(pair), what + " paired MIN");
    expected = min > max ? "null" : Long.toString(max);
    assertEquals(expected, written(maxAlone), what + " MAX");
    assertEquals(expected, written(maxPlace), what + " paired MAX");
  }

  private static String written(Accumulator a) {
    org.apache.spark.sql.execution.vectorized.OnHeapColumnVector out =
        new org.apache.spark.sql.execution.vectorized.OnHeapColumnVector(1, DataTypes.LongType);
    a.write(out, 0, 1);
    return out.isNullAt(0) ? "null" : Long.toString(out.getLong(0));
  }
}
