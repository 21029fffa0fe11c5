package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.blosc.ByteShuffle;
import io.github.sparkzarr.zarr.dtype.DataType;

/**
 * numcodecs Shuffle: byte {@code b} of element {@code i} moves to {@code b * count + i}, blosc's
 * byte shuffle over the whole chunk (so the same SIMD un-shuffle). Like
 * numcodecs, a buffer that is not a whole number of elements is an error (no remainder handling).
 */
public final class Shuffle implements ArrayFilter {
  public static final String ID = "shuffle";

  private final int elementSize;

  Shuffle(int elementSize) {
    this.elementSize = elementSize;
  }

  public static Shuffle fromConfig(JsonNode config) throws CodecException {
    return new Shuffle(CodecConfig.optionalInt(config, "elementsize", 4));
  }

  /** Bytes per element the shuffle transposes. */
  public int elementSize() {
    return elementSize;
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    return CodecConfig.withId(ID).put("elementsize", elementSize);
  }

  @Override
  public DataType encodedType(DataType decodedType) throws CodecException {
    if (decodedType.isVariableLength()) {
      throw new CodecException("codec 'shuffle' cannot encode " + decodedType + " elements");
    }
    return DataType.fixedLength(DataType.Kind.RAW, 1, null);
  }

  /** The output is the input's bytes, reordered. */
  @Override
  public int encodedCount(int count, DataType decodedType) {
    return Math.multiplyExact(count, decodedType.size());
  }

  @Override
  public ChunkData encode(ChunkData decoded) throws CodecException {
    encodedType(decoded.type());
    return ChunkData.ofRawBytes(transpose(decoded.bytes(), true));
  }

  @Override
  public ChunkData decode(ChunkData encoded, DataType decodedType, int count)
      throws CodecException {
    encodedType(decodedType);
    byte[] in = encoded.bytes();
    if (in.length != (long) count * decodedType.size()) {
      throw new CodecException(
          "codec 'shuffle': " + in.length + " bytes do not hold " + count + " " + decodedType
              + " elements");
    }
    return ChunkData.ofBytes(decodedType, new int[] {count}, transpose(in, false));
  }

  private byte[] transpose(byte[] in, boolean shuffle) throws CodecException {
    if (elementSize <= 1) {
      return in.clone();
    }
    if (in.length % elementSize != 0) {
      throw new CodecException(
          "codec 'shuffle': " + in.length + " bytes are not a multiple of elementsize "
              + elementSize);
    }
    byte[] out = new byte[in.length];
    if (shuffle) {
      ByteShuffle.shuffle(elementSize, in.length, in, 0, out, 0);
    } else {
      ByteShuffle.unshuffle(elementSize, in.length, in, 0, out, 0);
    }
    return out;
  }
}
