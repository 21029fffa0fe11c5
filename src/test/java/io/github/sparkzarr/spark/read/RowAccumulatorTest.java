package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Grid rows added by {@link RowAccumulator#addRow} (a time-mean map over integers, packed or not)
 * give exactly what the element loop {@link Accumulator#addEach} gives with the same slots, for
 * every integer layout, rows longer than a block and starting anywhere, with nothing masked, one
 * masked value, two masked values, and packed values (their MIN and MAX too); and rows under a
 * filter ({@link RowAccumulator#addRowKept}), where taken, what the element loop gives of the kept
 * elements.
 */
class RowAccumulatorTest {
  private static final int WIDTH = StoredIntegers.BLOCK + 301;
  private static final int ROWS = 3;
  private static final int OFFSET = 3;
  /** The row's first slot: not 0, so a row loop ignoring it fails. */
  private static final int FIRST_SLOT = 2;

  @ParameterizedTest
  @CsvSource({"INT,1", "UINT,1", "INT,2", "UINT,2", "INT,4", "UINT,4", "INT,8"})
  void rowsGiveWhatTheElementLoopGives(String kind, int size) {
    DataType t = DataType.numeric(DataType.Kind.valueOf(kind), size, ByteOrder.LITTLE_ENDIAN);
    byte[] bytes = StoredIntegersTest.randomElements(t, StoredIntegersTest.skippedValue(t), OFFSET, ROWS * WIDTH);
    for (CfDecoding cf : StoredIntegersTest.decodings(StoredIntegersTest.skippedValue(t))) {
      NumericChunk c = new NumericChunk(bytes, OFFSET, 0, 0, t, cf);
      String what = t + " " + (cf == null ? "unmasked" : cf.scaled() ? "packed" : cf.masked().length + " masked");
      if (c.unpacks) {
        compare(() -> new SumAccumulator(null, true), c, DataTypes.DoubleType, what + " SUM");
        org.apache.spark.sql.types.DataType unpacked = cf.singlePrecision() ? DataTypes.FloatType : DataTypes.DoubleType;
        compare(() -> new ExtremeAccumulator(false, unpacked), c, unpacked, what + " MIN");
        compare(() -> new ExtremeAccumulator(true, unpacked), c, unpacked, what + " MAX");
      } else {
        compare(IntSumAccumulator::new, c, DataTypes.LongType, what + " SUM");
        compare(() -> new ExtremeAccumulator(false, DataTypes.LongType), c, DataTypes.LongType, what + " MIN");
        compare(() -> new ExtremeAccumulator(true, DataTypes.LongType), c, DataTypes.LongType, what + " MAX");
      }
      compare(() -> new CountAccumulator(true), c, DataTypes.LongType, what + " COUNT(v)");
      compare(() -> new CountAccumulator(false), c, DataTypes.LongType, what + " COUNT(*)");
    }
  }

  /**
   * Float rows counted, summed and reduced to MIN and MAX, NaN missing or not: with ties of 0.0 and
   * -0.0 (the first is kept) and either NaN in a ninth of the elements and a column that is NaN in
   * every row (its slot stays null), or NaN in two elements of the middle row only (where NaN is
   * a value, the MAX row kernel runs before them, adds them after it, and leaves the rows whose
   * slots then hold NaN to the element loop).
   */
  @ParameterizedTest
  @CsvSource({"4,false", "8,false", "4,true", "8,true"})
  void floatRowsGiveWhatTheElementLoopGives(int size, boolean sparseNaN) {
    DataType t = DataType.numeric(DataType.Kind.FLOAT, size, ByteOrder.LITTLE_ENDIAN);
    Random random = new Random(5);
    double[] ties = {0.0, -0.0, 1.5, -2};
    ByteBuffer b = ByteBuffer.allocate(OFFSET + ROWS * WIDTH * size).order(ByteOrder.LITTLE_ENDIAN);
    b.position(OFFSET);
    for (int i = 0; i < ROWS * WIDTH; i++) {
      int pick = random.nextInt(9);
      boolean nan = sparseNaN ? i == WIDTH + 3 || i == 2 * WIDTH - 5 : i % WIDTH == 10 || pick == 0;
      double v = nan ? Double.NaN : pick <= 4 ? ties[pick == 0 ? 0 : pick - 1] : random.nextGaussian();
      if (size == 4) {
        b.putFloat((float) v);
      } else {
        b.putDouble(v);
      }
    }
    org.apache.spark.sql.types.DataType result = size == 4 ? DataTypes.FloatType : DataTypes.DoubleType;
    CfDecoding nanMissing = new CfDecoding(new double[0], true, 1, 0, false, false, null);
    CfDecoding valueMissing = new CfDecoding(new double[] {1.5}, true, 1, 0, false, false, null);
    CfDecoding valueMissingNaNKept = new CfDecoding(new double[] {1.5}, false, 1, 0, false, false, null);
    for (CfDecoding cf : new CfDecoding[] {null, nanMissing, valueMissing, valueMissingNaNKept}) {
      NumericChunk c = new NumericChunk(b.array(), OFFSET, 0, 0, t, cf);
      String what = t + (cf == null ? " unmasked" : cf.masked().length + " masked, NaN " + (cf.maskNaN() ? "masked" : "kept"));
      compare(() -> new CountAccumulator(true), c, DataTypes.LongType, what + " COUNT(v)");
      compare(() -> new SumAccumulator(null, true), c, DataTypes.DoubleType, what + " SUM");
      compare(() -> new ExtremeAccumulator(false, result), c, result, what + " MIN");
      compare(() -> new ExtremeAccumulator(true, result), c, result, what + " MAX");
    }
  }

  @Test
  void int64RowsAreCheckedForOverflow() {
    DataType i8 = DataType.numeric(DataType.Kind.INT, 8, ByteOrder.LITTLE_ENDIAN);
    ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(1L << 62).putLong(7);
    NumericChunk c = new NumericChunk(b.array(), i8, null);
    IntSumAccumulator sum = new IntSumAccumulator();
    sum.ensure(2);
    sum.addRow(c, 0, 2, 0); // slot 0 holds 2^62; once more would wrap to Long.MIN_VALUE
    ArithmeticException e = assertThrows(ArithmeticException.class, () -> sum.addRow(c, 0, 2, 0));
    assertTrue(e.getMessage().contains("long overflow in SUM"), e.getMessage());
  }

  /**
   * Rows into slots from FIRST_SLOT by addRow and by addEach, then, if the accumulator takes them,
   * kept rows by addRowKept and the kept elements one by one; the written results are the same bits.
   */
  private static void compare(Supplier<Accumulator> make, NumericChunk c, org.apache.spark.sql.types.DataType type,
      String what) {
    RowAccumulator byRow = (RowAccumulator) make.get();
    Accumulator byElement = make.get();
    int slots = FIRST_SLOT + WIDTH;
    byRow.ensure(slots);
    byElement.ensure(slots);
    int[] slotOf = new int[WIDTH];
    for (int j = 0; j < WIDTH; j++) {
      slotOf[j] = FIRST_SLOT + j;
    }
    for (int r = 0; r < ROWS; r++) {
      byRow.addRow(c, r * WIDTH, WIDTH, FIRST_SLOT);
      byElement.addEach(c, r * WIDTH, WIDTH, slotOf, 0, 1);
    }
    // A row starting inside a block of the chunk, across a block boundary of the row loop.
    byRow.addRow(c, 17, WIDTH - 40, FIRST_SLOT + 5);
    byElement.addEach(c, 17, WIDTH - 40, slotOf, 5, 1);
    assertSameResults(byElement, byRow, slots, type, what);
    RowAccumulator keptRows = (RowAccumulator) make.get();
    if (keptRows.addsRowKept(c)) {
      Accumulator keptElements = make.get();
      keptRows.ensure(slots);
      keptElements.ensure(slots);
      byte[] keep = SumAccumulatorTest.marks(new Random(3), ROWS * WIDTH);
      for (int r = 0; r < ROWS; r++) {
        keptRows.addRowKept(c, r * WIDTH, WIDTH, keep, FIRST_SLOT);
        for (int j = 0; j < WIDTH; j++) {
          if (keep[r * WIDTH + j] != 0) {
            keptElements.add(c, r * WIDTH + j, 1, FIRST_SLOT + j);
          }
        }
      }
      assertSameResults(keptElements, keptRows, slots, type, what + " kept");
    }
  }

  private static void assertSameResults(Accumulator byElement, Accumulator byRow, int slots,
      org.apache.spark.sql.types.DataType type, String what) {
    OnHeapColumnVector expected = new OnHeapColumnVector(slots, type);
    OnHeapColumnVector got = new OnHeapColumnVector(slots, type);
    byElement.write(expected, 0, slots);
    byRow.write(got, 0, slots);
    for (int s = 0; s < slots; s++) {
      assertEquals(expected.isNullAt(s), got.isNullAt(s), what + " slot " + s);
      if (!expected.isNullAt(s)) {
        assertEquals(bits(expected, s, type), bits(got, s, type), what + " slot " + s);
      }
    }
    // A batch of results starting at a later slot lands at row 0 on.
    int from = FIRST_SLOT + 7;
    OnHeapColumnVector tail = new OnHeapColumnVector(slots - from, type);
    byRow.write(tail, from, slots - from);
    for (int r = 0; r < slots - from; r++) {
      assertEquals(expected.isNullAt(from + r), tail.isNullAt(r), what + " slot " + (from + r) + " at row " + r);
      if (!tail.isNullAt(r)) {
        assertEquals(bits(expected, from + r, type), bits(tail, r, type), what + " slot " + (from + r) + " at row " + r);
      }
    }
    for (int s = 0; s < FIRST_SLOT; s++) {
      assertTrue(got.isNullAt(s) || type == DataTypes.LongType && got.getLong(s) == 0, what + ": slots before the row stay empty");
    }
  }

  private static long bits(OnHeapColumnVector v, int s, org.apache.spark.sql.types.DataType type) {
    if (type == DataTypes.DoubleType) {
      return Double.doubleToLongBits(v.getDouble(s));
    }
    return type == DataTypes.FloatType ? Float.floatToIntBits(v.getFloat(s)) : v.getLong(s);
  }
}
