package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;

/**
 * The numcodecs vlen framing: a 4-byte little-endian item count, then for each item a 4-byte
 * little-endian length and its bytes. Like numcodecs, bytes after the last item are ignored.
 */
abstract class VLenCodec implements ArrayFilter {
  private static final int HEADER = 4;

  /** The element kind this codec holds (STRING or VLEN_BYTES). */
  abstract DataType.Kind elementKind();

  /** The bytes of one element; numcodecs stores a missing (null) element as empty. */
  abstract byte[] toBytes(Object element) throws CodecException;

  abstract Object fromBytes(byte[] data, int offset, int length) throws CodecException;

  @Override
  public ObjectNode toConfig() {
    return CodecConfig.withId(id());
  }

  /** The encoded length depends on the values. */
  @Override
  public int encodedCount(int count, DataType decodedType) {
    return -1;
  }

  @Override
  public DataType encodedType(DataType decodedType) throws CodecException {
    if (decodedType.kind() != elementKind()) {
      throw new CodecException("codec '" + id() + "' cannot encode " + decodedType + " elements");
    }
    return DataType.fixedLength(DataType.Kind.RAW, 1, null);
  }

  @Override
  public ChunkData encode(ChunkData decoded) throws CodecException {
    encodedType(decoded.type());
    Object[] items = decoded.objects();
    byte[][] encoded = new byte[items.length][];
    long total = HEADER;
    for (int i = 0; i < items.length; i++) {
      encoded[i] = toBytes(items[i]);
      total += 4L + encoded[i].length;
    }
    if (total > Integer.MAX_VALUE - 8) {
      throw new CodecException("codec '" + id() + "': " + total + " encoded bytes are too many for one chunk");
    }
    byte[] out = new byte[(int) total];
    putLe32(out, 0, items.length);
    int at = HEADER;
    for (byte[] item : encoded) {
      putLe32(out, at, item.length);
      System.arraycopy(item, 0, out, at + 4, item.length);
      at += 4 + item.length;
    }
    return ChunkData.ofRawBytes(out);
  }

  @Override
  public ChunkData decode(ChunkData encoded, DataType decodedType, int count)
      throws CodecException {
    encodedType(decodedType);
    byte[] in = encoded.bytes();
    if (in.length < HEADER) {
      throw new CodecException("codec '" + id() + "': corrupt buffer, missing or truncated header");
    }
    long items = le32(in, 0);
    if (items != count) {
      throw new CodecException("codec '" + id() + "': buffer holds " + items + " items, expected " + count);
    }
    Object[] out = new Object[count];
    long at = HEADER;
    for (int i = 0; i < count; i++) {
      if (at + 4 > in.length) {
        throw new CodecException("codec '" + id() + "': corrupt buffer, item " + i + " is truncated");
      }
      long length = le32(in, (int) at);
      at += 4;
      if (at + length > in.length) {
        throw new CodecException("codec '" + id() + "': corrupt buffer, item " + i + " is truncated");
      }
      out[i] = fromBytes(in, (int) at, (int) length);
      at += length;
    }
    return ChunkData.ofObjects(decodedType, new int[] {count}, out);
  }

  private static long le32(byte[] b, int at) {
    return (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16 | (b[at + 3] & 0xffL) << 24;
  }

  private static void putLe32(byte[] b, int at, int v) {
    for (int k = 0; k < 4; k++) {
      b[at + k] = (byte) (v >>> (8 * k));
    }
  }
}
