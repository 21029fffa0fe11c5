package io.github.sparkzarr.zarr.codec;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.chunk.Transpose;
import io.github.sparkzarr.zarr.dtype.ByteSwapper;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The v1/v2 chunk pipeline: the chunk's elements in memory order ('C' or 'F') and storage byte
 * order, through the filters in order, then the compressor. Decoding runs it backwards and ends
 * in little-endian C order.
 */
public final class V2ChunkCodec implements ChunkCodec {
  private final DataType storageType;
  private final boolean fortranOrder;
  private final List<ArrayFilter> filters;
  private final BytesCodec compressor;
  /** stageTypes[i] is the element type entering filter i; the last is what the compressor sees. */
  private final List<DataType> stageTypes;

  /**
   * @param storageType the array's dtype as stored (byte order included)
   * @param fortranOrder true for order "F"
   * @param filters the filters in encoding order (may be empty)
   * @param compressor the compressor, or null for none
   */
  public V2ChunkCodec(
      DataType storageType, boolean fortranOrder, List<ArrayFilter> filters, BytesCodec compressor)
      throws CodecException {
    this.storageType = storageType;
    this.fortranOrder = fortranOrder;
    this.filters = List.copyOf(filters);
    this.compressor = compressor;
    List<DataType> types = new ArrayList<>();
    DataType t = storageType;
    types.add(t);
    for (ArrayFilter f : this.filters) {
      t = f.encodedType(t);
      types.add(t);
    }
    this.stageTypes = List.copyOf(types);
    if (storageType.isVariableLength() && !isObjectCodec(t)) {
      throw new CodecException(
          "an object array (" + storageType + ") needs an object codec such as vlen-utf8 among its filters");
    }
  }

  private static boolean isObjectCodec(DataType encodedType) {
    return !encodedType.isVariableLength();
  }

  public DataType storageType() {
    return storageType;
  }

  public boolean fortranOrder() {
    return fortranOrder;
  }

  public List<ArrayFilter> filters() {
    return filters;
  }

  /**
   * Whether decoding leaves the decompressed bytes as they are: no filters, or only filters that
   * work when encoding ({@link ArrayFilter#decodesUnchanged}, such as bitround and quantize).
   */
  public boolean filtersDecodeUnchanged() {
    for (int i = 0; i < filters.size(); i++) {
      if (!filters.get(i).decodesUnchanged(stageTypes.get(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The element type entering filter {@code i} when encoding, the type it decodes into; {@code
   * stageType(filters().size())} is what the compressor sees.
   */
  public DataType stageType(int i) {
    return stageTypes.get(i);
  }

  /** The compressor, or null. */
  public BytesCodec compressor() {
    return compressor;
  }

  @Override
  public ChunkData decode(byte[] stored, int[] chunkShape) throws IOException {
    int count = Math.toIntExact(ChunkData.count(chunkShape));
    DataType compressed = stageTypes.get(stageTypes.size() - 1);
    int expected = compressedInputSize(count);
    byte[] bytes = compressor == null ? stored : compressor.decode(stored, expected);
    if (expected >= 0 && bytes.length != expected) {
      throw new CodecException(
          "the chunk decodes to " + bytes.length + " bytes, expected " + expected
              + " (" + count + " elements of " + compressed + ")");
    }
    ChunkData flat = flatOf(bytes, compressed);
    for (int i = filters.size() - 1; i >= 0; i--) {
      if (!filters.get(i).decodesUnchanged(stageTypes.get(i))) {
        flat = filters.get(i).decode(flat, stageTypes.get(i), count);
      }
    }
    if (flat.elementCount() != count) {
      throw new CodecException(
          "the chunk holds " + flat.elementCount() + " elements, expected " + count);
    }
    int[] memoryShape = fortranOrder ? Transpose.reversed(chunkShape) : chunkShape;
    if (flat.holdsObjects()) {
      Object[] objects = flat.objects();
      if (fortranOrder && chunkShape.length > 1) {
        objects = Transpose.permute(objects, memoryShape, Transpose.reversal(chunkShape.length));
      }
      return ChunkData.ofObjects(storageType, chunkShape, objects);
    }
    byte[] data = flat.bytes();
    if (data.length != (long) count * storageType.size()) {
      throw new CodecException(
          "the chunk decodes to " + data.length + " bytes, expected "
              + (long) count * storageType.size());
    }
    ByteSwapper.swapBigEndianParts(storageType, data, 0, count);
    if (fortranOrder && chunkShape.length > 1) {
      data = Transpose.permute(data, memoryShape, Transpose.reversal(chunkShape.length),
          storageType.size());
    }
    return ChunkData.ofBytes(storageType.littleEndian(), chunkShape, data);
  }

  /** The byte length the compressor must give back for {@code count} elements, or -1. */
  private int compressedInputSize(int count) {
    long n = count;
    for (int i = 0; i < filters.size(); i++) {
      ArrayFilter f = filters.get(i);
      n = n < 0 ? -1 : f.encodedCount((int) n, stageTypes.get(i));
    }
    DataType compressed = stageTypes.get(stageTypes.size() - 1);
    if (n < 0 || compressed.isVariableLength()) {
      return -1;
    }
    return Math.toIntExact(n * compressed.size());
  }

  private static boolean producesRawBytes(DataType t) {
    return t.kind() == DataType.Kind.RAW && t.size() == 1;
  }

  private static ChunkData flatOf(byte[] bytes, DataType type) throws CodecException {
    if (producesRawBytes(type)) {
      return ChunkData.ofRawBytes(bytes);
    }
    if (type.size() == 0 || bytes.length % type.size() != 0) {
      throw new CodecException(
          "the chunk has " + bytes.length + " bytes, not a whole number of " + type + " elements");
    }
    return ChunkData.ofBytes(type, new int[] {bytes.length / type.size()}, bytes);
  }

  @Override
  public byte[] encode(ChunkData chunk) throws IOException {
    int[] shape = chunk.shape();
    int count = chunk.elementCount();
    ChunkData flat;
    int[] order = Transpose.reversal(shape.length);
    if (chunk.holdsObjects()) {
      Object[] objects = chunk.objects();
      if (fortranOrder && shape.length > 1) {
        objects = Transpose.permute(objects, shape, order);
      }
      flat = ChunkData.ofObjects(storageType, new int[] {count}, objects);
    } else {
      byte[] data = chunk.bytes().clone();
      if (fortranOrder && shape.length > 1) {
        data = Transpose.permute(data, shape, order, storageType.size());
      }
      ByteSwapper.swapBigEndianParts(storageType, data, 0, count);
      flat = ChunkData.ofBytes(storageType, new int[] {count}, data);
    }
    for (ArrayFilter f : filters) {
      flat = f.encode(flat);
    }
    byte[] bytes = flat.bytes();
    if (compressor == null) {
      return bytes;
    }
    return compressor.encode(bytes, Math.max(1, flat.type().size()));
  }
}
