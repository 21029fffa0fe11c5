package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.RunDecoder;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import java.io.IOException;

/**
 * A numcodecs filter as zarr-python 3 runs it in a v3 chain ({@code numcodecs.delta}, ...): it
 * encodes the chunk's elements flattened in C order and decodes them back into the chunk's shape.
 * Its elements are in memory order (little-endian) on both sides.
 */
final class FilterArrayCodec implements ArrayToArrayCodec {
  private final String name;
  private final JsonNode configuration;
  private final ArrayFilter filter;
  private final DataType decodedType;
  private final DataType encodedType;

  /** @param decodedType the (little-endian) type of the elements this codec encodes */
  FilterArrayCodec(String name, JsonNode configuration, ArrayFilter filter, DataType decodedType)
      throws CodecException {
    this.name = name;
    this.configuration = configuration;
    this.filter = filter;
    this.decodedType = decodedType;
    this.encodedType = filter.encodedType(decodedType);
    if (filter.encodedCount(1, decodedType) < 0) {
      throw new CodecException("codec '" + name + "' gives elements of varying length, which a v3 chain cannot hold");
    }
    DataType produced = filter.producedType(decodedType);
    if (!produced.equals(decodedType)) {
      throw new CodecException("codec '" + name + "' decodes to " + NumpyDtype.toText(produced)
          + " elements, but the chunk holds " + NumpyDtype.toText(decodedType) + " elements");
    }
    if (encodedType.needsSwap()) {
      throw new CodecException("codec '" + name + "' encodes to big-endian " + NumpyDtype.toText(encodedType)
          + " elements; only little-endian types are supported in a v3 chain");
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public ObjectNode toJson() {
    return V3Codec.entry(name, configuration);
  }

  /** The shape stays when the filter keeps the number of elements (as zarr-python 3's metadata says). */
  @Override
  public int[] encodedShape(int[] shape) {
    int count = Math.toIntExact(ChunkData.count(shape));
    int encoded = filter.encodedCount(count, decodedType);
    return encoded == count ? shape.clone() : new int[] {encoded};
  }

  @Override
  public DataType encodedType(DataType type) {
    return encodedType;
  }

  @Override
  public boolean decodesUnchanged() {
    return filter.decodesUnchanged(decodedType);
  }

  /** The filter's run decoder, when it keeps the number of elements (the shape). */
  @Override
  public RunDecoder runDecoder() {
    return filter.encodedCount(1, decodedType) == 1 ? filter.runDecoder(decodedType) : null;
  }

  @Override
  public ChunkData encode(ChunkData decoded) throws IOException {
    return filter.encode(decoded).reshape(encodedShape(decoded.shape()));
  }

  @Override
  public ChunkData decode(ChunkData encoded, int[] decodedShape) throws IOException {
    int count = Math.toIntExact(ChunkData.count(decodedShape));
    return filter.decode(encoded, decodedType, count).reshape(decodedShape);
  }
}
