package io.github.sparkzarr.zarr.v3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.codec.v3.V3Codecs;
import io.github.sparkzarr.zarr.dtype.V3DataTypes;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V3FillValues;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Codec names other writers use for codecs we know under another name. */
class V3CodecNamesTest {

  /** "endian", the early v3 drafts' name of "bytes" (zarr-python 3 still reads it). */
  @Test
  void endianIsTheBytesCodec() throws Exception {
    var type = V3DataTypes.parse(Json.nodes().textNode("int32"));
    var fill = V3FillValues.parse(Json.nodes().numberNode(0), type);
    var codecs = Json.parse(("[{\"name\":\"endian\",\"configuration\":{\"endian\":\"big\"}},"
        + "{\"name\":\"gzip\",\"configuration\":{\"level\":1}}]").getBytes(StandardCharsets.UTF_8), "test", "codecs");
    V3ChunkCodec chain = V3Codecs.parse(codecs, type, fill, new int[] {3});
    assertEquals("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}},"
        + "{\"name\":\"gzip\",\"configuration\":{\"level\":1}}]", chain.toJson().toString());
    byte[] values = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putInt(1).putInt(-2).putInt(300).array();
    byte[] stored = chain.encode(ChunkData.ofBytes(type, new int[] {3}, values));
    byte[] raw = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(stored)).readAllBytes();
    assertArrayEquals(ByteBuffer.allocate(12).putInt(1).putInt(-2).putInt(300).array(), raw, "stored big-endian");
    assertArrayEquals(values, chain.decode(stored, new int[] {3}).bytes());
  }
}
