package io.github.sparkzarr.zarr.codec.v3;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import java.io.IOException;

/** A v3 array→array codec (transpose): changes the element order or shape, not the bytes. */
public interface ArrayToArrayCodec extends V3Codec {

  /** The shape of the encoded array for a decoded array of {@code shape}. */
  int[] encodedShape(int[] shape);

  ChunkData encode(ChunkData decoded) throws IOException;

  /** Decodes back to {@code decodedShape}. */
  ChunkData decode(ChunkData encoded, int[] decodedShape) throws IOException;
}
