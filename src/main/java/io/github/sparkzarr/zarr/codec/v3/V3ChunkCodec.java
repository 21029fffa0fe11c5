package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.ChunkCodec;
import io.github.sparkzarr.zarr.codec.DecodesInto;
import io.github.sparkzarr.zarr.codec.FilterRuns;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.metadata.Json;
import java.io.IOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A Zarr v3 codec chain: array→array codecs, one array→bytes codec, bytes→bytes codecs. Encoding
 * runs them in that order; decoding runs them backwards.
 */
public final class V3ChunkCodec implements ChunkCodec {
  private final DataType type;
  /** The type the array→bytes codec sees, after the array→array codecs. */
  private final DataType serializedType;
  private final List<ArrayToArrayCodec> arrayCodecs;
  private final ArrayToBytesCodec serializer;
  private final List<BytesToBytesCodec> bytesCodecs;

  /** @param type the element type in memory (little-endian) */
  public V3ChunkCodec(DataType type, List<ArrayToArrayCodec> arrayCodecs,
      ArrayToBytesCodec serializer, List<BytesToBytesCodec> bytesCodecs) {
    this.type = type.littleEndian();
    this.arrayCodecs = List.copyOf(arrayCodecs);
    this.serializer = serializer;
    this.bytesCodecs = List.copyOf(bytesCodecs);
    DataType t = this.type;
    for (ArrayToArrayCodec c : arrayCodecs) {
      t = c.encodedType(t);
    }
    this.serializedType = t;
  }

  public DataType type() {
    return type;
  }

  public List<ArrayToArrayCodec> arrayCodecs() {
    return arrayCodecs;
  }

  /**
   * The array→array codecs a reader must run: those that give back what they are given
   * ({@link ArrayToArrayCodec#decodesUnchanged}) are left out.
   */
  public List<ArrayToArrayCodec> arrayCodecsToDecode() {
    return arrayCodecs.stream().filter(c -> !c.decodesUnchanged()).toList();
  }

  public ArrayToBytesCodec serializer() {
    return serializer;
  }

  public List<BytesToBytesCodec> bytesCodecs() {
    return bytesCodecs;
  }

  /** The sharding codec when it is the whole chain, so shards can be read in part. */
  public Optional<ShardingCodec> sharding() {
    return serializer instanceof ShardingCodec s && arrayCodecs.isEmpty() && bytesCodecs.isEmpty()
        ? Optional.of(s) : Optional.empty();
  }

  /**
   * The array codecs that change values decoded a run at a time ({@link FilterRuns}) after the
   * "bytes" codec (little-endian) and at most one compressor that decodes into a buffer; null when
   * some codec decodes only whole, or the chain does not suit (no such codecs, a big-endian or
   * record or variable-length type, sharding, two compressors).
   */
  public FilterRuns filterRuns() {
    if (type.isVariableLength() || type.kind() == DataType.Kind.STRUCT || bytesCodecs.size() > 1
        || !(serializer instanceof EndianCodec e)
        || e.order() != ByteOrder.LITTLE_ENDIAN && serializedType.size() > 1) {
      return null;
    }
    BytesCodec compressor = bytesCodecs.isEmpty() ? null : bytesCodecs.get(0).codec();
    if (compressor != null && !(compressor instanceof DecodesInto)) {
      return null;
    }
    List<FilterRuns.Stage> stages = new ArrayList<>();
    DataType t = type;
    List<DataType> decodedTypes = new ArrayList<>();
    for (ArrayToArrayCodec c : arrayCodecs) {
      decodedTypes.add(t);
      t = c.encodedType(t);
    }
    for (int i = arrayCodecs.size() - 1; i >= 0; i--) {
      ArrayToArrayCodec c = arrayCodecs.get(i);
      if (c.decodesUnchanged()) {
        continue;
      }
      if (c.runDecoder() == null) {
        return null;
      }
      stages.add(new FilterRuns.Stage(c::runDecoder, decodedTypes.get(i).size()));
    }
    return FilterRuns.of(stages, serializedType.size(), (DecodesInto) compressor);
  }

  /** The chain as a v3 "codecs" list. */
  public ArrayNode toJson() {
    ArrayNode list = Json.nodes().arrayNode();
    arrayCodecs.forEach(c -> list.add(c.toJson()));
    list.add(serializer.toJson());
    bytesCodecs.forEach(c -> list.add(c.toJson()));
    return list;
  }

  @Override
  public ChunkData decode(byte[] stored, int[] chunkShape) throws IOException {
    List<int[]> shapes = shapes(chunkShape);
    int[] serializedShape = shapes.get(shapes.size() - 1);
    // The innermost bytes codec must give exactly what the serializer reads, when that is fixed:
    // a bomb then fails at the chunk's size instead of growing to the DecodeLimit.
    int serializedSize = serializer.encodedSize(serializedType, serializedShape);
    byte[] bytes = stored;
    for (int i = bytesCodecs.size() - 1; i >= 0; i--) {
      bytes = bytesCodecs.get(i).codec().decode(bytes, i == 0 ? serializedSize : -1);
    }
    ChunkData data = serializer.decode(bytes, serializedType, serializedShape);
    for (int i = arrayCodecs.size() - 1; i >= 0; i--) {
      ArrayToArrayCodec c = arrayCodecs.get(i);
      data = c.decodesUnchanged() ? data.reshape(shapes.get(i)) : c.decode(data, shapes.get(i));
    }
    return data;
  }

  /** shapes.get(i) is the shape entering array codec i; the last is what the serializer sees. */
  private List<int[]> shapes(int[] chunkShape) {
    List<int[]> shapes = new ArrayList<>();
    int[] s = chunkShape;
    shapes.add(s);
    for (ArrayToArrayCodec c : arrayCodecs) {
      s = c.encodedShape(s);
      shapes.add(s);
    }
    return shapes;
  }

  @Override
  public byte[] encode(ChunkData chunk) throws IOException {
    ChunkData data = chunk;
    for (ArrayToArrayCodec c : arrayCodecs) {
      data = c.encode(data);
    }
    byte[] bytes = serializer.encode(data);
    int itemSize = serializedType.isVariableLength() ? 1 : serializedType.size();
    for (BytesToBytesCodec c : bytesCodecs) {
      bytes = c.codec().encode(bytes, itemSize);
    }
    return bytes;
  }
}
