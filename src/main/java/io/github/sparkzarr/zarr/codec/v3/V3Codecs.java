package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.blosc.BloscCodec;
import io.github.sparkzarr.zarr.codec.checksum.Crc32cCodec;
import io.github.sparkzarr.zarr.codec.compress.GzipCodec;
import io.github.sparkzarr.zarr.codec.compress.ZstdCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Builds a {@link V3ChunkCodec} from a v3 "codecs" list: the one place that knows v3 codec names. */
public final class V3Codecs {
  private V3Codecs() {}

  private static final DataType UINT64 =
      DataType.numeric(DataType.Kind.UINT, 8, ByteOrder.LITTLE_ENDIAN);

  /**
   * @param type the array's element type
   * @param fill the fill value (sharding leaves inner chunks of it out)
   * @param chunkShape the shape of the chunks this chain encodes
   */
  public static V3ChunkCodec parse(JsonNode codecs, DataType type, FillValue fill, int[] chunkShape)
      throws CodecException {
    if (codecs == null || !codecs.isArray() || codecs.isEmpty()) {
      throw new CodecException("\"codecs\" must be a non-empty list, got " + codecs);
    }
    List<ArrayToArrayCodec> arrays = new ArrayList<>();
    ArrayToBytesCodec serializer = null;
    List<BytesToBytesCodec> bytes = new ArrayList<>();
    int[] shape = chunkShape;
    DataType stage = type; // the type each codec sees, changed by numcodecs filters such as astype
    for (JsonNode entry : codecs) {
      String name = name(entry);
      JsonNode config = entry.isObject() && entry.has("configuration")
          ? entry.get("configuration") : Json.object();
      if (!config.isObject()) {
        throw new CodecException("codec '" + name + "': \"configuration\" must be an object");
      }
      switch (name) {
        case TransposeCodec.NAME -> {
          requireBefore(serializer, bytes, name, "array→array");
          TransposeCodec t = new TransposeCodec(ints(config, "order", name), shape.length);
          shape = t.encodedShape(shape);
          arrays.add(t);
        }
        case EndianCodec.NAME, EndianCodec.OLD_NAME, "vlen-utf8", "vlen-bytes", ShardingCodec.NAME -> {
          if (serializer != null) {
            throw new CodecException("codec '" + name + "': a chain has exactly one array→bytes codec, '"
                + serializer.name() + "' came first");
          }
          requireBefore(null, bytes, name, "array→bytes");
          // A missing inner chunk is the fill value before such codecs, not after them.
          ArrayToArrayCodec valueCodec = arrays.stream().filter(c -> !(c instanceof TransposeCodec)).findFirst().orElse(null);
          if (name.equals(ShardingCodec.NAME) && valueCodec != null) {
            throw new CodecException("codec 'sharding_indexed' after '" + valueCodec.name() + "' is not supported "
                + "(zarr-python puts such codecs inside the shard's \"codecs\")");
          }
          serializer = serializer(name, config, stage, fill, shape);
        }
        case ScaleOffsetCodec.NAME, CastValueCodec.NAME -> {
          requireBefore(serializer, bytes, name, "array→array");
          ArrayToArrayCodec c = name.equals(ScaleOffsetCodec.NAME)
              ? new ScaleOffsetCodec(config, stage) : new CastValueCodec(config, stage);
          stage = c.encodedType(stage);
          arrays.add(c);
        }
        case "gzip" -> bytes.add(new BytesToBytesCodec(name, config,
            new GzipCodec(CodecConfig.requiredInt(config, "level"))));
        case "zstd" -> bytes.add(new BytesToBytesCodec(name, config,
            new ZstdCodec(CodecConfig.optionalInt(config, "level", ZstdCodec.DEFAULT_LEVEL),
                checksum(config))));
        case BloscCodec.ID -> bytes.add(new BytesToBytesCodec(name, config, BloscCodec.fromV3Config(config)));
        case Crc32cCodec.ID -> bytes.add(new BytesToBytesCodec(name, null, Crc32cCodec.v3()));
        default -> {
          if (!NumcodecsCodecs.names(name)) {
            throw new CodecException("unknown codec '" + name + "' (supported: transpose, scale_offset, cast_value, "
                + "bytes, vlen-utf8, vlen-bytes, sharding_indexed, gzip, zstd, blosc, crc32c, and zarr-python's numcodecs.*)");
          }
          if (NumcodecsCodecs.onArrays(name)) {
            requireBefore(serializer, bytes, name, "array→array");
            FilterArrayCodec filter = NumcodecsCodecs.arrayCodec(name, config, stage);
            shape = filter.encodedShape(shape);
            stage = filter.encodedType(stage);
            arrays.add(filter);
          } else {
            bytes.add(NumcodecsCodecs.bytesCodec(name, config));
          }
        }
      }
    }
    if (serializer == null) {
      throw new CodecException("the codecs " + codecs + " have no array→bytes codec (such as \"bytes\")");
    }
    return new V3ChunkCodec(type, arrays, serializer, bytes);
  }

  private static String name(JsonNode entry) throws CodecException {
    JsonNode name = entry.isTextual() ? entry : entry.get("name");
    if (name == null || !name.isTextual()) {
      throw new CodecException("a codec needs a \"name\": " + entry);
    }
    return name.asText();
  }

  private static void requireBefore(ArrayToBytesCodec serializer, List<BytesToBytesCodec> bytes,
      String name, String kind) throws CodecException {
    if (serializer != null || !bytes.isEmpty()) {
      throw new CodecException("codec '" + name + "' is " + kind + " and must come before "
          + (serializer != null ? "'" + serializer.name() + "'" : "'" + bytes.get(0).name() + "'"));
    }
  }

  private static ArrayToBytesCodec serializer(String name, JsonNode config, DataType type,
      FillValue fill, int[] shape) throws CodecException {
    switch (name) {
      case EndianCodec.NAME, EndianCodec.OLD_NAME -> {
        String endian = CodecConfig.optionalText(config, "endian", null);
        ByteOrder order = endian == null ? null : switch (endian) {
          case "little" -> ByteOrder.LITTLE_ENDIAN;
          case "big" -> ByteOrder.BIG_ENDIAN;
          default -> throw new CodecException("codec 'bytes': endian must be \"little\" or \"big\", got " + endian);
        };
        EndianCodec codec = new EndianCodec(order);
        codec.check(type);
        return codec;
      }
      case "vlen-utf8" -> {
        requireKind(type, DataType.Kind.STRING, name);
        return VLenArrayCodec.utf8();
      }
      case "vlen-bytes" -> {
        requireKind(type, DataType.Kind.VLEN_BYTES, name);
        return VLenArrayCodec.bytes();
      }
      default -> {
        int[] inner = ints(config, "chunk_shape", name);
        V3ChunkCodec innerChain = parse(config.get("codecs"), type, fill, inner);
        if (inner.length != shape.length) {
          throw new CodecException("codec 'sharding_indexed': chunk_shape " + Arrays.toString(inner)
              + " does not match the rank of the chunks " + Arrays.toString(shape));
        }
        int[] grid = new int[inner.length];
        for (int i = 0; i < inner.length; i++) {
          if (inner[i] <= 0 || shape[i] % inner[i] != 0) {
            throw new CodecException("codec 'sharding_indexed': the chunk shape " + Arrays.toString(shape)
                + " is not a multiple of the inner chunk_shape " + Arrays.toString(inner));
          }
          grid[i] = shape[i] / inner[i];
        }
        int[] indexShape = Arrays.copyOf(grid, grid.length + 1);
        indexShape[grid.length] = 2;
        JsonNode indexCodecs = config.has("index_codecs") ? config.get("index_codecs")
            : Json.nodes().arrayNode().add(EndianCodec.little().toJson()).add(Json.object().put("name", "crc32c"));
        V3ChunkCodec index = parse(indexCodecs, UINT64, FillValue.ofElement(UINT64, new byte[8], null), indexShape);
        String location = CodecConfig.optionalText(config, "index_location", "end");
        if (!location.equals("start") && !location.equals("end")) {
          throw new CodecException("codec 'sharding_indexed': index_location must be \"start\" or \"end\", got " + location);
        }
        return new ShardingCodec(inner, innerChain, index, location.equals("end"), fill);
      }
    }
  }

  private static void requireKind(DataType type, DataType.Kind kind, String name) throws CodecException {
    if (type.kind() != kind) {
      throw new CodecException("codec '" + name + "' cannot encode " + type);
    }
  }

  private static boolean checksum(JsonNode config) throws CodecException {
    JsonNode v = config.get("checksum");
    if (v != null && !v.isBoolean()) {
      throw new CodecException("codec 'zstd': \"checksum\" must be a boolean, got " + v);
    }
    return v != null && v.booleanValue();
  }

  private static int[] ints(JsonNode config, String field, String codec) throws CodecException {
    JsonNode v = config.get(field);
    if (v == null || !v.isArray()) {
      throw new CodecException("codec '" + codec + "': \"" + field + "\" must be a list of integers, got " + v);
    }
    int[] out = new int[v.size()];
    for (int i = 0; i < out.length; i++) {
      if (!v.get(i).isIntegralNumber() || !v.get(i).canConvertToInt()) {
        throw new CodecException("codec '" + codec + "': \"" + field + "\" must be a list of integers, got " + v);
      }
      out[i] = v.get(i).intValue();
    }
    return out;
  }

  // ---- chains for writing ----------------------------------------------------------------

  /** The default chain for writing {@code type}: "bytes" little-endian (or vlen) then zstd. */
  public static V3ChunkCodec standard(DataType type) {
    return new V3ChunkCodec(type, List.of(), serializerFor(type), List.of(zstd(ZstdCodec.DEFAULT_LEVEL)));
  }

  /** The array→bytes codec that serializes {@code type}. */
  public static ArrayToBytesCodec serializerFor(DataType type) {
    return switch (type.kind()) {
      case STRING -> VLenArrayCodec.utf8();
      case VLEN_BYTES -> VLenArrayCodec.bytes();
      default -> EndianCodec.little();
    };
  }

  /** zstd at {@code level}, without checksum. */
  public static BytesToBytesCodec zstd(int level) {
    ObjectNode config = Json.object().put("level", level).put("checksum", false);
    return new BytesToBytesCodec("zstd", config, new ZstdCodec(level, false));
  }

  /**
   * A sharding chain: shards of inner chunks of {@code innerShape}, each encoded with {@code
   * inner}, and the index ("bytes" little-endian, crc32c) at the end, as zarr-python writes it.
   */
  public static V3ChunkCodec sharded(DataType type, FillValue fill, int[] innerShape, V3ChunkCodec inner) {
    V3ChunkCodec index = new V3ChunkCodec(UINT64, List.of(), EndianCodec.little(),
        List.of(new BytesToBytesCodec(Crc32cCodec.ID, null, Crc32cCodec.v3())));
    return new V3ChunkCodec(type, List.of(), new ShardingCodec(innerShape, inner, index, true, fill), List.of());
  }
}
