package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.ByteSwapper;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.metadata.Json;
import java.nio.ByteOrder;

/** The v3 "bytes" codec: fixed-size elements in C order, in the given byte order. */
public final class EndianCodec implements ArrayToBytesCodec {
  public static final String NAME = "bytes";
  /** The name early v3 drafts gave this codec; zarr-python 3 still reads it (written back as "bytes"). */
  public static final String OLD_NAME = "endian";
  /** Null when the configuration gave no endian (allowed for single-byte types). */
  private final ByteOrder order;

  public EndianCodec(ByteOrder order) {
    this.order = order;
  }

  public static EndianCodec little() {
    return new EndianCodec(ByteOrder.LITTLE_ENDIAN);
  }

  /** The byte order, or null when the configuration gave none. */
  public ByteOrder order() {
    return order;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode node = Json.object().put("name", NAME);
    if (order != null) {
      node.putObject("configuration")
          .put("endian", order == ByteOrder.BIG_ENDIAN ? "big" : "little");
    }
    return node;
  }

  /** Checks that this codec can serialize {@code type}. */
  public void check(DataType type) throws CodecException {
    if (type.isVariableLength()) {
      throw new CodecException("codec 'bytes' cannot encode " + type + "; use vlen-utf8 or vlen-bytes");
    }
    // zarr-python 3 reads records without "endian" as little-endian (its legacy compatibility)
    if (order == null && type.size() > 1 && type.kind() != DataType.Kind.RAW && type.kind() != DataType.Kind.STRUCT) {
      throw new CodecException("codec 'bytes' needs \"endian\" for " + type);
    }
  }

  @Override
  public byte[] encode(ChunkData chunk) throws CodecException {
    check(chunk.type());
    byte[] data = chunk.bytes().clone();
    swap(chunk.type(), data, chunk.elementCount());
    return data;
  }

  @Override
  public ChunkData decode(byte[] encoded, DataType type, int[] shape) throws CodecException {
    check(type);
    long count = ChunkData.count(shape);
    if (encoded.length != count * type.size()) {
      throw new CodecException("codec 'bytes': the chunk has " + encoded.length
          + " bytes, expected " + count * type.size() + " (" + count + " elements of " + type + ")");
    }
    byte[] data = encoded.clone();
    swap(type, data, count);
    return ChunkData.ofBytes(type, shape, data);
  }

  @Override
  public int encodedSize(DataType type, int[] shape) {
    long bytes = type.isVariableLength() ? -1 : ChunkData.count(shape) * type.size();
    return bytes > Integer.MAX_VALUE ? -1 : (int) bytes;
  }

  private void swap(DataType type, byte[] data, long count) {
    if (order == ByteOrder.BIG_ENDIAN) {
      ByteSwapper.swapBigEndianParts(type.withOrder(ByteOrder.BIG_ENDIAN), data, 0, count);
    }
  }
}
