package io.github.sparkzarr.zarr.codec.v3;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.io.IOException;

/** A v3 array→bytes codec (bytes, vlen-utf8, vlen-bytes, sharding_indexed). */
public interface ArrayToBytesCodec extends V3Codec {

  /** Serializes a little-endian, C-order chunk. */
  byte[] encode(ChunkData chunk) throws IOException;

  /** Deserializes into a little-endian, C-order chunk of {@code type} and {@code shape}. */
  ChunkData decode(byte[] encoded, DataType type, int[] shape) throws IOException;

  /** The exact length of a serialized chunk of {@code type} and {@code shape}, or -1 if it varies. */
  default int encodedSize(DataType type, int[] shape) {
    return -1;
  }
}
