package io.github.sparkzarr.zarr.codec.filter;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.RunDecoder;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;
import java.io.IOException;

/**
 * A numcodecs filter configured with a decoded {@code dtype} and an encoded {@code astype}. Like
 * numcodecs, it views its input bytes as its configured type ({@code buf.view(dtype)}) whatever
 * type the caller gives them, so it produces the bytes zarr-python produces.
 */
abstract class ViewFilter implements ArrayFilter {
  protected final DataType dtype;
  protected final DataType astype;

  ViewFilter(DataType dtype, DataType astype) {
    this.dtype = dtype;
    this.astype = astype;
  }

  /** The encoded values of {@code decoded}, which holds elements of {@code dtype}. */
  abstract NumericArray encodeValues(NumericArray decoded) throws CodecException;

  /** The decoded values of {@code encoded}, which holds elements of {@code astype}. */
  abstract NumericArray decodeValues(NumericArray encoded) throws CodecException;

  /**
   * Whether this filter only casts between {@code dtype} and {@code astype} and both are {@code
   * decodedType}: decoding then gives back the bytes it is given (for filters that cast when
   * decoding, as quantize and astype do).
   */
  boolean castsToItself(DataType decodedType) {
    return astype.equals(dtype) && dtype.equals(decodedType);
  }

  /**
   * Decodes runs when this filter's types have a loop without per-element dispatch ({@link
   * #valueRuns}) and its elements are as wide as {@code decodedType}'s, as {@link #decode} requires.
   */
  @Override
  public final RunDecoder runDecoder(DataType decodedType) {
    return decodedType.isVariableLength() || dtype.size() != decodedType.size() ? null : valueRuns();
  }

  /**
   * A decoder of runs of {@code astype} elements into {@code dtype} ones giving {@link
   * #decodeValues}'s bits, when a loop without per-element dispatch does this filter's types;
   * else null.
   */
  RunDecoder valueRuns() {
    return null;
  }

  @Override
  public DataType producedType(DataType decodedType) {
    return dtype;
  }

  @Override
  public DataType encodedType(DataType decodedType) throws CodecException {
    if (decodedType.isVariableLength()) {
      throw new CodecException("filter '" + id() + "' cannot encode " + decodedType + " elements");
    }
    return astype;
  }

  @Override
  public ChunkData encode(ChunkData decoded) throws IOException {
    encodedType(decoded.type());
    NumericArray out = encodeValues(view(decoded.bytes(), dtype));
    return ChunkData.ofBytes(astype, new int[] {out.length()}, out.bytes());
  }

  @Override
  public ChunkData decode(ChunkData encoded, DataType decodedType, int count) throws IOException {
    encodedType(decodedType);
    NumericArray out = decodeValues(view(encoded.bytes(), astype));
    long expected = (long) count * decodedType.size();
    if (out.bytes().length != expected) {
      throw new CodecException(
          "filter '" + id() + "' decoded " + out.bytes().length + " bytes, expected " + count
              + " elements of " + decodedType + " (" + expected + " bytes)");
    }
    return ChunkData.ofBytes(decodedType, new int[] {count}, out.bytes());
  }

  private NumericArray view(byte[] bytes, DataType type) throws CodecException {
    if (bytes.length % type.size() != 0) {
      throw new CodecException(
          "filter '" + id() + "': " + bytes.length + " bytes are not a whole number of " + type
              + " elements");
    }
    return NumericArray.wrap(type, bytes);
  }
}
