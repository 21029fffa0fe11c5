package io.github.sparkzarr.zarr.v3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.codec.v3.V3Codecs;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;
import io.github.sparkzarr.zarr.dtype.V3DataTypes;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V3FillValues;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The zarr-extensions scale_offset and cast_value codecs when encoding (decoding is checked
 * against the corpus in V3NumcodecsCorpusTest): every rounding mode, the out-of-range rules,
 * scalar maps, and the errors.
 */
class ScaleOffsetCastValueTest {
  private static final double[] HALVES = {-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7, -2.7};

  private static V3ChunkCodec chain(String arrayType, String codec) throws Exception {
    DataType type = V3DataTypes.parse(Json.nodes().textNode(arrayType));
    String codecs = "[" + codec + ",{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]";
    return V3Codecs.parse(Json.parse(codecs.getBytes(StandardCharsets.UTF_8), "test", "codecs"), type,
        V3FillValues.parse(Json.nodes().numberNode(0), type), new int[] {1});
  }

  private static ChunkData doubles(double... v) {
    NumericArray a = NumericArray.allocate(V3DataTypes.parse(Json.nodes().textNode("float64")), v.length);
    for (int i = 0; i < v.length; i++) {
      a.setDouble(i, v[i]);
    }
    return ChunkData.ofBytes(a.type(), new int[] {v.length}, a.bytes());
  }

  private static byte[] int8s(int... v) {
    byte[] b = new byte[v.length];
    for (int i = 0; i < v.length; i++) {
      b[i] = (byte) v[i];
    }
    return b;
  }

  private static String castTo(String type, String more) {
    return "{\"name\":\"cast_value\",\"configuration\":{\"data_type\":\"" + type + "\"" + more + "}}";
  }

  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "nearest-even;-2,-2,0,0,2,2,3,-3", "towards-zero;-2,-1,0,0,1,2,2,-2",
      "towards-positive;-2,-1,0,1,2,3,3,-2", "towards-negative;-3,-2,-1,0,1,2,2,-3",
      "nearest-away;-3,-2,-1,1,2,3,3,-3"})
  void everyRoundingMode(String mode, String want) throws Exception {
    V3ChunkCodec c = chain("float64", castTo("int8", ",\"rounding\":\"" + mode + "\""));
    int[] expected = java.util.Arrays.stream(want.split(",")).mapToInt(Integer::parseInt).toArray();
    assertArrayEquals(int8s(expected), c.encode(doubles(HALVES)), mode);
  }

  @Test
  void outOfRangeIsAnErrorUnlessClampedOrWrapped() throws Exception {
    CodecException e = assertThrows(CodecException.class,
        () -> chain("float64", castTo("int8", "")).encode(doubles(300)));
    assertTrue(e.getMessage().contains("300 is outside |i1"), e.getMessage());
    assertArrayEquals(int8s(127, -128), chain("float64", castTo("int8", ",\"out_of_range\":\"clamp\"")).encode(doubles(300, -1e9)));
    assertArrayEquals(int8s(44, 127), chain("float64", castTo("int8", ",\"out_of_range\":\"wrap\"")).encode(doubles(300, -129)));
    assertArrayEquals(int8s(127), chain("int32", castTo("int8", ",\"out_of_range\":\"clamp\""))
        .encode(ChunkData.ofBytes(V3DataTypes.parse(Json.nodes().textNode("int32")), new int[] {1}, new byte[] {0, 1, 0, 0})));
    assertThrows(CodecException.class, () -> chain("float64", castTo("float32", ",\"out_of_range\":\"wrap\"")));
  }

  @Test
  void nanNeedsAScalarMapEntry() throws Exception {
    CodecException e = assertThrows(CodecException.class,
        () -> chain("float64", castTo("int8", "")).encode(doubles(Double.NaN)));
    assertTrue(e.getMessage().contains("NaN has no |i1 value"), e.getMessage());
    V3ChunkCodec mapped = chain("float64", castTo("int8",
        ",\"scalar_map\":{\"encode\":[[\"NaN\",-128]],\"decode\":[[-128,\"NaN\"]]}"));
    byte[] stored = mapped.encode(doubles(Double.NaN, 5));
    assertArrayEquals(int8s(-128, 5), stored);
    NumericArray back = NumericArray.wrap(mapped.type(), mapped.decode(stored, new int[] {2}).bytes());
    assertTrue(Double.isNaN(back.getDouble(0)));
    assertEquals(5.0, back.getDouble(1));
  }

  @Test
  void integerScaleOffsetIsExact() throws Exception {
    V3ChunkCodec c = chain("int8", "{\"name\":\"scale_offset\",\"configuration\":{\"offset\":100,\"scale\":2}}");
    DataType int8 = c.type();
    assertArrayEquals(int8s(6), c.encode(ChunkData.ofBytes(int8, new int[] {1}, int8s(103))));
    assertArrayEquals(int8s(103), c.decode(int8s(6), new int[] {1}).bytes());
    CodecException odd = assertThrows(CodecException.class, () -> c.decode(int8s(7), new int[] {1}));
    assertTrue(odd.getMessage().contains("not a multiple of the scale 2"), odd.getMessage());
    CodecException big = assertThrows(CodecException.class,
        () -> c.encode(ChunkData.ofBytes(int8, new int[] {1}, int8s(-100))));
    assertTrue(big.getMessage().contains("outside |i1"), big.getMessage());
    assertThrows(CodecException.class, () -> chain("int8", "{\"name\":\"scale_offset\",\"configuration\":{\"scale\":0}}"));
    assertThrows(CodecException.class, () -> chain("uint64", "{\"name\":\"scale_offset\"}"));
  }
}
