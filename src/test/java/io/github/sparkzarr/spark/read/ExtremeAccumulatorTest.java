package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * MIN and MAX reduced in SIMD lanes give what the element loop gives (whose results the pushdown
 * tests compare with Spark's): plain and byte-shuffled float32 and float64, NaN missing or a value,
 * none, some or all NaN; int32 and int64; runs cut at random.
 */
class ExtremeAccumulatorTest {
  private static final CfDecoding MASK_NAN = new CfDecoding(new double[0], true, 1, 0, false, true, null);
  /** CMIP's fill value, as float32 stores it. */
  private static final double FILL = (float) 1e20;
  private static final CfDecoding MASK_FILL = new CfDecoding(new double[] {FILL}, false, 1, 0, false, true, null);
  private static final CfDecoding MASK_FILL_AND_NAN = new CfDecoding(new double[] {FILL}, true, 1, 0, false, true, null);
  private static final CfDecoding MASK_INFINITY =
      new CfDecoding(new double[] {Double.NEGATIVE_INFINITY}, true, 1, 0, false, true, null);

  @Test
  void simdRunsGiveWhatTheElementLoopGives() {
    assertInstanceOf(VectorLaneExtremes.class, LaneExtremes.best(), "the tests run with the Vector API");
    Random random = new Random(5);
    int n = 1000;
    for (int size : new int[] {4, 8}) {
      DataType t = DataType.numeric(DataType.Kind.FLOAT, size, ByteOrder.LITTLE_ENDIAN);
      org.apache.spark.sql.types.DataType result = size == 4 ? DataTypes.FloatType : DataTypes.DoubleType;
      for (boolean shuffled : new boolean[] {false, true}) {
        for (int nanPattern = 0; nanPattern < 8; nanPattern++) {
          double[] values = values(random, n, nanPattern);
          int pad = random.nextInt(5);
          byte[] bytes = shuffled ? shuffledBytes(values, size, pad) : plainBytes(values, size, pad);
          for (CfDecoding cf : new CfDecoding[] {null, MASK_NAN, MASK_FILL, MASK_FILL_AND_NAN, MASK_INFINITY}) {
            NumericChunk chunk = new NumericChunk(bytes, pad, shuffled ? n : 0, 0, t, cf);
            for (boolean max : new boolean[] {false, true}) {
              assertSimdMatchesLoop(chunk, n, max, result, random, "size " + size + " shuffled "
                  + shuffled + " nan " + nanPattern + " cf " + (cf != null) + " max " + max);
            }
          }
        }
      }
    }
  }

  /**
   * MIN and MAX fed together ({@link ExtremePair}, one pass of the fused kernel) write what each
   * writes fed alone: floats plain and shuffled with every NaN and fill pattern, integers, and runs
   * to single slots, along rows and element by element.
   */
  @Test
  void minAndMaxTogetherGiveWhatEachGivesAlone() {
    Random random = new Random(9);
    int n = 1000;
    for (int size : new int[] {4, 8}) {
      for (DataType.Kind kind : new DataType.Kind[] {DataType.Kind.FLOAT, DataType.Kind.INT}) {
        DataType t = DataType.numeric(kind, size, ByteOrder.LITTLE_ENDIAN);
        org.apache.spark.sql.types.DataType result = kind == DataType.Kind.INT
            ? (size == 4 ? DataTypes.IntegerType : DataTypes.LongType)
            : (size == 4 ? DataTypes.FloatType : DataTypes.DoubleType);
        for (boolean shuffled : new boolean[] {false, true}) {
          for (int nanPattern = 0; nanPattern < 8; nanPattern++) {
            double[] values = values(random, n, nanPattern);
            int pad = random.nextInt(5);
            byte[] bytes;
            if (kind == DataType.Kind.INT) {
              long[] integers = new long[n];
              for (int i = 0; i < n; i++) {
                integers[i] = values[i] == values[i] && Math.abs(values[i]) < 1e9 ? (long) values[i] : i;
              }
              bytes = integerBytes(integers, size, pad, shuffled);
            } else {
              bytes = shuffled ? shuffledBytes(values, size, pad) : plainBytes(values, size, pad);
            }
            for (CfDecoding cf : new CfDecoding[] {null, MASK_NAN, MASK_FILL, MASK_FILL_AND_NAN, MASK_INFINITY}) {
              NumericChunk chunk = new NumericChunk(bytes, pad, shuffled ? n : 0, 0, t, cf);
              String what = kind + " size " + size + " shuffled " + shuffled + " nan " + nanPattern + " cf " + (cf != null);
              assertPairMatchesAlone(chunk, n, result, random, what);
            }
          }
        }
      }
    }
  }

  /**
   * MIN and MAX, alone and paired, of the elements a filter's marks keep, taken in SIMD lanes by
   * the marks ({@link Accumulator#addKept}), give what the element loop gives fed the kept
   * elements one by one: floats plain and shuffled, every NaN and fill pattern, runs cut at random.
   */
  @Test
  void keptRunsGiveWhatTheElementLoopGivesOfTheKeptElements() {
    Random rng = new Random(29);
    int n = 1000;
    for (int size : new int[] {4, 8}) {
      DataType t = DataType.numeric(DataType.Kind.FLOAT, size, ByteOrder.LITTLE_ENDIAN);
      org.apache.spark.sql.types.DataType result = size == 4 ? DataTypes.FloatType : DataTypes.DoubleType;
      for (boolean shuffled : new boolean[] {false, true}) {
        for (int nanPattern = 0; nanPattern < 8; nanPattern++) {
          double[] values = values(rng, n, nanPattern);
          int pad = rng.nextInt(5);
          byte[] bytes = shuffled ? shuffledBytes(values, size, pad) : plainBytes(values, size, pad);
          // random marks, and marks that drop every NaN (a dropped NaN must not make MAX NaN)
          byte[] marks = SumAccumulatorTest.marks(rng, n);
          byte[] noNaN = marks.clone();
          for (int i = 0; i < n; i++) {
            noNaN[i] = (byte) (values[i] != values[i] ? 0 : noNaN[i]);
          }
          for (int c = 0; c < 10; c++) {
            CfDecoding cf = new CfDecoding[] {null, MASK_NAN, MASK_FILL, MASK_FILL_AND_NAN, MASK_INFINITY}[c % 5];
            byte[] keep = c < 5 ? marks : noNaN;
            NumericChunk chunk = new NumericChunk(bytes, pad, shuffled ? n : 0, 0, t, cf);
            String what = "size " + size + " shuffled " + shuffled + " nan " + nanPattern + " cf " + (cf != null)
                + " marks " + (c < 5 ? "random" : "no NaN");
            int slots = 3;
            ExtremeAccumulator min = new ExtremeAccumulator(false, result);
            ExtremeAccumulator max = new ExtremeAccumulator(true, result);
            ExtremePair pair = new ExtremePair(new ExtremeAccumulator(false, result), new ExtremeAccumulator(true, result));
            Accumulator maxPlace = pair.maxPlace();
            ExtremeAccumulator minLoop = new ExtremeAccumulator(false, result, null);
            ExtremeAccumulator maxLoop = new ExtremeAccumulator(true, result, null);
            for (Accumulator a : new Accumulator[] {min, max, pair, maxPlace, minLoop, maxLoop}) {
              a.ensure(slots);
            }
            for (int from = 0; from < n; ) {
              int len = Math.min(n - from, 1 + rng.nextInt(90));
              int slot = rng.nextInt(slots);
              for (Accumulator a : new Accumulator[] {min, max, pair, maxPlace}) {
                assertEquals(true, a.addsKept(chunk), what);
                a.addKept(chunk, from, len, keep, slot);
              }
              for (int i = from; i < from + len; i++) {
                if (keep[i] != 0) {
                  minLoop.add(chunk, i, 1, slot);
                  maxLoop.add(chunk, i, 1, slot);
                }
              }
              from += len;
            }
            assertEquals(written(minLoop, slots, result), written(min, slots, result), "min, " + what);
            assertEquals(written(minLoop, slots, result), written(pair, slots, result), "paired min, " + what);
            assertEquals(written(maxLoop, slots, result), written(max, slots, result), "max, " + what);
            assertEquals(written(maxLoop, slots, result), written(maxPlace, slots, result), "paired max, " + what);
          }
        }
      }
    }
  }

  /**
   * Rows of a map under a filter (element j to slot j), by the marks through the SIMD row kernel
   * with a tail, alone and paired: each slot gets the extreme the element loop gives of its kept
   * elements, an empty slot null.
   */
  @Test
  void keptRowsGiveWhatTheElementLoopGivesOfTheKeptElements() {
    Random rng = new Random(41);
    int n = 203;
    for (int size : new int[] {4, 8}) {
      DataType t = DataType.numeric(DataType.Kind.FLOAT, size, ByteOrder.LITTLE_ENDIAN);
      org.apache.spark.sql.types.DataType result = size == 4 ? DataTypes.FloatType : DataTypes.DoubleType;
      for (int nanPattern = 0; nanPattern < 8; nanPattern++) {
        byte[] bytes = plainBytes(values(rng, n, nanPattern), size, 3);
        byte[] keep = SumAccumulatorTest.marks(rng, n);
        for (CfDecoding cf : new CfDecoding[] {MASK_NAN, MASK_FILL_AND_NAN, MASK_INFINITY}) {
          NumericChunk chunk = new NumericChunk(bytes, 3, 0, 0, t, cf);
          String what = "size " + size + " nan " + nanPattern;
          ExtremeAccumulator min = new ExtremeAccumulator(false, result);
          ExtremeAccumulator max = new ExtremeAccumulator(true, result);
          ExtremePair pair = new ExtremePair(new ExtremeAccumulator(false, result), new ExtremeAccumulator(true, result));
          RowAccumulator maxPlace = pair.maxPlace();
          ExtremeAccumulator minLoop = new ExtremeAccumulator(false, result, null);
          ExtremeAccumulator maxLoop = new ExtremeAccumulator(true, result, null);
          for (RowAccumulator a : new RowAccumulator[] {min, max, pair, maxPlace, minLoop, maxLoop}) {
            a.ensure(n);
          }
          for (int row = 0; row < 2; row++) { // the same slots twice: the second row meets the first's extremes
            for (RowAccumulator a : new RowAccumulator[] {min, max, pair, maxPlace}) {
              assertEquals(true, a.addsRowKept(chunk), what);
              a.addRowKept(chunk, 5 * row, n - 5 * row, keep, 0);
            }
            for (int j = 0; j < n - 5 * row; j++) {
              if (keep[5 * row + j] != 0) {
                minLoop.add(chunk, 5 * row + j, 1, j);
                maxLoop.add(chunk, 5 * row + j, 1, j);
              }
            }
          }
          assertEquals(written(minLoop, n, result), written(min, n, result), "min, " + what);
          assertEquals(written(minLoop, n, result), written(pair, n, result), "paired min, " + what);
          assertEquals(written(maxLoop, n, result), written(max, n, result), "max, " + what);
          assertEquals(written(maxLoop, n, result), written(maxPlace, n, result), "paired max, " + what);
        }
      }
    }
  }

  private static void assertPairMatchesAlone(NumericChunk chunk, int n,
      org.apache.spark.sql.types.DataType result, Random random, String what) {
    int slots = 40;
    ExtremeAccumulator min = new ExtremeAccumulator(false, result);
    ExtremeAccumulator max = new ExtremeAccumulator(true, result);
    ExtremePair pair = new ExtremePair(new ExtremeAccumulator(false, result), new ExtremeAccumulator(true, result));
    Accumulator maxPlace = pair.maxPlace();
    for (Accumulator a : new Accumulator[] {min, max, pair, maxPlace}) {
      a.ensure(slots);
    }
    int[] slotOf = new int[slots];
    for (int s = 0; s < slots; s++) {
      slotOf[s] = s;
    }
    for (int from = 0; from < n; ) {
      int len = Math.min(n - from, 1 + random.nextInt(90));
      int way = random.nextInt(3);
      int slot = random.nextInt(slots);
      for (Accumulator a : new Accumulator[] {min, max, pair, maxPlace}) {
        if (way == 0) {
          a.add(chunk, from, len, slot);
        } else if (way == 1 && len <= slots) {
          ((RowAccumulator) a).addRow(chunk, from, len, 0);
        } else {
          a.addEach(chunk, from, Math.min(len, slots), slotOf, 0, 1);
        }
      }
      from += way == 2 ? Math.min(len, slots) : len;
    }
    assertEquals(written(min, slots, result), written(pair, slots, result), "min, " + what);
    assertEquals(written(max, slots, result), written(maxPlace, slots, result), "max, " + what);
  }

  /**
   * Stored integers of every layout, signed and not, in SIMD lanes: the stored minimum, maximum and
   * count of the elements not masked, with nothing masked, a value that occurs masked, a value
   * outside the type's range (masks nothing; not for int64), and every element masked; runs at odd
   * offsets. int64 values lie below 2^53 when masked, where a mask is one stored value.
   */
  @ParameterizedTest
  @CsvSource({"INT,1", "UINT,1", "INT,2", "UINT,2", "INT,4", "UINT,4", "INT,8"})
  void storedIntegerRunsGiveTheirExtremesAndCounts(String kindName, int size) {
    Random random = new Random(11 + size);
    DataType.Kind kind = DataType.Kind.valueOf(kindName);
    DataType t = DataType.numeric(kind, size, ByteOrder.LITTLE_ENDIAN);
    boolean longs = size == 8;
    long lowest = kind == DataType.Kind.UINT ? 0 : longs ? Long.MIN_VALUE : -(1L << (8 * size - 1));
    long highest = kind == DataType.Kind.UINT ? (1L << (8 * size)) - 1 : longs ? Long.MAX_VALUE : -lowest - 1;
    for (int run = 0; run < 40; run++) {
      if (longs && run % 4 == 2) {
        continue;
      }
      int n = LaneExtremes.STORED_LANES * (1 + random.nextInt(6));
      int pad = random.nextInt(7);
      long[] values = new long[n];
      for (int k = 0; k < n; k++) {
        // extremes of the type now and then, to check the unsigned order
        values[k] = random.nextInt(9) == 0 ? (random.nextBoolean() ? lowest : highest)
            : longs ? random.nextLong() >> (run % 4 == 0 ? 0 : 11)
            : lowest + Math.floorMod(random.nextLong(), highest - lowest + 1);
        if (longs && run % 4 != 0 && Math.abs(values[k]) >= 1L << 53) {
          values[k] = random.nextLong() >> 11; // no int64 extremes where masks are tried
        }
      }
      long mask = switch (run % 4) {
        case 0 -> Long.MIN_VALUE; // nothing masked
        case 1 -> values[random.nextInt(n)];
        case 2 -> run % 8 == 2 ? lowest - 1 : highest + 1; // outside the range, whose low bits are stored values
        default -> values[0];
      };
      if (run % 4 == 3) {
        java.util.Arrays.fill(values, mask);
      }
      CfDecoding cf = mask == Long.MIN_VALUE ? null
          : new CfDecoding(new double[] {mask}, false, 1, 0, false, true, null);
      NumericChunk chunk = new NumericChunk(integerBytes(values, size, pad, false), pad, 0, 0, t, cf);
      checkStoredExtremes(chunk, values, cf == null ? null : mask, kind + " " + size + " run " + run);
    }
  }

  /**
   * The masked value at either end of a run's values, alone there or not, and at the type's own
   * ends: the unfiltered kernel leaves it out by where it lies, not by comparing each element.
   */
  @ParameterizedTest
  @CsvSource({"INT,1", "UINT,1", "INT,2", "UINT,2", "INT,4", "UINT,4", "INT,8"})
  void aMaskedValueAtEitherEndIsLeftOut(String kindName, int size) {
    DataType.Kind kind = DataType.Kind.valueOf(kindName);
    DataType t = DataType.numeric(kind, size, ByteOrder.LITTLE_ENDIAN);
    long lowest = kind == DataType.Kind.UINT ? 0 : size == 8 ? -(1L << 53) + 1 : -(1L << (8 * size - 1));
    long highest = kind == DataType.Kind.UINT ? (1L << (8 * size)) - 1 : size == 8 ? (1L << 53) - 1 : -lowest - 1;
    Random random = new Random(5 + size);
    int n = 4 * LaneExtremes.STORED_LANES;
    for (long[] ends : new long[][] {{lowest, highest}, {lowest, lowest + 3}, {highest - 3, highest}, {-1, 5}, {0, 9}}) {
      long a = Math.max(ends[0], lowest);
      long b = Math.min(ends[1], highest);
      for (int layout = 0; layout < 4; layout++) {
        long[] values = new long[n];
        for (int k = 0; k < n; k++) {
          values[k] = a + Math.floorMod(random.nextLong(), b - a + 1);
        }
        values[random.nextInt(n)] = a; // both ends occur
        values[random.nextInt(n)] = b;
        long mask = layout % 2 == 0 ? a : b;
        if (layout >= 2) {
          // the masked value everywhere but in one element
          java.util.Arrays.fill(values, mask);
          values[random.nextInt(n)] = layout == 2 ? b : a;
        }
        CfDecoding cf = new CfDecoding(new double[] {mask}, false, 1, 0, false, true, null);
        NumericChunk chunk = new NumericChunk(integerBytes(values, size, 0, false), 0, 0, 0, t, cf);
        checkStoredExtremes(chunk, values, mask, kind + " " + size + " in [" + a + ", " + b + "] mask " + mask
            + " layout " + layout);
      }
    }
  }

  /** The unfiltered kernel's extremes of {@code values} (stored in {@code chunk}) against the element loop's. */
  private static void checkStoredExtremes(NumericChunk chunk, long[] values, Long mask, String what) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    long kept = 0;
    for (long v : values) {
      if (mask == null || v != mask) {
        min = Math.min(min, v);
        max = Math.max(max, v);
        kept++;
      }
    }
    long[] out = new long[LaneExtremes.STORED_OUT];
    LaneExtremes.best().storedIntegerExtremes(chunk, 0, values.length, null, out);
    assertEquals(kept > 0, out[2] > 0, what);
    if (kept > 0) {
      assertEquals(min, out[0], what + " min");
      assertEquals(max, out[1], what + " max");
    }
  }

  @Test
  void simdRunsOfIntegersGiveWhatTheElementLoopGives() {
    Random random = new Random(7);
    int n = 1000;
    CfDecoding maskSeven = new CfDecoding(new double[] {7}, false, 1, 0, false, true, null);
    for (int size : new int[] {4, 8}) {
      DataType t = DataType.numeric(DataType.Kind.INT, size, ByteOrder.LITTLE_ENDIAN);
      org.apache.spark.sql.types.DataType result = size == 4 ? DataTypes.IntegerType : DataTypes.LongType;
      for (boolean shuffled : new boolean[] {false, true}) {
        for (int pattern = 0; pattern < 5; pattern++) {
          long[] values = new long[n];
          for (int i = 0; i < n; i++) {
            long v = size == 4 ? random.nextInt() : random.nextLong();
            values[i] = switch (pattern) {
              case 2 -> v % 10; // small values, many 7s
              case 3 -> -((v >>> 1) % (1L << (8 * size - 2))) - 1; // all negative
              case 4 -> (v >>> 1) % (1L << (8 * size - 2)) + 1; // all positive
              default -> v;
            };
          }
          if (pattern == 1) {
            values[random.nextInt(n)] = size == 4 ? Integer.MIN_VALUE : Long.MIN_VALUE;
            values[random.nextInt(n)] = size == 4 ? Integer.MAX_VALUE : Long.MAX_VALUE;
          }
          int pad = random.nextInt(5);
          byte[] bytes = integerBytes(values, size, pad, shuffled);
          for (CfDecoding cf : new CfDecoding[] {null, maskSeven}) {
            NumericChunk chunk = new NumericChunk(bytes, pad, shuffled ? n : 0, 0, t, cf);
            for (boolean max : new boolean[] {false, true}) {
              assertSimdMatchesLoop(chunk, n, max, result, random, "int size " + size + " shuffled "
                  + shuffled + " pattern " + pattern + " cf " + (cf != null) + " max " + max);
            }
          }
        }
      }
    }
  }

  /** Runs of random length into three slots, through the SIMD lanes and through the element loop. */
  private static void assertSimdMatchesLoop(NumericChunk chunk, int n, boolean max,
      org.apache.spark.sql.types.DataType result, Random random, String what) {
    ExtremeAccumulator simd = new ExtremeAccumulator(max, result);
    ExtremeAccumulator loop = new ExtremeAccumulator(max, result, null);
    int slots = 3;
    simd.ensure(slots);
    loop.ensure(slots);
    for (int from = 0; from < n; ) {
      int len = Math.min(n - from, 1 + random.nextInt(90));
      int slot = random.nextInt(slots);
      simd.add(chunk, from, len, slot);
      loop.add(chunk, from, len, slot);
      from += len;
    }
    assertEquals(written(loop, slots, result), written(simd, slots, result), what);
  }

  private static byte[] integerBytes(long[] values, int size, int pad, boolean shuffled) {
    ByteBuffer b = ByteBuffer.allocate(values.length * size).order(ByteOrder.LITTLE_ENDIAN);
    for (long v : values) {
      if (size == 1) {
        b.put((byte) v);
      } else if (size == 2) {
        b.putShort((short) v);
      } else if (size == 4) {
        b.putInt((int) v);
      } else {
        b.putLong(v);
      }
    }
    return shuffled ? shuffle(b.array(), values.length, size, pad) : pad(b.array(), pad);
  }

  private static byte[] pad(byte[] plain, int pad) {
    byte[] out = new byte[pad + plain.length + 3];
    System.arraycopy(plain, 0, out, pad, plain.length);
    return out;
  }

  /**
   * Gaussian values with no NaN (0), a few (1), many (2) or only NaN (3); infinities in 1; the fill
   * value in about a third of the places, NaN and -infinity in some (4); only the fill value (5);
   * values below (6) or above (7) zero with zeros of both signs in a fifth of the places.
   */
  private static double[] values(Random random, int n, int nanPattern) {
    double[] v = new double[n];
    for (int i = 0; i < n; i++) {
      v[i] = random.nextGaussian() * 100;
      if (nanPattern >= 6) {
        // zeros of both signs the extreme: the lanes and the element loop differ on which zero
        double zero = random.nextBoolean() ? 0.0 : -0.0;
        v[i] = random.nextInt(5) == 0 ? zero : nanPattern == 6 ? -Math.abs(v[i]) : Math.abs(v[i]);
        continue;
      }
      if (nanPattern >= 4) {
        int pick = random.nextInt(30);
        v[i] = nanPattern == 5 || pick < 10 ? FILL : pick == 10 ? Double.NaN : pick == 11 ? Double.NEGATIVE_INFINITY : v[i];
        continue;
      }
      if (nanPattern == 1 && random.nextInt(200) == 0 || nanPattern == 2 && random.nextInt(3) == 0
          || nanPattern == 3) {
        v[i] = Double.NaN;
      } else if (nanPattern == 1 && i == 500) {
        v[i] = Double.NEGATIVE_INFINITY;
      } else if (nanPattern == 1 && i == 501) {
        v[i] = Double.POSITIVE_INFINITY;
      }
    }
    return v;
  }

  private static byte[] plainBytes(double[] values, int size, int pad) {
    ByteBuffer b = ByteBuffer.allocate(pad + values.length * size + 3).order(ByteOrder.LITTLE_ENDIAN);
    b.position(pad);
    for (double v : values) {
      if (size == 4) {
        b.putFloat((float) v);
      } else {
        b.putDouble(v);
      }
    }
    return b.array();
  }

  /** Byte k of element i at {@code pad + k * n + i}, as blosc's byte shuffle stores a block. */
  private static byte[] shuffledBytes(double[] values, int size, int pad) {
    return shuffle(plainBytes(values, size, 0), values.length, size, pad);
  }

  private static byte[] shuffle(byte[] plain, int n, int size, int pad) {
    byte[] out = new byte[pad + n * size + 3];
    for (int i = 0; i < n; i++) {
      for (int k = 0; k < size; k++) {
        out[pad + k * n + i] = plain[i * size + k];
      }
    }
    return out;
  }

  /** The written results as bit patterns, nulls as "null". */
  private static String written(Accumulator a, int slots, org.apache.spark.sql.types.DataType type) {
    OnHeapColumnVector out = new OnHeapColumnVector(slots, type);
    a.write(out, 0, slots);
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < slots; i++) {
      s.append(out.isNullAt(i) ? "null" : type == DataTypes.FloatType
          ? Integer.toHexString(Float.floatToRawIntBits(out.getFloat(i)))
          : type == DataTypes.DoubleType ? Long.toHexString(Double.doubleToRawLongBits(out.getDouble(i)))
          : type == DataTypes.IntegerType ? Integer.toString(out.getInt(i))
          : Long.toString(out.getLong(i))).append(' ');
    }
    return s.toString();
  }
}
