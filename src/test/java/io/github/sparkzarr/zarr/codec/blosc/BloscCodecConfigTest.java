package io.github.sparkzarr.zarr.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import org.junit.jupiter.api.Test;

class BloscCodecConfigTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static JsonNode json(String s) throws Exception {
    return JSON.readTree(s);
  }

  @Test
  void registryBuildsBloscFromNumcodecsConfig() throws Exception {
    String config = "{\"id\":\"blosc\",\"cname\":\"zstd\",\"clevel\":3,\"shuffle\":2,\"blocksize\":0}";
    BloscCodec codec = assertInstanceOf(BloscCodec.class, CodecRegistry.fromConfig(json(config)));
    assertEquals("blosc", codec.id());
    assertEquals(json(config), codec.toConfig());
  }

  @Test
  void numcodecsDefaults() throws Exception {
    assertEquals(
        json("{\"id\":\"blosc\",\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":1,\"blocksize\":0}"),
        BloscCodec.fromConfig(json("{\"id\":\"blosc\"}")).toConfig());
  }

  @Test
  void invalidConfigurations() {
    for (String bad :
        new String[] {
          "{\"id\":\"blosc\",\"cname\":\"lzma\"}",
          "{\"id\":\"blosc\",\"clevel\":10}",
          "{\"id\":\"blosc\",\"shuffle\":3}",
          "{\"id\":\"blosc\",\"blocksize\":-1}",
          "{\"id\":\"blosc\",\"clevel\":\"high\"}"
        }) {
      assertThrows(CodecException.class, () -> BloscCodec.fromConfig(json(bad)), bad);
    }
  }

  @Test
  void v3ConfigUsesItsTypesize() throws Exception {
    BloscCodec codec =
        BloscCodec.fromV3Config(
            json(
                "{\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":\"bitshuffle\",\"typesize\":4,"
                    + "\"blocksize\":0}"));
    byte[] raw = new byte[4096];
    for (int i = 0; i < raw.length; i++) {
      raw[i] = (byte) (i / 16);
    }
    byte[] frame = codec.encode(raw, 1);
    assertEquals(4, frame[3]);
    assertEquals(BloscHeader.FLAG_BIT_SHUFFLE, frame[2] & 0x07);
    assertArrayEquals(raw, codec.decode(frame, raw.length));
    assertThrows(
        CodecException.class,
        () -> BloscCodec.fromV3Config(json("{\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":1}")));
  }

  @Test
  void autoShuffleAndLargeItems() throws Exception {
    BloscCodec auto = BloscCodec.fromConfig(json("{\"id\":\"blosc\",\"shuffle\":-1}"));
    byte[] raw = new byte[1000];
    assertEquals(BloscHeader.FLAG_BIT_SHUFFLE, auto.encode(raw, 1)[2] & 0x07);
    assertEquals(BloscHeader.FLAG_BYTE_SHUFFLE, auto.encode(raw, 8)[2] & 0x07);
    byte[] big = auto.encode(new byte[3000], 300); // typesize > 255 is treated as 1
    assertEquals(1, big[3]);
    assertArrayEquals(new byte[3000], auto.decode(big, 3000));
    assertArrayEquals(new byte[0], auto.decode(auto.encode(new byte[0], 4), 0));
  }
}
