package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;

/**
 * numcodecs BitRound: rounds float mantissas to {@code keepbits} bits (half to even, on the
 * integer view of the float, as numcodecs does); decoding is the identity.
 */
public final class BitRound implements ArrayFilter {
  public static final String ID = "bitround";

  private final int keepbits;

  BitRound(int keepbits) throws CodecException {
    if (keepbits < 0) {
      throw new CodecException("codec 'bitround': keepbits must be zero or positive, got " + keepbits);
    }
    this.keepbits = keepbits;
  }

  public static BitRound fromConfig(JsonNode config) throws CodecException {
    return new BitRound(CodecConfig.requiredInt(config, "keepbits"));
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    return CodecConfig.withId(ID).put("keepbits", keepbits);
  }

  /** Mantissa bits of a float of {@code size} bytes. */
  private static int mantissaBits(int size) {
    return size == 2 ? 10 : size == 4 ? 23 : 52;
  }

  @Override
  public DataType encodedType(DataType decodedType) throws CodecException {
    if (decodedType.kind() != DataType.Kind.FLOAT) {
      throw new CodecException("codec 'bitround' rounds only floats, got " + decodedType);
    }
    if (keepbits > mantissaBits(decodedType.size())) {
      throw new CodecException(
          "codec 'bitround': keepbits " + keepbits + " too large for " + decodedType);
    }
    return decodedType;
  }

  @Override
  public ChunkData encode(ChunkData decoded) throws CodecException {
    DataType type = encodedType(decoded.type());
    if (type.needsSwap()) {
      throw new CodecException("codec 'bitround' cannot encode big-endian " + type + " (numcodecs cannot either)");
    }
    NumericArray in = NumericArray.wrap(type, decoded.bytes());
    NumericArray out = NumericArray.wrap(type, decoded.bytes().clone());
    int maskbits = mantissaBits(type.size()) - keepbits;
    if (maskbits > 0) {
      int shift = 64 - 8 * type.size();
      long mask = -1L << maskbits;
      long halfQuantum1 = (1L << (maskbits - 1)) - 1;
      for (int i = 0; i < in.length(); i++) {
        long b = (in.raw(i) << shift) >> shift; // the signed integer view numcodecs uses
        b += ((b >> maskbits) & 1) + halfQuantum1;
        out.put(i, b & mask);
      }
    }
    return ChunkData.ofBytes(type, new int[] {out.length()}, out.bytes());
  }

  /** Rounding happens when encoding; the type was checked when the chain was built. */
  @Override
  public boolean decodesUnchanged(DataType decodedType) {
    return true;
  }

  @Override
  public ChunkData decode(ChunkData encoded, DataType decodedType, int count)
      throws CodecException {
    encodedType(decodedType);
    byte[] bytes = encoded.bytes();
    if (bytes.length != (long) count * decodedType.size()) {
      throw new CodecException(
          "codec 'bitround': " + bytes.length + " bytes do not hold " + count + " "
              + decodedType + " elements");
    }
    return ChunkData.ofBytes(decodedType, new int[] {count}, bytes.clone());
  }
}
