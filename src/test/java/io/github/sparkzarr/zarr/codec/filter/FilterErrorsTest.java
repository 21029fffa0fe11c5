package io.github.sparkzarr.zarr.codec.filter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bad configurations and corrupt chunks fail with CodecException, never with wrong output. */
class FilterErrorsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final DataType STRING = DataType.variableLength(DataType.Kind.STRING);
  private static final DataType I4 = NumpyDtype.parse("<i4");

  private static ArrayFilter codec(String json) throws Exception {
    return (ArrayFilter) CodecRegistry.fromConfig(JSON.readTree(json));
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "{\"id\":\"delta\"}",
    "{\"id\":\"delta\",\"dtype\":4}",
    "{\"id\":\"delta\",\"dtype\":\"|O\"}",
    "{\"id\":\"delta\",\"dtype\":\"<c8\"}",
    "{\"id\":\"delta\",\"dtype\":\"|b1\"}",
    "{\"id\":\"delta\",\"dtype\":\"<i4\",\"astype\":\"<x9\"}",
    "{\"id\":\"fixedscaleoffset\",\"dtype\":\"<f8\",\"scale\":10}",
    "{\"id\":\"fixedscaleoffset\",\"dtype\":\"<f8\",\"scale\":10,\"offset\":\"1\"}",
    "{\"id\":\"quantize\",\"digits\":2,\"dtype\":\"<i4\"}",
    "{\"id\":\"quantize\",\"digits\":2.5,\"dtype\":\"<f4\"}",
    "{\"id\":\"quantize\",\"digits\":1000,\"dtype\":\"<f4\"}",
    "{\"id\":\"astype\",\"encode_dtype\":\"<f4\"}",
    "{\"id\":\"categorize\",\"labels\":\"a\",\"dtype\":\"|O\"}",
    "{\"id\":\"categorize\",\"labels\":[1],\"dtype\":\"|O\"}",
    "{\"id\":\"categorize\",\"labels\":[\"a\"],\"dtype\":\"<i4\"}",
    "{\"id\":\"bitround\",\"keepbits\":-1}",
    "{\"id\":\"bitround\"}",
    "{\"id\":\"shuffle\",\"elementsize\":\"4\"}",
    "{\"id\":\"json2\",\"indent\":2}",
    "{\"id\":\"json2\",\"encoding\":\"latin-1\"}",
    "{\"id\":\"json2\",\"separators\":[\",\"]}",
    "{\"id\":\"json2\",\"sort_keys\":\"yes\"}"
  })
  void badConfigurationsAreRejected(String config) {
    CodecException e = assertThrows(CodecException.class, () -> codec(config));
    assertTrue(e.getMessage().length() > 10, e.getMessage());
  }

  @Test
  void numericDecodeChecksTheElementCount() throws Exception {
    ArrayFilter delta = codec("{\"id\":\"delta\",\"dtype\":\"<i4\",\"astype\":\"<i2\"}");
    ChunkData enc = delta.encode(ChunkData.ofBytes(I4, new int[] {2}, new byte[8]));
    assertThrows(CodecException.class, () -> delta.decode(enc, I4, 3));
    ChunkData odd = ChunkData.ofRawBytes(new byte[3]);
    assertThrows(CodecException.class, () -> delta.decode(odd, I4, 1));
    assertThrows(CodecException.class, () -> delta.encodedType(STRING));
  }

  @Test
  void packbitsRejectsBadHeaders() throws Exception {
    ArrayFilter p = codec("{\"id\":\"packbits\"}");
    DataType bool = DataType.bool();
    assertThrows(CodecException.class, () -> p.decode(ChunkData.ofRawBytes(new byte[0]), bool, 0));
    assertThrows(CodecException.class, () -> p.decode(ChunkData.ofRawBytes(new byte[] {9, 0}), bool, 0));
    assertThrows(CodecException.class, () -> p.decode(ChunkData.ofRawBytes(new byte[] {3, 0}), bool, 8));
    assertEquals(5, p.decode(ChunkData.ofRawBytes(new byte[] {3, (byte) 0xf8}), bool, 5).elementCount());
  }

  @Test
  void vlenRejectsTruncatedAndMismatchedBuffers() throws Exception {
    ArrayFilter v = codec("{\"id\":\"vlen-utf8\"}");
    byte[] ok = v.encode(ChunkData.ofObjects(STRING, new int[] {2}, new Object[] {"ab", null})).bytes();
    assertThrows(CodecException.class, () -> v.decode(ChunkData.ofRawBytes(new byte[2]), STRING, 0));
    assertThrows(CodecException.class, () -> v.decode(ChunkData.ofRawBytes(ok), STRING, 3));
    byte[] cut = java.util.Arrays.copyOf(ok, ok.length - 3);
    assertThrows(CodecException.class, () -> v.decode(ChunkData.ofRawBytes(cut), STRING, 2));
    byte[] huge = {1, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 'a'};
    assertThrows(CodecException.class, () -> v.decode(ChunkData.ofRawBytes(huge), STRING, 1));
    byte[] manyItems = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    assertThrows(CodecException.class, () -> v.decode(ChunkData.ofRawBytes(manyItems), STRING, 1));
    byte[] badUtf8 = {1, 0, 0, 0, 2, 0, 0, 0, (byte) 0xc3, (byte) 0x28};
    assertThrows(CodecException.class, () -> v.decode(ChunkData.ofRawBytes(badUtf8), STRING, 1));
    assertThrows(CodecException.class,
        () -> v.encode(ChunkData.ofObjects(STRING, new int[] {1}, new Object[] {"\ud800"})));
    // numcodecs stores None as "", and reads "" back: nothing is invented
    assertEquals("", v.decode(ChunkData.ofRawBytes(ok), STRING, 2).objects()[1]);
  }

  @Test
  void json2RejectsMalformedChunks() throws Exception {
    ArrayFilter j = codec("{\"id\":\"json2\"}");
    DataType json = DataType.variableLength(DataType.Kind.JSON);
    for (String text : List.of("not json", "[1]", "[1,\"<i8\",[1]]", "[1,2,\"|O\",[3]]",
        "[1,\"|O\",[-1]]", "[[1,2],\"|O\",[2,2]]", "{\"a\":1}")) {
      ChunkData chunk = ChunkData.ofRawBytes(text.getBytes(StandardCharsets.UTF_8));
      assertThrows(CodecException.class, () -> j.decode(chunk, json, text.startsWith("[1,2") ? 2 : 1), text);
    }
    ChunkData nulls = j.decode(ChunkData.ofRawBytes("[null,\"x\",\"|O\",[2]]".getBytes(StandardCharsets.UTF_8)), STRING, 2);
    assertNull(nulls.objects()[0]);
    assertEquals("x", nulls.objects()[1]);
    assertThrows(CodecException.class,
        () -> j.decode(ChunkData.ofRawBytes("[1,\"|O\",[1]]".getBytes(StandardCharsets.UTF_8)), STRING, 1));
  }

  @Test
  void floatToUint32ThatNumpyLeavesUndefinedIsRefused() throws Exception {
    ArrayFilter a = codec("{\"id\":\"astype\",\"encode_dtype\":\"<u4\",\"decode_dtype\":\"<f8\"}");
    byte[] nan = new byte[8];
    java.nio.ByteBuffer.wrap(nan).order(java.nio.ByteOrder.LITTLE_ENDIAN).putDouble(Double.NaN);
    CodecException e = assertThrows(CodecException.class,
        () -> a.encode(ChunkData.ofBytes(NumpyDtype.parse("<f8"), new int[] {1}, nan)));
    assertTrue(e.getMessage().contains("uint32"), e.getMessage());
  }

  @Test
  void otherFiltersRejectWrongInput() throws Exception {
    DataType f2 = NumpyDtype.parse("<f2");
    assertThrows(CodecException.class, () -> codec("{\"id\":\"bitround\",\"keepbits\":11}").encodedType(f2));
    assertThrows(CodecException.class, () -> codec("{\"id\":\"bitround\",\"keepbits\":3}").encodedType(I4));
    assertThrows(CodecException.class, () -> codec("{\"id\":\"bitround\",\"keepbits\":3}")
        .encode(ChunkData.ofBytes(NumpyDtype.parse(">f4"), new int[] {1}, new byte[4])));
    assertThrows(CodecException.class, () -> codec("{\"id\":\"shuffle\",\"elementsize\":4}")
        .encode(ChunkData.ofBytes(NumpyDtype.parse("<i2"), new int[] {3}, new byte[6])));
    ArrayFilter cat = codec("{\"id\":\"categorize\",\"labels\":[\"a\"],\"dtype\":\"|O\"}");
    assertThrows(CodecException.class, () -> cat.encodedType(I4));
    assertThrows(CodecException.class, () -> cat.decode(ChunkData.ofRawBytes(new byte[2]), STRING, 3));
  }

  /** Random bytes into every decoder: either a result of the right size or a CodecException. */
  @Test
  void randomBytesNeverEscapeAsOtherExceptions() throws Exception {
    Random random = new Random(42);
    List<String> configs = List.of(
        "{\"id\":\"delta\",\"dtype\":\"<i4\",\"astype\":\"<i2\"}",
        "{\"id\":\"fixedscaleoffset\",\"dtype\":\"<f8\",\"astype\":\"|u1\",\"offset\":1,\"scale\":10}",
        "{\"id\":\"quantize\",\"digits\":2,\"dtype\":\"<f4\"}",
        "{\"id\":\"astype\",\"encode_dtype\":\"<f8\",\"decode_dtype\":\"<i4\"}",
        "{\"id\":\"packbits\"}", "{\"id\":\"shuffle\",\"elementsize\":4}",
        "{\"id\":\"bitround\",\"keepbits\":3}",
        "{\"id\":\"categorize\",\"labels\":[\"a\"],\"dtype\":\"<U2\",\"astype\":\"|u1\"}",
        "{\"id\":\"vlen-utf8\"}", "{\"id\":\"vlen-bytes\"}", "{\"id\":\"json2\"}");
    for (String config : configs) {
      ArrayFilter codec = codec(config);
      JsonNode c = JSON.readTree(config);
      DataType type = decodedTypeFor(c);
      for (int round = 0; round < 300; round++) {
        byte[] junk = new byte[random.nextInt(40)];
        random.nextBytes(junk);
        if (round % 3 == 0 && junk.length >= 4) {
          junk[1] = junk[2] = junk[3] = 0; // small item counts reach deeper into the vlen parser
        }
        int count = random.nextInt(12);
        try {
          ChunkData out = codec.decode(ChunkData.ofRawBytes(junk), type, count);
          assertEquals(count, out.elementCount(), config);
        } catch (CodecException expected) {
          // corrupt input must be reported, which is what happened
        }
      }
    }
  }

  private static DataType decodedTypeFor(JsonNode c) {
    return switch (c.get("id").asText()) {
      case "vlen-utf8" -> STRING;
      case "vlen-bytes" -> DataType.variableLength(DataType.Kind.VLEN_BYTES);
      case "json2" -> DataType.variableLength(DataType.Kind.JSON);
      case "packbits" -> DataType.bool();
      case "categorize" -> NumpyDtype.parse("<U2");
      case "quantize", "bitround" -> NumpyDtype.parse("<f4");
      case "fixedscaleoffset" -> NumpyDtype.parse("<f8");
      default -> I4;
    };
  }
}
