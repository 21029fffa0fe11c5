package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * Integer sums never wrap: an int64 overflow inside one run of elements fails even when the
 * wrapped total would look harmless (four times 2^62 wraps to 0), and a total that leaves the
 * long range across runs fails too.
 */
class IntSumAccumulatorTest {
  private static final DataType I8 = DataType.numeric(DataType.Kind.INT, 8, ByteOrder.LITTLE_ENDIAN);
  private static final DataType I4 = DataType.numeric(DataType.Kind.INT, 4, ByteOrder.LITTLE_ENDIAN);

  private static NumericChunk longs(long... values) {
    ByteBuffer b = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (long v : values) {
      b.putLong(v);
    }
    return new NumericChunk(b.array(), I8, null);
  }

  @Test
  void anInt64OverflowInsideOneRunFailsThoughItWouldWrapToZero() {
    IntSumAccumulator sum = new IntSumAccumulator();
    sum.ensure(1);
    long q = 1L << 62;
    ArithmeticException e = assertThrows(ArithmeticException.class, () -> sum.add(longs(q, q, q, q), 0, 4, 0));
    assertTrue(e.getMessage().contains("long overflow in SUM"), e.getMessage());
  }

  @Test
  void totalsAcrossRunsAreCheckedAndExactWithinRange() {
    IntSumAccumulator sum = new IntSumAccumulator();
    sum.ensure(2);
    long q = 1L << 62;
    sum.add(longs(q, -5, q - 1), 0, 3, 0);
    sum.add(longs(3), 0, 1, 1);
    OnHeapColumnVector out = new OnHeapColumnVector(2, DataTypes.LongType);
    sum.write(out, 0, 2);
    assertEquals(Long.MAX_VALUE - 5, out.getLong(0));
    assertEquals(3, out.getLong(1));
    assertThrows(ArithmeticException.class, () -> sum.add(longs(q, 0), 0, 2, 0));

    IntSumAccumulator ints = new IntSumAccumulator();
    ints.ensure(1);
    ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putInt(Integer.MAX_VALUE).putInt(Integer.MAX_VALUE);
    ints.add(new NumericChunk(b.array(), I4, null), 0, 2, 0);
    OnHeapColumnVector intOut = new OnHeapColumnVector(1, DataTypes.LongType);
    ints.write(intOut, 0, 1);
    assertEquals(2L * Integer.MAX_VALUE, intOut.getLong(0), "int32 values add in a long");
  }

  /** Element-wise runs (a grouped last dimension): each value to its own slot, masked ones skipped, overflow fails. */
  @Test
  void eachElementToItsSlotSkippingMaskedValues() {
    IntSumAccumulator sum = new IntSumAccumulator();
    sum.ensure(3);
    io.github.sparkzarr.spark.schema.CfDecoding minusOne =
        new io.github.sparkzarr.spark.schema.CfDecoding(new double[] {-1}, true, 1, 0, false, false, null);
    ByteBuffer b = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
    for (int v : new int[] {5, -1, 7, 11, 13, -1}) {
      b.putInt(v);
    }
    NumericChunk chunk = new NumericChunk(b.array(), I4, minusOne);
    int[] slotOf = {2, 0, 1, 2, 0, 1};
    sum.addEach(chunk, 0, 6, slotOf, 0, 1);
    OnHeapColumnVector out = new OnHeapColumnVector(3, DataTypes.LongType);
    sum.write(out, 0, 3);
    assertEquals(13, out.getLong(0), "slot 0: -1 masked, 13");
    assertEquals(7, out.getLong(1), "slot 1: 7, -1 masked");
    assertEquals(16, out.getLong(2), "slot 2: 5 and 11");
    IntSumAccumulator big = new IntSumAccumulator();
    big.ensure(1);
    long q = 1L << 62;
    assertThrows(ArithmeticException.class, () -> big.addEach(longs(q, q), 0, 2, new int[] {0, 0}, 0, 1));
  }
}
