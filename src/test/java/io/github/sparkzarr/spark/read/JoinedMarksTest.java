package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * Filters of several comparisons joined by AND and OR (and NOT, null tests and comparisons no
 * direct loop marks below them) keep, when their sides' marks are joined, exactly the elements
 * whose three-valued state is true: random trees over a float32 variable and an int16 variable,
 * masked or not, over boxes longer than a piece of states.
 */
class JoinedMarksTest {
  private static final double[] FLOATS = {Double.NaN, -0.0, 0.0, Double.POSITIVE_INFINITY, 1.5, -1.5, 2.5};
  private static final double[] FLOAT_LITERALS = {0.0, 1.5, -1.5, 2.5, 0.1, Double.NaN, Double.NEGATIVE_INFINITY};
  private static final long[] INT_LITERALS = {-3, 0, 5, 100, -40000, 32767};

  @Test
  void joinedMarksAreWhatTheFilterKeeps() {
    Random random = new Random(29);
    DataType int16 = DataType.numeric(DataType.Kind.INT, 2, ByteOrder.LITTLE_ENDIAN);
    long skip = StoredIntegersTest.skippedValue(int16);
    int joined = 0;
    for (int n : new int[] {1, 13, 64, 203, 9000}) {
      for (int masks = 0; masks < 4; masks++) {
        CfDecoding floatMask = masks % 2 == 0 ? null : new CfDecoding(new double[] {1.5}, true, 1, 0, false, true, null);
        CfDecoding intMask = masks < 2 ? null : StoredIntegersTest.decodings(skip)[1];
        NumericChunk floats = floats(random, n, floatMask);
        NumericChunk ints = new NumericChunk(StoredIntegersTest.randomElements(int16, skip, 0, n), 0, 0, 0, int16, intMask);
        FilterValues[] values = {new ChunkFilterValues(floats, DataTypes.FloatType, new StoredIntegers()),
            new ChunkFilterValues(ints, DataTypes.LongType, new StoredIntegers())};
        for (int tree = 0; tree < 40; tree++) {
          ValueFilter f = tree(random, 3);
          byte[] expected = viaStates(f, values, n);
          byte[] keep = new byte[n];
          int kept = f.select(values, n, keep, new ValueFilter.Scratch());
          String what = f + " n=" + n + " masks " + masks;
          assertArrayEquals(expected, keep, what);
          assertEquals(FloatSelectTest.count(expected), kept, what);
          if (f instanceof ValueFilter.Both b && b.selectsDirectly(values)) {
            joined++;
          }
        }
      }
    }
    assertTrue(joined > 100, "joined by marks: " + joined);
  }

  @Test
  void marksCountAndJoinEightAtATime() {
    Random random = new Random(7);
    for (int n : new int[] {0, 1, 8, 9, 31, 64, 77}) {
      byte[] a = SumAccumulatorTest.marks(random, n);
      byte[] b = SumAccumulatorTest.marks(random, n);
      for (boolean and : new boolean[] {true, false}) {
        byte[] joined = a.clone();
        byte[] expected = new byte[n];
        for (int i = 0; i < n; i++) {
          expected[i] = (byte) (and ? a[i] & b[i] : a[i] | b[i]);
        }
        assertEquals(FloatSelectTest.count(expected), Marks.join(joined, b, n, and));
        assertArrayEquals(expected, joined);
      }
      for (int at = 0; at < n; at += 5) {
        int count = 0;
        for (int i = at; i < n; i++) {
          count += a[i];
        }
        assertEquals(count, Marks.count(a, at, n - at));
        assertEquals(count > 0, Marks.any(a, at, n - at));
      }
    }
  }

  private static NumericChunk floats(Random random, int n, CfDecoding cf) {
    ByteBuffer b = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      b.putFloat((float) (random.nextInt(3) == 0 ? FLOATS[random.nextInt(FLOATS.length)] : random.nextInt(9) - 4 + 0.5));
    }
    return new NumericChunk(b.array(), DataType.numeric(DataType.Kind.FLOAT, 4, ByteOrder.LITTLE_ENDIAN), cf);
  }

  /** A random filter: comparisons (some no direct loop marks), null tests, NOT, AND and OR. */
  private static ValueFilter tree(Random random, int depth) {
    int pick = random.nextInt(depth == 0 ? 4 : 8);
    int outcomes = 1 + random.nextInt(6);
    return switch (pick) {
      case 0, 1 -> new ValueFilter.Comparison(0, outcomes, random.nextInt(8) == 0, true, true, random.nextInt(5) == 0,
          FLOAT_LITERALS[random.nextInt(FLOAT_LITERALS.length)]);
      case 2 -> new ValueFilter.Comparison(1, outcomes, false, false, random.nextInt(5) == 0, false,
          INT_LITERALS[random.nextInt(INT_LITERALS.length)]);
      case 3 -> new ValueFilter.NullTest(random.nextInt(2), random.nextBoolean());
      case 4 -> new ValueFilter.Not(tree(random, depth - 1));
      default -> new ValueFilter.Both(tree(random, depth - 1), tree(random, depth - 1), random.nextBoolean());
    };
  }

  /** What the three-valued evaluation keeps, a piece at a time, with no marks joined. */
  private static byte[] viaStates(ValueFilter f, FilterValues[] values, int n) {
    byte[] keep = new byte[n];
    byte[] states = new byte[ValueFilter.PIECE];
    ValueFilter.Scratch scratch = new ValueFilter.Scratch();
    for (int from = 0; from < n; from += ValueFilter.PIECE) {
      int m = Math.min(ValueFilter.PIECE, n - from);
      f.evaluate(values, from, m, states, scratch, 1);
      for (int i = 0; i < m; i++) {
        keep[from + i] = (byte) (states[i] == ValueFilter.TRUE ? 1 : 0);
      }
    }
    return keep;
  }
}
