package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.io.IOException;

/**
 * A numcodecs filter that zarr-python 3 runs on a chunk's bytes ({@code numcodecs.shuffle}): it
 * sees them as single bytes, as the numpy uint8 array zarr-python hands it.
 */
final class FilterBytesCodec implements BytesCodec {
  private static final DataType BYTE = DataType.fixedLength(DataType.Kind.RAW, 1, null);
  private final ArrayFilter filter;

  FilterBytesCodec(ArrayFilter filter) {
    this.filter = filter;
  }

  @Override
  public String id() {
    return filter.id();
  }

  @Override
  public ObjectNode toConfig() {
    return filter.toConfig();
  }

  @Override
  public byte[] encode(byte[] input, int itemSize) throws IOException {
    return filter.encode(ChunkData.ofRawBytes(input)).bytes();
  }

  @Override
  public byte[] decode(byte[] input, int decodedSize) throws IOException {
    if (decodedSize >= 0 && input.length != decodedSize) {
      throw new CodecException("codec '" + id() + "' holds " + input.length + " bytes, expected " + decodedSize);
    }
    return filter.decode(ChunkData.ofRawBytes(input), BYTE, input.length).bytes();
  }
}
