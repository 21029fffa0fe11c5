package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * The direct loops of a one-comparison filter, and the states loop of plain floats, mark exactly
 * what the three-valued evaluation keeps, SIMD and scalar alike, for float32 and float64 with NaN,
 * both zeros and the infinities, masked or not, with float and non-float literals, over lengths
 * that leave a tail after the last full vector.
 */
class FloatSelectTest {
  private static final double[] SPECIAL = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY, 1.5, -1.5, 0.1};
  private static final double[] LITERALS = {0.0, -0.0, 1.5, 0.1, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY, 3.0000001};

  /** No masking; NaN masked; 0.0 masked (so -0.0 too); 1.5 masked with NaN; 0.1, which float32 cannot hold. */
  private static final CfDecoding[] MASKS = {null, new CfDecoding(new double[0], true, 1, 0, false, true, null),
      new CfDecoding(new double[] {0.0}, false, 1, 0, false, true, null),
      new CfDecoding(new double[] {1.5}, true, 1, 0, false, true, null),
      new CfDecoding(new double[] {0.1}, false, 1, 0, false, true, null)};

  private static NumericChunk chunk(double[] values, boolean float32, CfDecoding cf) {
    ByteBuffer b = ByteBuffer.allocate(values.length * (float32 ? 4 : 8)).order(ByteOrder.LITTLE_ENDIAN);
    for (double v : values) {
      if (float32) {
        b.putFloat((float) v);
      } else {
        b.putDouble(v);
      }
    }
    DataType t = DataType.numeric(DataType.Kind.FLOAT, float32 ? 4 : 8, ByteOrder.LITTLE_ENDIAN);
    return new NumericChunk(b.array(), t, cf);
  }

  @Test
  void directLoopsKeepWhatTheFilterKeeps() {
    Random random = new Random(26);
    FloatSelect best = FloatSelect.best();
    int checked = 0;
    for (int n : new int[] {1, 7, 8, 13, 64, 203}) {
      double[] values = new double[n];
      for (int i = 0; i < n; i++) {
        values[i] = random.nextInt(3) == 0 ? SPECIAL[random.nextInt(SPECIAL.length)] : random.nextInt(7) - 3 + 0.5;
      }
      for (int mask = 0; mask < MASKS.length * 2; mask++) {
        boolean float32 = mask % 2 == 0;
        NumericChunk chunk = chunk(values, float32, MASKS[mask / 2]);
        FilterValues[] source = {new ChunkFilterValues(chunk, float32
            ? org.apache.spark.sql.types.DataTypes.FloatType : org.apache.spark.sql.types.DataTypes.DoubleType,
            new StoredIntegers())};
        for (int outcomes = 1; outcomes < 7; outcomes++) {
          for (double literal : LITERALS) {
            double lit = float32 && outcomes % 2 == 0 ? (float) literal : literal;
            ValueFilter.Comparison c = new ValueFilter.Comparison(0, outcomes, false, true, true, false, lit);
            byte[] expected = viaStates(c, source, n);
            boolean nanKept = !chunk.maskNaN && (outcomes & 4) != 0;
            double skip = chunk.maskedValueCount() == 1 ? chunk.maskedValue(0) : Double.NaN;
            byte[] scalar = new byte[n];
            byte[] simd = new byte[n];
            int kept = new FloatSelect.Scalar().select(chunk, n, outcomes, lit, nanKept, skip, scalar);
            assertArrayEquals(expected, scalar, "scalar " + outcomes + " " + lit);
            assertEquals(count(expected), kept);
            assertEquals(kept, best.select(chunk, n, outcomes, lit, nanKept, skip, simd));
            assertArrayEquals(expected, simd, best.getClass() + " " + outcomes + " " + lit + " n=" + n);
            assertEquals(kept, c.select(source, n, new byte[n], new ValueFilter.Scratch()));
            byte[] states = new byte[n];
            source[0].compare(c, 0, n, states);
            for (int i = 0; i < n; i++) {
              assertEquals(expected[i], states[i] & 1, "states " + outcomes + " " + lit + " at " + i);
            }
            checked++;
          }
        }
      }
    }
    assertNotEquals(0, checked);
  }

  /**
   * SUM and COUNT(v) of floats add the elements a filter kept by their marks as the kept elements
   * one by one: masked ones left out though marked (a filter on another variable may keep them),
   * from starts off a lane boundary, in two calls. The values are halves and the specials, whose
   * sums are exact in any order.
   */
  @Test
  void keptSumsAndCountsAreThoseOfTheKeptElements() {
    Random random = new Random(29);
    for (int n : new int[] {1, 7, 8, 13, 64, 203}) {
      double[] values = halvesAndSpecials(random, n);
      byte[] keep = SumAccumulatorTest.marks(random, n);
      for (int mask = 0; mask < MASKS.length * 2; mask++) {
        NumericChunk chunk = chunk(values, mask % 2 == 0, MASKS[mask / 2]);
        for (int from : new int[] {0, 1, n / 2, n - 1}) {
          double sum = 0.0;
          long count = 0;
          for (int i = from; i < n; i++) {
            if (keep[i] != 0 && !chunk.isMissing(i)) {
              sum += chunk.floatingAt(i);
              count++;
            }
          }
          SumAccumulator sums = new SumAccumulator();
          CountAccumulator counts = new CountAccumulator(true);
          int split = from + (n - from) / 3;
          for (Accumulator a : new Accumulator[] {sums, counts}) {
            a.ensure(1);
            assertTrue(a.addsKept(chunk));
            a.addKept(chunk, from, split - from, keep, 0);
            a.addKept(chunk, split, n - split, keep, 0);
          }
          String what = chunk.layout + " mask " + mask / 2 + " n=" + n + " from " + from;
          OnHeapColumnVector out = new OnHeapColumnVector(1, DataTypes.DoubleType);
          sums.write(out, 0, 1);
          assertEquals(count == 0, out.isNullAt(0), what);
          if (count > 0) {
            assertEquals(sum, out.getDouble(0), what);
          }
          OnHeapColumnVector counted = new OnHeapColumnVector(1, DataTypes.LongType);
          counts.write(counted, 0, 1);
          assertEquals(count, counted.getLong(0), what);
        }
      }
    }
  }

  /**
   * Rows of a map (element j to slot j) under a filter: SUM, COUNT(v) and COUNT(*) by the marks,
   * in SIMD lanes with a tail, give each slot the sum and counts of its kept elements; the SIMD and
   * scalar row kernels give the same bits.
   */
  @Test
  void keptRowsAddEachKeptElementToItsSlot() {
    Random random = new Random(31);
    for (int n : new int[] {1, 8, 13, 64, 203}) {
      double[] values = halvesAndSpecials(random, n);
      byte[] keep = SumAccumulatorTest.marks(random, n);
      for (int mask = 0; mask < MASKS.length * 2; mask++) {
        NumericChunk chunk = chunk(values, mask % 2 == 0, MASKS[mask / 2]);
        String what = chunk.layout + " mask " + mask / 2 + " n=" + n;
        int from = n > 8 ? 3 : 0;
        int m = n - from;
        SumAccumulator sums = new SumAccumulator(null, true);
        CountAccumulator counts = new CountAccumulator(true, true);
        CountAccumulator rows = new CountAccumulator(false);
        for (RowAccumulator a : new RowAccumulator[] {sums, counts, rows}) {
          a.ensure(m + 2);
          assertTrue(a.addsRowKept(chunk), what);
          a.addRowKept(chunk, from, m, keep, 2);
        }
        OnHeapColumnVector summed = new OnHeapColumnVector(m + 2, DataTypes.DoubleType);
        OnHeapColumnVector counted = new OnHeapColumnVector(m + 2, DataTypes.LongType);
        OnHeapColumnVector all = new OnHeapColumnVector(m + 2, DataTypes.LongType);
        sums.write(summed, 0, m + 2);
        counts.write(counted, 0, m + 2);
        rows.write(all, 0, m + 2);
        for (int j = 0; j < m; j++) {
          int i = from + j;
          boolean present = keep[i] != 0 && !chunk.isMissing(i);
          assertEquals(!present, summed.isNullAt(2 + j), what + " at " + i);
          if (present) {
            assertEquals(0.0 + chunk.floatingAt(i), summed.getDouble(2 + j), what + " at " + i);
          }
          assertEquals(present ? 1 : 0, counted.getLong(2 + j), what + " at " + i);
          assertEquals(keep[i], all.getLong(2 + j), what + " at " + i);
        }
        int body = m & -LaneSums.LANES;
        double[] vectorSums = new double[m];
        double[] scalarSums = new double[m];
        long[] vectorCounts = new long[m];
        long[] scalarCounts = new long[m];
        double skip = chunk.maskedValueCount() == 1 ? chunk.maskedValue(0) : Double.NaN;
        new VectorLaneSums().addRowSkipping(chunk, from, body, keep, vectorSums, vectorCounts, 0, skip, chunk.maskNaN);
        new ScalarLaneSums().addRowSkipping(chunk, from, body, keep, scalarSums, scalarCounts, 0, skip, chunk.maskNaN);
        for (int j = 0; j < m; j++) {
          assertEquals(Double.doubleToLongBits(scalarSums[j]), Double.doubleToLongBits(vectorSums[j]), what + " lane " + j);
        }
        assertArrayEquals(scalarCounts, vectorCounts, what);
      }
    }
  }

  /** Halves from -2.5 to 3.5, and in a quarter of the places a special value other than 0.1 (sums are exact in any order). */
  private static double[] halvesAndSpecials(Random random, int n) {
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextInt(4) == 0 ? SPECIAL[random.nextInt(SPECIAL.length - 1)] : random.nextInt(7) - 3 + 0.5;
    }
    return values;
  }

  /** What the three-valued evaluation keeps, element by element, bypassing every tight loop. */
  static byte[] viaStates(ValueFilter.Comparison c, FilterValues[] source, int n) {
    byte[] keep = new byte[n];
    for (int i = 0; i < n; i++) {
      keep[i] = (byte) (!source[0].isNull(i) && c.test(source[0], i) == ValueFilter.TRUE ? 1 : 0);
    }
    return keep;
  }

  static int count(byte[] keep) {
    int k = 0;
    for (byte b : keep) {
      k += b;
    }
    return k;
  }
}
