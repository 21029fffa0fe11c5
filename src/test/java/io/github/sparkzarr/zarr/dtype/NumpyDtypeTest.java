package io.github.sparkzarr.zarr.dtype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class NumpyDtypeTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void typeStringsRoundTrip() {
    for (String s : new String[] {"|b1", "|i1", "<i2", ">i8", "|u1", ">u4", "<f2", ">f8", "<c8",
        ">c16", "<M8[ns]", ">m8[D]", "<M8[10s]", "<M8", "|S0", "|S12", "<U3", ">U1", "|V5"}) {
      assertEquals(s, NumpyDtype.toText(NumpyDtype.parse(s)), s);
    }
  }

  /** zarr-python 3 writes numpy's names ({@code str(np.dtype(...))}) into numcodecs configurations. */
  @Test
  void numpyNamesAreTheLittleEndianTypes() {
    String[][] pairs = {{"bool", "|b1"}, {"int8", "|i1"}, {"uint8", "|u1"}, {"int16", "<i2"},
        {"uint16", "<u2"}, {"int32", "<i4"}, {"uint32", "<u4"}, {"int64", "<i8"}, {"uint64", "<u8"},
        {"float16", "<f2"}, {"float32", "<f4"}, {"float64", "<f8"}, {"complex64", "<c8"},
        {"complex128", "<c16"}, {">f4", ">f4"}};
    for (String[] p : pairs) {
      assertEquals(p[1], NumpyDtype.toText(NumpyDtype.parseTypeOrName(p[0])), p[0]);
    }
    assertThrows(IllegalArgumentException.class, () -> NumpyDtype.parseTypeOrName("float128"));
    assertThrows(IllegalArgumentException.class, () -> NumpyDtype.parse("float32"), "metadata keeps type strings");
  }

  @Test
  void parsesWhatTheStringSays() {
    DataType t = NumpyDtype.parse(">M8[15m]");
    assertEquals(DataType.Kind.DATETIME, t.kind());
    assertEquals("m", t.unit());
    assertEquals(15, t.unitCount());
    assertEquals(ByteOrder.BIG_ENDIAN, t.order());
    assertEquals(20, NumpyDtype.parse("<U5").size());
    assertEquals("us", NumpyDtype.parse("<m8[μs]").unit());
  }

  @Test
  void structuredTypesKeepOffsetsAndSubarrays() throws Exception {
    JsonNode json = JSON.readTree(
        "[[\"a\",\"<i4\"],[\"\",\"|V4\"],[\"b\",\">f8\",[2,3]],[\"c\",[[\"x\",\"|u1\"],[\"y\",\"<U2\"]]]]");
    DataType t = NumpyDtype.parse(json);
    assertEquals(4 + 4 + 48 + 9, t.size());
    assertEquals(3, t.fields().size());
    assertEquals(8, t.fields().get(1).offset());
    assertEquals(6, t.fields().get(1).count());
    assertEquals(56, t.fields().get(2).offset());
    assertTrue(t.needsSwap());
    assertEquals(json, NumpyDtype.toJson(t));
  }

  @Test
  void rejectsNonsense() {
    for (String s : new String[] {"<i3", "<f1", "|b2", "<M8[xs]", "<i4[ns]", "Q", "", "<U"}) {
      assertThrows(IllegalArgumentException.class, () -> NumpyDtype.parse(s), s);
    }
  }

  @Test
  void swapsEveryBigEndianPart() {
    DataType c = NumpyDtype.parse(">c8");
    byte[] data = {1, 2, 3, 4, 5, 6, 7, 8};
    ByteSwapper.swapBigEndianParts(c, data, 0, 1);
    assertEquals("[4, 3, 2, 1, 8, 7, 6, 5]", java.util.Arrays.toString(data));
  }

  @Test
  void halfFloatRoundTripsEveryHalfValue() {
    for (int h = 0; h < 0x10000; h++) {
      float f = (float) HalfFloat.toDouble((short) h);
      short back = HalfFloat.fromDouble(f);
      if (Float.isNaN(f)) {
        assertTrue(Float.isNaN((float) HalfFloat.toDouble(back)));
      } else {
        assertEquals((short) h, back, "half 0x" + Integer.toHexString(h));
      }
    }
    assertEquals((short) 0x3c00, HalfFloat.fromDouble(1.0));
    assertEquals((short) 0x7c00, HalfFloat.fromDouble(65520.0)); // rounds to infinity
    assertEquals((short) 0x7bff, HalfFloat.fromDouble(65519.0));
    assertEquals((short) 0x0000, HalfFloat.fromDouble(0x1p-25)); // ties to even: zero
    assertEquals((short) 0x0001, HalfFloat.fromDouble(0x1.8p-25));
  }

  /** Every float16, widened from an odd offset, is the float32 of its exact value (NaN payloads kept). */
  @Test
  void halfFloatsWidenToTheirExactFloats() {
    byte[] halves = new byte[3 + 2 * 0x10000];
    for (int h = 0; h < 0x10000; h++) {
      halves[3 + 2 * h] = (byte) h;
      halves[4 + 2 * h] = (byte) (h >>> 8);
    }
    byte[] floats = new byte[4 * 0x10000];
    HalfFloat.widen(halves, 3, 0x10000, floats);
    java.nio.ByteBuffer widened = java.nio.ByteBuffer.wrap(floats).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int h = 0; h < 0x10000; h++) {
      float exact = (float) HalfFloat.toDouble((short) h);
      assertEquals(Float.floatToRawIntBits(exact), Float.floatToRawIntBits(widened.getFloat(4 * h)),
          "half 0x" + Integer.toHexString(h));
      assertEquals(Float.floatToRawIntBits(exact), Float.floatToRawIntBits(HalfFloat.toFloat((short) h)));
    }
  }
}
