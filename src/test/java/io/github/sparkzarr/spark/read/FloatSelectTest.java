package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The direct loops of a one-comparison filter mark exactly what the three-valued evaluation keeps,
 * SIMD and scalar alike, for float32 and float64 with NaN, both zeros and the infinities, with
 * float and non-float literals, over lengths that leave a tail after the last full vector.
 */
class FloatSelectTest {
  private static final double[] SPECIAL = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY, 1.5, -1.5, 0.1};
  private static final double[] LITERALS = {0.0, -0.0, 1.5, 0.1, Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY, 3.0000001};

  private static NumericChunk chunk(double[] values, boolean float32) {
    ByteBuffer b = ByteBuffer.allocate(values.length * (float32 ? 4 : 8)).order(ByteOrder.LITTLE_ENDIAN);
    for (double v : values) {
      if (float32) {
        b.putFloat((float) v);
      } else {
        b.putDouble(v);
      }
    }
    DataType t = DataType.numeric(DataType.Kind.FLOAT, float32 ? 4 : 8, ByteOrder.LITTLE_ENDIAN);
    return new NumericChunk(b.array(), t, null);
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
      for (boolean float32 : new boolean[] {true, false}) {
        NumericChunk chunk = chunk(values, float32);
        FilterValues[] source = {new ChunkFilterValues(chunk, float32
            ? org.apache.spark.sql.types.DataTypes.FloatType : org.apache.spark.sql.types.DataTypes.DoubleType)};
        for (int outcomes = 1; outcomes < 7; outcomes++) {
          for (double literal : LITERALS) {
            double lit = float32 && outcomes % 2 == 0 ? (float) literal : literal;
            ValueFilter.Comparison c = new ValueFilter.Comparison(0, outcomes, false, true, true, false, lit);
            byte[] expected = viaStates(c, source, n);
            boolean nanKept = (outcomes & 4) != 0;
            byte[] scalar = new byte[n];
            byte[] simd = new byte[n];
            int kept = new FloatSelect.Scalar().select(chunk, n, outcomes, lit, nanKept, scalar);
            assertArrayEquals(expected, scalar, "scalar " + outcomes + " " + lit);
            assertEquals(count(expected), kept);
            assertEquals(kept, best.select(chunk, n, outcomes, lit, nanKept, simd));
            assertArrayEquals(expected, simd, best.getClass() + " " + outcomes + " " + lit + " n=" + n);
            assertEquals(kept, c.select(source, n, new byte[n], new ValueFilter.Scratch()));
            checked++;
          }
        }
      }
    }
    assertNotEquals(0, checked);
  }

  /** What the three-valued evaluation keeps, element by element, bypassing the direct loops. */
  private static byte[] viaStates(ValueFilter.Comparison c, FilterValues[] source, int n) {
    byte[] keep = new byte[n];
    for (int i = 0; i < n; i++) {
      keep[i] = (byte) (c.test(source[0], i) == ValueFilter.TRUE ? 1 : 0);
    }
    return keep;
  }

  private static int count(byte[] keep) {
    int k = 0;
    for (byte b : keep) {
      k += b;
    }
    return k;
  }
}
