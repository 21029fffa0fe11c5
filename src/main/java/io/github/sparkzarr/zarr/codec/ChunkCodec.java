package io.github.sparkzarr.zarr.codec;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import java.io.IOException;

/**
 * An array's whole codec chain: turns a stored chunk into elements and back. Each format builds
 * one from its metadata (v2: order, filters and compressor), so reading has a single path.
 */
public interface ChunkCodec {

  /**
   * Decodes a stored chunk into a little-endian, C-order chunk of {@code chunkShape}.
   *
   * @throws CodecException if the data is corrupt or decodes to the wrong size
   */
  ChunkData decode(byte[] stored, int[] chunkShape) throws IOException;

  /** Encodes a little-endian, C-order chunk (of the full chunk shape) for storage. */
  byte[] encode(ChunkData chunk) throws IOException;
}
