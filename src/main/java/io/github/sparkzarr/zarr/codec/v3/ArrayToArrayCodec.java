package io.github.sparkzarr.zarr.codec.v3;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.codec.RunDecoder;
import java.io.IOException;

/**
 * A v3 array→array codec: transpose changes the element order; numcodecs filters (zarr-python 3's
 * {@code numcodecs.*}) change the values, and some the type or the number of elements.
 */
public interface ArrayToArrayCodec extends V3Codec {

  /** The shape of the encoded array for a decoded array of {@code shape}: the same unless overridden. */
  default int[] encodedShape(int[] shape) {
    return shape.clone();
  }

  /** The type of the encoded elements; the decoded type for codecs that keep it. */
  default DataType encodedType(DataType decodedType) {
    return decodedType;
  }

  /**
   * Whether decoding gives back exactly what it is given (filters that only work when encoding,
   * such as bitround), so a reader may leave this codec out.
   */
  default boolean decodesUnchanged() {
    return false;
  }

  /**
   * A decoder of this codec's elements a run at a time for one chunk, when it keeps their number
   * and order and a loop decodes its types so; else null.
   */
  default RunDecoder runDecoder() {
    return null;
  }

  ChunkData encode(ChunkData decoded) throws IOException;

  /** Decodes back to {@code decodedShape}. */
  ChunkData decode(ChunkData encoded, int[] decodedShape) throws IOException;
}
