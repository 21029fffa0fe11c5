package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.junit.jupiter.api.Test;

/** The in-place column answers exactly what the copying writers put in an OnHeapColumnVector. */
class ChunkValueVectorTest {
  private static final CfDecoding MASK_NAN = new CfDecoding(new double[0], true, 1, 0, false, true, null);
  private static final CfDecoding MASK_9999 = new CfDecoding(new double[] {-9999}, false, 1, 0, false, true, null);

  @Test
  void float32WithNaNFillMatchesTheCopy() {
    float[] values = {1.5f, Float.NaN, -0f, Float.POSITIVE_INFINITY, 3e38f};
    ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (float v : values) {
      b.putFloat(v);
    }
    DataType f4 = DataType.numeric(DataType.Kind.FLOAT, 4, ByteOrder.LITTLE_ENDIAN);
    for (CfDecoding cf : new CfDecoding[] {null, MASK_NAN, MASK_9999}) {
      ChunkValueVector v = new ChunkValueVector(b.array(), f4, cf, values.length, DataTypes.FloatType);
      OnHeapColumnVector copy = copy(b.array(), f4, cf, values.length, DataTypes.FloatType);
      for (int i = 0; i < values.length; i++) {
        assertEquals(copy.isNullAt(i), v.isNullAt(i), "row " + i + " cf " + cf);
        if (!copy.isNullAt(i)) {
          assertEquals(Float.floatToIntBits(copy.getFloat(i)), Float.floatToIntBits(v.getFloat(i)));
        }
      }
      assertEquals(copy.numNulls(), v.numNulls());
    }
    assertTrue(new ChunkValueVector(b.array(), f4, MASK_NAN, 5, DataTypes.FloatType).isNullAt(1));
    assertFalse(new ChunkValueVector(b.array(), f4, MASK_NAN, 5, DataTypes.FloatType).isNullAt(0));
  }

  /**
   * One masked value besides NaN, compared as doubles (CF's rule): netCDF's default float fill,
   * -9999, and 0.1, which no float32 equals; NaN masked or not; float32 and float64.
   */
  @Test
  void floatsWithOneMaskedValueMatchTheCopy() {
    double[] values = {1.5, -9999, Double.NaN, 0.1, 9.969209968386869e36, -0.0, 0.1, -9999};
    double[] masks = {-9999, 0.1, (double) 9.96921e36f};
    int withNulls = 0;
    for (int size : new int[] {4, 8}) {
      DataType t = DataType.numeric(DataType.Kind.FLOAT, size, ByteOrder.LITTLE_ENDIAN);
      org.apache.spark.sql.types.DataType sparkType = size == 4 ? DataTypes.FloatType : DataTypes.DoubleType;
      ByteBuffer b = ByteBuffer.allocate(values.length * size).order(ByteOrder.LITTLE_ENDIAN);
      for (double v : values) {
        if (size == 4) {
          b.putFloat((float) v);
        } else {
          b.putDouble(v);
        }
      }
      for (double m : masks) {
        for (boolean nan : new boolean[] {false, true}) {
          CfDecoding cf = new CfDecoding(new double[] {m}, nan, 1, 0, false, true, null);
          ChunkValueVector v = new ChunkValueVector(b.array(), t, cf, values.length, sparkType);
          OnHeapColumnVector copy = copy(b.array(), t, cf, values.length, sparkType);
          for (int r = 0; r < values.length; r++) {
            assertEquals(copy.isNullAt(r), v.isNullAt(r), "size " + size + " mask " + m + " NaN " + nan + " row " + r);
          }
          assertEquals(copy.numNulls(), v.numNulls());
          withNulls += v.numNulls() > 0 ? 1 : 0;
        }
      }
    }
    // every case masks something except 0.1 in float32 without NaN
    assertEquals(11, withNulls);
  }

  /**
   * Long chunks, where missing rows are found a segment at a time: NaN none, sparse, at segment
   * edges and in the tail; infinities of both signs (a NaN sum without a NaN); float32 and float64.
   */
  @Test
  void longChunksFindExactlyTheMissingRows() {
    java.util.Random random = new java.util.Random(11);
    int rows = 3 * 4096 + 13;
    for (int size : new int[] {4, 8}) {
      DataType t = DataType.numeric(DataType.Kind.FLOAT, size, ByteOrder.LITTLE_ENDIAN);
      org.apache.spark.sql.types.DataType sparkType = size == 4 ? DataTypes.FloatType : DataTypes.DoubleType;
      for (int layout = 0; layout < 4; layout++) {
        ByteBuffer b = ByteBuffer.allocate(rows * size).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < rows; r++) {
          double v = random.nextGaussian();
          if (layout == 1 && random.nextInt(1000) == 0 || layout == 2 && (r == 4095 || r == 4096 || r == rows - 1)) {
            v = Double.NaN;
          } else if (layout == 3 && (r == 5000 || r == 6000)) {
            v = r == 5000 ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
          }
          if (size == 4) {
            b.putFloat((float) v);
          } else {
            b.putDouble(v);
          }
        }
        ChunkValueVector v = new ChunkValueVector(b.array(), t, MASK_NAN, rows, sparkType);
        OnHeapColumnVector copy = copy(b.array(), t, MASK_NAN, rows, sparkType);
        for (int r = 0; r < rows; r++) {
          assertEquals(copy.isNullAt(r), v.isNullAt(r), "size " + size + " layout " + layout + " row " + r);
        }
        assertEquals(copy.numNulls(), v.numNulls());
        assertEquals(layout == 0 || layout == 3, v.numNulls() == 0, "layout " + layout);
      }
    }
  }

  @Test
  void integersAndDoublesWithAMaskedValue() {
    long[] values = {7, -9999, Long.MIN_VALUE, 0};
    ByteBuffer l = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer i = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
    ByteBuffer d = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    for (long v : values) {
      l.putLong(v);
      i.putInt((int) v);
      d.putDouble(v);
    }
    DataType i8 = DataType.numeric(DataType.Kind.INT, 8, ByteOrder.LITTLE_ENDIAN);
    DataType i4 = DataType.numeric(DataType.Kind.INT, 4, ByteOrder.LITTLE_ENDIAN);
    DataType f8 = DataType.numeric(DataType.Kind.FLOAT, 8, ByteOrder.LITTLE_ENDIAN);
    ColumnVector vl = new ChunkValueVector(l.array(), i8, MASK_9999, 4, DataTypes.LongType);
    ColumnVector vi = new ChunkValueVector(i.array(), i4, MASK_9999, 4, DataTypes.IntegerType);
    ColumnVector vd = new ChunkValueVector(d.array(), f8, MASK_9999, 4, DataTypes.DoubleType);
    OnHeapColumnVector cl = copy(l.array(), i8, MASK_9999, 4, DataTypes.LongType);
    OnHeapColumnVector ci = copy(i.array(), i4, MASK_9999, 4, DataTypes.IntegerType);
    OnHeapColumnVector cd = copy(d.array(), f8, MASK_9999, 4, DataTypes.DoubleType);
    for (int r = 0; r < 4; r++) {
      assertEquals(cl.isNullAt(r), vl.isNullAt(r));
      assertEquals(ci.isNullAt(r), vi.isNullAt(r));
      assertEquals(cd.isNullAt(r), vd.isNullAt(r));
      if (!cl.isNullAt(r)) {
        assertEquals(cl.getLong(r), vl.getLong(r));
        assertEquals(ci.getInt(r), vi.getInt(r));
        assertEquals(cd.getDouble(r), vd.getDouble(r));
      }
    }
    assertTrue(vl.isNullAt(1));
    assertEquals(1, vl.numNulls());
  }

  @Test
  void numbersAndPackedIntegersAreReadInPlace() {
    DataType f4 = DataType.numeric(DataType.Kind.FLOAT, 4, ByteOrder.LITTLE_ENDIAN);
    DataType i2 = DataType.numeric(DataType.Kind.INT, 2, ByteOrder.LITTLE_ENDIAN);
    CfDecoding packed = new CfDecoding(new double[0], false, 2, 0, true, true, null);
    assertTrue(ChunkValueVector.supports(f4, null));
    assertTrue(ChunkValueVector.supports(f4, MASK_NAN));
    assertFalse(ChunkValueVector.supports(f4, packed), "packed floats are unpacked by the copying writers");
    assertTrue(ChunkValueVector.supports(i2, null));
    assertTrue(ChunkValueVector.supports(i2, packed));
    assertFalse(ChunkValueVector.supports(i2, new CfDecoding(new double[0], false, Double.NaN, 0, true, true, null)));
    assertTrue(ChunkValueVector.supports(DataType.numeric(DataType.Kind.UINT, 4, ByteOrder.LITTLE_ENDIAN), null));
    assertFalse(ChunkValueVector.supports(DataType.numeric(DataType.Kind.UINT, 8, ByteOrder.LITTLE_ENDIAN), null));
    assertFalse(ChunkValueVector.supports(DataType.numeric(DataType.Kind.FLOAT, 2, ByteOrder.LITTLE_ENDIAN), null));
  }

  /**
   * Integers of 1, 2 and 4 bytes, signed or not, plain, masked, and packed to float or double
   * (negative scale too): every row as the copying writers put it, bit for bit.
   */
  @Test
  void smallAndPackedIntegersMatchTheCopy() {
    java.util.Random random = new java.util.Random(5);
    CfDecoding[] decodings = {
        null,
        new CfDecoding(new double[] {-7, 200}, false, 1, 0, false, true, null),
        new CfDecoding(new double[] {-7}, false, 0.01, 273.15, true, true, null),
        new CfDecoding(new double[] {200}, false, -0.5, 3.25, true, false, null),
    };
    int rows = 1000;
    int casesWithNulls = 0;
    for (DataType.Kind kind : new DataType.Kind[] {DataType.Kind.INT, DataType.Kind.UINT}) {
      for (int size : new int[] {1, 2, 4}) {
        DataType t = DataType.numeric(kind, size, ByteOrder.LITTLE_ENDIAN);
        ByteBuffer b = ByteBuffer.allocate(rows * size).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < rows; r++) {
          long v = r % 97 == 0 ? -7 : r % 89 == 0 ? 200 : random.nextLong();
          switch (size) {
            case 1 -> b.put((byte) v);
            case 2 -> b.putShort((short) v);
            default -> b.putInt((int) v);
          }
        }
        for (CfDecoding cf : decodings) {
          if (kind == DataType.Kind.INT && size == 4 && cf != null && !cf.scaled()) {
            continue; // int32 masked: integersAndDoublesWithAMaskedValue
          }
          org.apache.spark.sql.types.DataType sparkType = cf == null || !cf.scaled()
              ? io.github.sparkzarr.spark.schema.SparkTypes.of(t) : cf.sparkType(null);
          ChunkValueVector v = new ChunkValueVector(b.array(), t, cf, rows, sparkType);
          OnHeapColumnVector copy = copy(b.array(), t, cf, rows, sparkType);
          for (int r = 0; r < rows; r++) {
            String at = kind + " " + size + " " + cf + " row " + r;
            assertEquals(copy.isNullAt(r), v.isNullAt(r), at);
            if (copy.isNullAt(r)) {
              continue;
            }
            if (sparkType == DataTypes.ByteType) {
              assertEquals(copy.getByte(r), v.getByte(r), at);
            } else if (sparkType == DataTypes.ShortType) {
              assertEquals(copy.getShort(r), v.getShort(r), at);
            } else if (sparkType == DataTypes.IntegerType) {
              assertEquals(copy.getInt(r), v.getInt(r), at);
            } else if (sparkType == DataTypes.LongType) {
              assertEquals(copy.getLong(r), v.getLong(r), at);
            } else if (sparkType == DataTypes.FloatType) {
              assertEquals(Float.floatToIntBits(copy.getFloat(r)), Float.floatToIntBits(v.getFloat(r)), at);
            } else {
              assertEquals(Double.doubleToLongBits(copy.getDouble(r)), Double.doubleToLongBits(v.getDouble(r)), at);
            }
          }
          assertEquals(copy.numNulls(), v.numNulls(), kind + " " + size + " " + cf);
          casesWithNulls += v.numNulls() > 0 ? 1 : 0;
        }
      }
    }
    // -7 is stored by the signed types, 200 by all but int8: 5 + 3 + 5 of the masking decodings
    assertEquals(13, casesWithNulls);
  }

  private static OnHeapColumnVector copy(byte[] bytes, DataType t, CfDecoding cf, int n,
      org.apache.spark.sql.types.DataType sparkType) {
    OnHeapColumnVector v = new OnHeapColumnVector(n, sparkType);
    ValueWriters.of(t, cf).write(ChunkData.ofBytes(t, new int[] {n}, bytes), 0, v, 0, n);
    return v;
  }
}
