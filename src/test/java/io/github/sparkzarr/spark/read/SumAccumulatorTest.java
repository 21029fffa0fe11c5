package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
 * SUM in eight lanes: the SIMD and scalar kernels give the same bits, and the accumulator gives
 * exactly the element-by-element lane sum, skipping missing values, whatever the pieces.
 */
class SumAccumulatorTest {
  private static final DataType F4 = DataType.numeric(DataType.Kind.FLOAT, 4, ByteOrder.LITTLE_ENDIAN);
  private static final DataType F8 = DataType.numeric(DataType.Kind.FLOAT, 8, ByteOrder.LITTLE_ENDIAN);

  @Test
  void testJvmHasTheVectorKernels() {
    // Surefire runs with --add-modules=jdk.incubator.vector, as Spark 4 does: the SIMD path is tested.
    assertInstanceOf(VectorLaneSums.class, LaneSums.best());
  }

  @Test
  void vectorAndScalarKernelsGiveTheSameBits() {
    Random random = new Random(7);
    LaneSums vector = new VectorLaneSums();
    LaneSums scalar = new ScalarLaneSums();
    for (int round = 0; round < 200; round++) {
      int n = 8 * random.nextInt(300);
      int offset = random.nextInt(40);
      byte[] bytes = new byte[offset + 8 * n + 64];
      random.nextBytes(bytes);
      int plane = n + random.nextInt(5);
      double[] start = new double[20];
      for (int k = 0; k < start.length; k++) {
        start[k] = random.nextGaussian() * 1e6;
      }
      int at = random.nextInt(12);
      for (int kernel = 0; kernel < 4; kernel++) {
        double[] a = start.clone();
        double[] b = start.clone();
        run(vector, kernel, bytes, offset, plane, n, a, at);
        run(scalar, kernel, bytes, offset, plane, n, b, at);
        for (int k = 0; k < a.length; k++) {
          // Same bits, any NaN counting as one (which NaN's payload survives is the CPU's choice).
          assertEquals(Double.doubleToLongBits(b[k]), Double.doubleToLongBits(a[k]),
              "kernel " + kernel + " round " + round + " lane " + k);
        }
      }
    }
  }

  /** The same for values combined with a constant ({@code SUM(v - 273.15)}), every operator. */
  @Test
  void vectorAndScalarTransformedSumsGiveTheSameBits() {
    Random random = new Random(9);
    LaneSums vector = new VectorLaneSums();
    LaneSums scalar = new ScalarLaneSums();
    for (int round = 0; round < 80; round++) {
      int n = 8 * (1 + random.nextInt(100));
      int offset = random.nextInt(40);
      int size = random.nextBoolean() ? 4 : 8;
      int plane = random.nextBoolean() ? 0 : n + random.nextInt(5);
      byte[] bytes = new byte[offset + size * Math.max(plane, n) + 64];
      for (int k = 0; k < bytes.length; k++) {
        bytes[k] = (byte) random.nextInt(256);
      }
      DataType type = DataType.numeric(DataType.Kind.FLOAT, size, java.nio.ByteOrder.LITTLE_ENDIAN);
      NumericChunk chunk = new NumericChunk(bytes, offset, plane, 0, type, null);
      ValueTransform t = new ValueTransform("+-*/".charAt(random.nextInt(4)), random.nextGaussian() * 300,
          random.nextBoolean());
      double[] a = new double[16];
      double[] b = new double[16];
      vector.addTransformed(chunk, 0, n, a, 3, t);
      scalar.addTransformed(chunk, 0, n, b, 3, t);
      for (int k = 0; k < a.length; k++) {
        assertEquals(Double.doubleToLongBits(b[k]), Double.doubleToLongBits(a[k]), t + " round " + round + " lane " + k);
      }
    }
  }

  /**
   * Sums that skip one masked value: the SIMD kernel gives the bits and the count of the scalar
   * one, for float32 and float64, stored one after the other or byte-shuffled, with the masked
   * value present, absent, signed zero (which -0.0 and 0.0 both equal), not a float32 or none
   * (NaN), and NaN skipped or added.
   */
  @Test
  void vectorAndScalarSkippingSumsGiveTheSameBits() {
    Random random = new Random(13);
    LaneSums vector = new VectorLaneSums();
    LaneSums scalar = new ScalarLaneSums();
    double[] skips = {-9999, 0.0, 0.1, (float) 1e20, Double.NaN};
    for (int round = 0; round < 160; round++) {
      // short runs too, where a lane may hold only -0.0 and skipped values: it must stay -0.0
      int n = round < 60 ? 8 * (1 + round % 2) : 8 * (1 + random.nextInt(100));
      int size = random.nextBoolean() ? 4 : 8;
      int plane = random.nextBoolean() ? 0 : n + random.nextInt(5);
      int offset = random.nextInt(40);
      double skip = skips[round % skips.length];
      ByteBuffer plain = ByteBuffer.allocate(size * n).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < n; i++) {
        int pick = random.nextInt(10);
        double v = pick == 0 ? skip : pick == 1 ? -0.0 : pick == 2 ? Double.NaN : random.nextGaussian() * 1e3;
        if (size == 4) {
          plain.putFloat((float) v);
        } else {
          plain.putDouble(v);
        }
      }
      byte[] bytes = new byte[offset + size * Math.max(plane, n) + 64];
      for (int i = 0; i < n; i++) {
        for (int k = 0; k < size; k++) {
          bytes[offset + (plane == 0 ? i * size + k : k * plane + i)] = plain.get(i * size + k);
        }
      }
      NumericChunk chunk = new NumericChunk(bytes, offset, plane, 0,
          DataType.numeric(DataType.Kind.FLOAT, size, ByteOrder.LITTLE_ENDIAN), null);
      double[] a = new double[16];
      if (round % 3 == 0) {
        java.util.Arrays.fill(a, -0.0);
      }
      double[] b = a.clone();
      boolean nan = round % 4 >= 2;
      // a filter's marks on odd rounds, and a start past the first vector on some
      byte[] keep = round % 2 == 1 ? marks(random, n) : null;
      int start = n > 8 && round % 5 == 0 ? 8 : 0;
      int skippedA = vector.addSkipping(chunk, start, n - start, keep, a, 5, skip, nan);
      int skippedB = scalar.addSkipping(chunk, start, n - start, keep, b, 5, skip, nan);
      String what = "size " + size + " plane " + plane + " skip " + skip + " NaN " + nan + " round " + round
          + " marks " + (keep != null) + " start " + start;
      assertEquals(skippedB, skippedA, what);
      for (int k = 0; k < a.length; k++) {
        assertEquals(Double.doubleToLongBits(b[k]), Double.doubleToLongBits(a[k]), what + " lane " + k);
      }
    }
  }

  /** Random 0/1 marks, about two thirds of them 1. */
  static byte[] marks(Random random, int n) {
    byte[] keep = new byte[n];
    for (int i = 0; i < n; i++) {
      keep[i] = (byte) (random.nextInt(3) == 0 ? 0 : 1);
    }
    return keep;
  }

  private static void run(LaneSums sums, int kernel, byte[] bytes, int offset, int plane, int n,
      double[] out, int at) {
    switch (kernel) {
      case 0 -> sums.addFloats(bytes, offset, n, out, at);
      case 1 -> sums.addDoubles(bytes, offset, n, out, at);
      case 2 -> sums.addShuffledFloats(bytes, offset, Math.max(plane, 1), n, out, at);
      default -> sums.addShuffledDoubles(bytes, offset, Math.max(plane, 1) / 2, n / 2 / 8 * 8, out, at);
    }
  }

  @Test
  void sumsTheLanesOfPresentValuesWhateverThePieces() {
    Random random = new Random(11);
    for (boolean doubles : new boolean[] {false, true}) {
      for (boolean shuffled : new boolean[] {false, true}) {
        for (String missing : new String[] {"none", "NaN", "NaN kept", "-1", "-1 and NaN", "1e20, NaN kept", "0.1", "0"}) {
          int n = 20000;
          double[] values = new double[n];
          for (int i = 0; i < n; i++) {
            values[i] = random.nextGaussian() * 100;
            // Missing values in some segments only, so that clean ones take the fast path.
            if ((i / 3000) % 2 == 1 && random.nextInt(50) == 0) {
              values[i] = switch (missing) {
                case "-1" -> -1;
                case "-1 and NaN" -> random.nextBoolean() ? -1 : Double.NaN;
                case "1e20, NaN kept" -> i % 7 == 0 ? Double.NaN : (float) 1e20;
                case "0.1" -> 0.1;
                case "0" -> random.nextBoolean() ? 0.0 : -0.0;
                default -> Double.NaN;
              };
            }
          }
          CfDecoding cf = switch (missing) {
            case "NaN" -> new CfDecoding(new double[0], true, 1, 0, false, false, null);
            case "-1", "-1 and NaN" -> new CfDecoding(new double[] {-1}, true, 1, 0, false, false, null);
            case "1e20, NaN kept" -> new CfDecoding(new double[] {(float) 1e20}, false, 1, 0, false, false, null);
            case "0.1" -> new CfDecoding(new double[] {0.1}, true, 1, 0, false, false, null);
            case "0" -> new CfDecoding(new double[] {0}, false, 1, 0, false, false, null);
            default -> null;
          };
          String what = (doubles ? "f8" : "f4") + (shuffled ? " shuffled" : "") + " missing " + missing;
          double[] expected = reference(values, doubles, cf);
          // The same values cut into pieces of random lengths, each starting at its element number.
          for (int cut = 0; cut < 3; cut++) {
            SumAccumulator sum = new SumAccumulator();
            sum.ensure(1);
            int from = 0;
            while (from < n) {
              int len = cut == 0 ? n : Math.min(n - from, 1 + random.nextInt(cut == 1 ? 5000 : 37));
              NumericChunk piece = piece(values, from, len, doubles, shuffled, cf);
              sum.add(piece, 0, len, 0);
              from += len;
            }
            OnHeapColumnVector out = new OnHeapColumnVector(1, DataTypes.DoubleType);
            sum.write(out, 0, 1);
            assertEquals(Double.doubleToLongBits(expected[0]),
                Double.doubleToLongBits(out.getDouble(0)), what + " cut " + cut);
          }
          if (!missing.equals("none") && !missing.contains("NaN kept")) {
            assertTrue(Double.isFinite(expected[0]), what);
          }
        }
      }
    }
  }

  /**
   * Element-wise sums (the last dimension grouped on: each element to another group) keep one sum
   * per group, added in row order, missing values skipped: exactly the plain sequential sum.
   */
  @Test
  void elementwiseSumsAddEachGroupInRowOrder() {
    Random random = new Random(13);
    int groups = 97;
    int n = 20000;
    double[] values = new double[n];
    int[] slotOf = new int[n];
    for (int i = 0; i < n; i++) {
      values[i] = random.nextGaussian() * Math.pow(10, random.nextInt(12)); // float64: order shows
      if (random.nextInt(40) == 0) {
        values[i] = Double.NaN;
      }
      slotOf[i] = random.nextInt(groups);
    }
    CfDecoding nanMissing = new CfDecoding(new double[0], true, 1, 0, false, false, null);
    double[] expected = new double[groups];
    long[] counts = new long[groups];
    for (int i = 0; i < n; i++) {
      double v = values[i];
      if (v == v) {
        expected[slotOf[i]] += v;
        counts[slotOf[i]]++;
      }
    }
    SumAccumulator sum = new SumAccumulator(null, true);
    sum.ensure(groups);
    int from = 0;
    while (from < n) {
      int len = Math.min(n - from, 1 + random.nextInt(300));
      sum.addEach(piece(values, from, len, true, false, nanMissing), 0, len, slotOf, from, 1);
      from += len;
    }
    OnHeapColumnVector out = new OnHeapColumnVector(groups, DataTypes.DoubleType);
    sum.write(out, 0, groups);
    for (int g = 0; g < groups; g++) {
      assertEquals(Double.doubleToLongBits(expected[g]), Double.doubleToLongBits(out.getDouble(g)), "group " + g);
      assertEquals(counts[g], sum.count(g), "count of group " + g);
    }
  }

  /**
   * Rows of consecutive slots (a grid row, each cell its own group) added a vector at a time give
   * the sequential sums exactly: rows with a missing NaN are redone element by element, and a
   * NaN made by adding infinities of both signs stays.
   */
  @Test
  void rowsOfConsecutiveSlotsGiveTheSequentialSums() {
    Random random = new Random(17);
    double fill = (float) 1e20;
    CfDecoding nanMissing = new CfDecoding(new double[0], true, 1, 0, false, false, null);
    CfDecoding fillMissing = new CfDecoding(new double[] {fill}, true, 1, 0, false, false, null);
    CfDecoding fillMissingNaNKept = new CfDecoding(new double[] {fill}, false, 1, 0, false, false, null);
    for (boolean doubles : new boolean[] {false, true}) {
      for (CfDecoding cf : new CfDecoding[] {nanMissing, null, fillMissing, fillMissingNaNKept}) {
        int width = 61;
        int rows = 300;
        double[] values = new double[width * rows];
        for (int i = 0; i < values.length; i++) {
          values[i] = random.nextGaussian() * Math.pow(10, random.nextInt(12));
          if (i % width == 9 || random.nextInt(20) == 0) {
            values[i] = fill; // group 9: the fill value only
          } else if (random.nextInt(500) == 0) {
            values[i] = Double.NaN;
          }
        }
        values[5] = Double.POSITIVE_INFINITY;
        values[5 + width * 7] = Double.NEGATIVE_INFINITY;
        double[] expected = new double[width];
        long[] counts = new long[width];
        for (int i = 0; i < values.length; i++) {
          double v = doubles ? values[i] : (float) values[i];
          boolean missing = cf != null && (v != v ? cf.maskNaN() : cf.isMissing(v));
          if (!missing) {
            expected[i % width] += v;
            counts[i % width]++;
          }
        }
        SumAccumulator sum = new SumAccumulator(null, true);
        sum.ensure(width);
        for (int r = 0; r < rows; r++) {
          sum.addRow(piece(values, r * width, width, doubles, false, cf), 0, width, 0);
        }
        OnHeapColumnVector out = new OnHeapColumnVector(width, DataTypes.DoubleType);
        sum.write(out, 0, width);
        String what = (doubles ? "f8" : "f4") + " " + cf;
        assertTrue(Double.isNaN(out.getDouble(5)), what);
        assertEquals(cf == fillMissing || cf == fillMissingNaNKept, out.isNullAt(9), what + ": group 9 holds only the fill");
        for (int g = 0; g < width; g++) {
          assertEquals(counts[g], sum.count(g), what + " count of group " + g);
          if (counts[g] > 0) {
            assertEquals(Double.doubleToLongBits(expected[g]), Double.doubleToLongBits(out.getDouble(g)), what + " group " + g);
          }
        }
      }
    }
  }


  /** Element by element into lane i % 8, then the lanes in order. */
  private static double[] reference(double[] values, boolean doubles, CfDecoding cf) {
    double[] lanes = new double[8];
    for (int i = 0; i < values.length; i++) {
      double v = doubles ? values[i] : (float) values[i];
      boolean isMissing = cf != null && (v != v ? cf.maskNaN() : cf.isMissing(v));
      if (!isMissing) {
        lanes[i % 8] += v;
      }
    }
    double total = 0;
    for (double lane : lanes) {
      total += lane;
    }
    return new double[] {total};
  }

  private static NumericChunk piece(double[] values, int from, int len, boolean doubles,
      boolean shuffled, CfDecoding cf) {
    int size = doubles ? 8 : 4;
    int offset = 3;
    ByteBuffer plain = ByteBuffer.allocate(len * size).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < len; i++) {
      if (doubles) {
        plain.putDouble(values[from + i]);
      } else {
        plain.putFloat((float) values[from + i]);
      }
    }
    byte[] bytes = new byte[offset + len * size];
    for (int i = 0; i < len; i++) {
      for (int k = 0; k < size; k++) {
        int to = shuffled ? k * len + i : i * size + k;
        bytes[offset + to] = plain.get(i * size + k);
      }
    }
    return new NumericChunk(bytes, offset, shuffled ? len : 0, from, doubles ? F8 : F4, cf);
  }
}
