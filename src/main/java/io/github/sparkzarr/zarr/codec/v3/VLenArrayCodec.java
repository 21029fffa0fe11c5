package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.filter.VLenBytes;
import io.github.sparkzarr.zarr.codec.filter.VLenUtf8;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.metadata.Json;
import java.io.IOException;

/** The v3 "vlen-utf8" and "vlen-bytes" codecs: numcodecs' vlen framing of the flat chunk. */
public final class VLenArrayCodec implements ArrayToBytesCodec {
  private final String name;
  private final ArrayFilter framing;

  private VLenArrayCodec(String name, ArrayFilter framing) {
    this.name = name;
    this.framing = framing;
  }

  public static VLenArrayCodec utf8() {
    return new VLenArrayCodec(VLenUtf8.ID, new VLenUtf8());
  }

  public static VLenArrayCodec bytes() {
    return new VLenArrayCodec(VLenBytes.ID, new VLenBytes());
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode node = Json.object().put("name", name);
    node.putObject("configuration");
    return node;
  }

  @Override
  public byte[] encode(ChunkData chunk) throws IOException {
    return framing.encode(chunk.reshape(new int[] {chunk.elementCount()})).bytes();
  }

  @Override
  public ChunkData decode(byte[] encoded, DataType type, int[] shape) throws IOException {
    int count = Math.toIntExact(ChunkData.count(shape));
    return framing.decode(ChunkData.ofRawBytes(encoded), type, count).reshape(shape);
  }
}
