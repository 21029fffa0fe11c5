package io.github.sparkzarr.zarr.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.io.IOException;

/**
 * A compressor used as a v2 filter (numcodecs allows it): its output is raw bytes, and its input
 * is reinterpreted as the type the filter decodes to.
 */
public final class BytesCodecFilter implements ArrayFilter {
  private final BytesCodec codec;

  public BytesCodecFilter(BytesCodec codec) {
    this.codec = codec;
  }

  @Override
  public String id() {
    return codec.id();
  }

  @Override
  public ObjectNode toConfig() {
    return codec.toConfig();
  }

  /** The encoded length depends on the values. */
  @Override
  public int encodedCount(int count, DataType decodedType) {
    return -1;
  }

  @Override
  public DataType encodedType(DataType decodedType) {
    return DataType.fixedLength(DataType.Kind.RAW, 1, null);
  }

  @Override
  public ChunkData encode(ChunkData decoded) throws IOException {
    return ChunkData.ofRawBytes(codec.encode(decoded.bytes(), Math.max(1, decoded.type().size())));
  }

  @Override
  public ChunkData decode(ChunkData encoded, DataType decodedType, int count) throws IOException {
    if (decodedType.isVariableLength()) {
      throw new CodecException("compressor '" + codec.id() + "' cannot produce " + decodedType);
    }
    if (decodedType.kind() == DataType.Kind.RAW && decodedType.size() == 1) {
      return ChunkData.ofRawBytes(codec.decode(encoded.bytes(), -1));
    }
    int expected = Math.multiplyExact(count, decodedType.size());
    byte[] out = codec.decode(encoded.bytes(), expected);
    if (out.length != expected) {
      throw new CodecException(
          "filter '" + codec.id() + "' decoded " + out.length + " bytes, expected " + expected);
    }
    return ChunkData.ofBytes(decodedType, new int[] {count}, out);
  }
}
