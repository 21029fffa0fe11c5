package io.github.sparkzarr.zarr.codec;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.io.IOException;

/**
 * A numcodecs filter (delta, fixedscaleoffset, ...) or object codec (vlen-utf8, vlen-bytes,
 * json): it transforms a flat array of elements in storage order and byte order.
 *
 * <p>v2 encoding applies filters in order, then the compressor; decoding runs them in reverse. The
 * pipeline works out each stage's type with {@link #encodedType}.
 */
public interface ArrayFilter extends Codec {

  /**
   * The type of the encoded elements, given the type of the elements this filter encodes. Object
   * codecs return raw bytes (RAW of size 1).
   *
   * @throws CodecException if this filter cannot encode {@code decodedType}
   */
  DataType encodedType(DataType decodedType) throws CodecException;

  /**
   * How many elements encoding {@code count} elements gives, or -1 when that depends on the
   * values (object codecs). Most filters keep the count.
   */
  default int encodedCount(int count, DataType decodedType) {
    return count;
  }

  /** Encodes a flat array of {@code decoded.type()}. */
  ChunkData encode(ChunkData decoded) throws IOException;

  /**
   * Decodes a flat array of {@code encodedType(decodedType)} into {@code count} elements of
   * {@code decodedType}.
   */
  ChunkData decode(ChunkData encoded, DataType decodedType, int count) throws IOException;

  /**
   * The type {@link #decode} really produces when asked for {@code decodedType}: filters configured
   * with a {@code dtype} (delta, fixedscaleoffset, ...) view their output as that type whatever they
   * are asked for, as numcodecs does.
   */
  default DataType producedType(DataType decodedType) {
    return decodedType;
  }

  /**
   * Whether decoding elements of {@code decodedType} gives back the encoded bytes unchanged (lossy
   * filters such as bitround work only when encoding), so a scan may leave this filter out and
   * read the decompressed bytes where they lie.
   */
  default boolean decodesUnchanged(DataType decodedType) {
    return false;
  }

  /**
   * A decoder of this filter's elements into {@code decodedType} a run at a time, for one chunk,
   * or null when this filter decodes those types only whole. Its output has the size of {@code
   * decodedType} per element.
   */
  default RunDecoder runDecoder(DataType decodedType) {
    return null;
  }
}
