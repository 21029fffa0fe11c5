package io.github.sparkzarr.zarr.v3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.v3.V3Codecs;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.V3DataTypes;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V3FillValues;
import io.github.sparkzarr.zarr.store.MemoryStore;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** v3 data type names and every fill value form, parsed to memory bytes and written back. */
class V3TypesAndFillValuesTest {

  private static JsonNode json(String text) throws Exception {
    return Json.parse(text.getBytes(StandardCharsets.UTF_8), "test", "zarr.json");
  }

  private static DataType type(String json) throws Exception {
    return V3DataTypes.parse(json(json));
  }

  /** The fill element as little-endian hex, and the JSON written back. */
  private static void fill(String dtype, String value, String hex, String written) throws Exception {
    DataType t = type(dtype);
    FillValue f = V3FillValues.parse(json(value), t);
    assertEquals(hex, HexFormat.of().formatHex(f.element()), dtype + " " + value);
    assertEquals(json(written).toString(), V3FillValues.toJson(t, f).toString(), dtype + " " + value);
  }

  @Test
  void everyFillValueForm() throws Exception {
    fill("\"bool\"", "true", "01", "true");
    fill("\"int16\"", "-2", "feff", "-2");
    fill("\"uint64\"", "18446744073709551615", "ffffffffffffffff", "18446744073709551615");
    fill("\"int64\"", "-9223372036854775808", "0000000000000080", "-9223372036854775808");
    fill("\"float64\"", "\"NaN\"", "000000000000f87f", "\"NaN\"");
    fill("\"float32\"", "\"Infinity\"", "0000807f", "\"Infinity\"");
    fill("\"float32\"", "\"-Infinity\"", "000080ff", "\"-Infinity\"");
    fill("\"float32\"", "\"0x7fc00001\"", "0100c07f", "\"0x7fc00001\"");
    fill("\"float64\"", "\"0x3ff0000000000000\"", "000000000000f03f", "1.0");
    fill("\"float16\"", "1.5", "003e", "1.5");
    fill("\"complex64\"", "[1.0, \"NaN\"]", "0000803f0000c07f", "[1.0, \"NaN\"]");
    fill("\"r16\"", "[1, 255]", "01ff", "[1, 255]");
    // zarr-python 3's "raw_bytes" with its base64 fill value (written back in the spec's form)
    fill("{\"name\":\"raw_bytes\",\"configuration\":{\"length_bytes\":2}}", "\"Af8=\"", "01ff", "[1, 255]");
    fill("{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"ns\",\"scale_factor\":1}}",
        "\"NaT\"", "0000000000000080", "-9223372036854775808");
    fill("{\"name\":\"numpy.timedelta64\",\"configuration\":{\"unit\":\"s\",\"scale_factor\":10}}",
        "5", "0500000000000000", "5");
    fill("{\"name\":\"fixed_length_utf32\",\"configuration\":{\"length_bytes\":8}}", "\"é\"",
        "e900000000000000", "\"é\"");
    DataType bytes = type("\"bytes\"");
    assertArrayEquals(new byte[] {1, 2}, (byte[]) V3FillValues.parse(json("[1, 2]"), bytes).object());
    assertEquals("x", V3FillValues.parse(json("\"x\""), type("\"string\"")).object());
  }

  /** Records: "struct" written back as read, zarr-python 3.0's "structured" read into the same type. */
  @Test
  void recordsInBothForms() throws Exception {
    String struct = "{\"name\":\"struct\",\"configuration\":{\"fields\":[{\"name\":\"a\",\"data_type\":\"int16\"},"
        + "{\"name\":\"b\",\"data_type\":\"float32\"}]}}";
    String structured = "{\"name\":\"structured\",\"configuration\":{\"fields\":[[\"a\",\"int16\"],[\"b\",\"float32\"]]}}";
    DataType t = type(struct);
    assertEquals(6, t.size());
    assertEquals(2, t.fields().get(1).offset());
    assertEquals(t, type(structured));
    assertEquals(json(struct), V3DataTypes.toJson(t));
    fill(struct, "{\"a\": -2, \"b\": \"NaN\"}", "feff0000c07f", "{\"a\": -2, \"b\": \"NaN\"}");
    fill(structured, "\"/v8AAMB/\"", "feff0000c07f", "{\"a\": -2, \"b\": \"NaN\"}");
    for (String bad : new String[] {"{\"a\": 1}", "{\"a\": 1, \"b\": 2, \"c\": 3}", "\"AQ==\"", "[1, 2]"}) {
      assertThrows(IllegalArgumentException.class, () -> V3FillValues.parse(json(bad), t), bad);
    }
    assertThrows(IllegalArgumentException.class, () -> type("{\"name\":\"struct\",\"configuration\":{\"fields\":[]}}"));
    assertThrows(IllegalArgumentException.class,
        () -> type("{\"name\":\"struct\",\"configuration\":{\"fields\":[[\"s\",\"string\"]]}}"));
  }

  @Test
  void badFillValuesAreRejected() throws Exception {
    for (String[] c : new String[][] {{"\"bool\"", "0"}, {"\"int8\"", "128"}, {"\"uint8\"", "-1"},
        {"\"float32\"", "\"0x7fc0\""}, {"\"float32\"", "\"nan\""}, {"\"r16\"", "[1]"}, {"\"r16\"", "\"AQ==\""}, {"\"int32\"", "null"},
        {"\"complex64\"", "1.0"}}) {
      assertThrows(IllegalArgumentException.class, () -> V3FillValues.parse(json(c[1]), type(c[0])), c[0] + " " + c[1]);
    }
  }

  @Test
  void dataTypesRoundTrip() throws Exception {
    for (String name : new String[] {"\"bool\"", "\"int8\"", "\"uint32\"", "\"float16\"", "\"complex128\"",
        "\"r24\"", "\"string\"", "\"bytes\"",
        "{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"ms\",\"scale_factor\":1}}",
        "{\"name\":\"null_terminated_bytes\",\"configuration\":{\"length_bytes\":3}}"}) {
      assertEquals(json(name), V3DataTypes.toJson(type(name)), name);
    }
    assertThrows(IllegalArgumentException.class, () -> type("\"r7\""));
    assertEquals(json("\"r24\""), V3DataTypes.toJson(type("{\"name\":\"raw_bytes\",\"configuration\":{\"length_bytes\":3}}")));
    assertThrows(IllegalArgumentException.class, () -> type("{\"name\":\"raw_bytes\",\"configuration\":{\"length_bytes\":0}}"));
    assertThrows(IllegalArgumentException.class, () -> type("{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"fortnight\"}}"));
  }

  @Test
  void shardIndexAtTheStartRoundTrips() throws Exception {
    DataType t = type("\"uint16\"");
    FillValue fill = V3FillValues.parse(json("7"), t);
    var codecs = json("[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[2,3],"
        + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},{\"name\":\"gzip\",\"configuration\":{\"level\":1}}],"
        + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}],"
        + "\"index_location\":\"start\"}}]");
    MemoryStore store = new MemoryStore();
    ArrayMetadata md = new ArrayMetadata(3, new long[] {5, 7}, new int[] {4, 6}, t, fill,
        V3Codecs.parse(codecs, t, fill, new int[] {4, 6}), ChunkKeyEncoding.v3Default('/'), null, Json.object());
    ZarrArray a = ZarrHierarchy.writeArrayV3(store, "a", md);
    ByteBuffer b = ByteBuffer.allocate(2 * 3 * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 12; i++) {
      b.putShort((short) (1000 + i));
    }
    a.write(new long[] {1, 2}, ChunkData.ofBytes(t, new int[] {3, 4}, b.array()));
    ChunkData all = ZarrArray.open(store, "a").readAll();
    ByteBuffer r = ByteBuffer.wrap(all.bytes()).order(ByteOrder.LITTLE_ENDIAN);
    for (int y = 0; y < 5; y++) {
      for (int x = 0; x < 7; x++) {
        boolean inside = y >= 1 && y < 4 && x >= 2 && x < 6;
        assertEquals(inside ? 1000 + (y - 1) * 4 + (x - 2) : 7, r.getShort(), "at " + y + "," + x);
      }
    }
    assertEquals(json(new String(store.get("a/zarr.json").orElseThrow(), StandardCharsets.UTF_8)).get("codecs"), codecs);
  }
}
