package io.github.sparkzarr.spark.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.v3.V3Codecs;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V3FillValues;
import io.github.sparkzarr.zarr.metadata.V3Metadata;
import io.github.sparkzarr.zarr.store.Store;
import java.io.IOException;
import java.util.List;

/**
 * Zarr v3: one zarr.json per node, consolidated metadata in the root zarr.json, and optionally
 * sharding: then the array's chunk grid is the shard grid (what one task writes) and
 * {@code innerChunks} is the chunk shape inside each shard.
 */
final class V3ArrayFormat implements ArrayFormat {
  private final int[] innerChunks;

  /** @param innerChunks the chunk shape inside shards, or null for no sharding */
  V3ArrayFormat(int[] innerChunks) {
    this.innerChunks = innerChunks == null ? null : innerChunks.clone();
  }

  @Override
  public int version() {
    return 3;
  }

  @Override
  public ArrayMetadata newArray(long[] shape, int[] chunks, DataType type, JsonNode fill,
      ObjectNode compressor, List<ObjectNode> filters, List<String> dimensions, ObjectNode attributes) {
    FillValue fillValue = V3FillValues.parse(fill == null || fill.isNull() ? zero(type) : fill, type);
    ArrayNode codecs = Json.nodes().arrayNode();
    for (ObjectNode f : filters) {
      codecs.add(numcodecs(f));
    }
    codecs.add(serializer(type));
    if (compressor != null) {
      codecs.add(v3Compressor(compressor, type));
    }
    if (innerChunks != null) {
      codecs = shardingOf(codecs, chunks);
    }
    try {
      return new ArrayMetadata(3, shape, chunks, type, fillValue,
          V3Codecs.parse(codecs, type, fillValue, chunks), ChunkKeyEncoding.v3Default('/'),
          dimensions, attributes == null ? Json.object() : attributes);
    } catch (CodecException e) {
      throw new IllegalArgumentException("cannot build the v3 codecs " + codecs + ": " + e.getMessage(), e);
    }
  }

  /** v3 requires a fill value: zeros, false, or empty, as zarr-python 3 defaults. */
  private static JsonNode zero(DataType type) {
    return switch (type.kind()) {
      case BOOL -> Json.nodes().booleanNode(false);
      case STRING -> Json.nodes().textNode("");
      case VLEN_BYTES -> Json.nodes().arrayNode();
      default -> Json.nodes().numberNode(0);
    };
  }

  private static ObjectNode serializer(DataType type) {
    return switch (type.kind()) {
      case STRING -> Json.object().put("name", "vlen-utf8");
      case VLEN_BYTES -> Json.object().put("name", "vlen-bytes");
      default -> {
        ObjectNode bytes = Json.object().put("name", "bytes");
        bytes.putObject("configuration").put("endian", "little");
        yield bytes;
      }
    };
  }

  /**
   * The v3 codec of a numcodecs compressor configuration: zstd, blosc and gzip as the spec names
   * them, the others (lz4, zlib, bz2, lzma) as zarr-python 3's numcodecs.* codecs.
   */
  private static ObjectNode v3Compressor(ObjectNode numcodecs, DataType type) {
    String id = numcodecs.path("id").asText();
    ObjectNode codec = Json.object().put("name", id);
    ObjectNode config = codec.putObject("configuration");
    switch (id) {
      case "zstd" -> config.put("level", numcodecs.path("level").asInt(0)).put("checksum", false);
      case "gzip" -> config.put("level", numcodecs.path("level").asInt(5));
      case "blosc" -> {
        int shuffle = numcodecs.path("shuffle").asInt(1);
        config.put("cname", numcodecs.path("cname").asText("lz4"))
            .put("clevel", numcodecs.path("clevel").asInt(5))
            .put("shuffle", shuffle == 0 ? "noshuffle" : shuffle == 2 ? "bitshuffle" : "shuffle")
            .put("typesize", Math.max(1, type.size()))
            .put("blocksize", numcodecs.path("blocksize").asInt(0));
      }
      default -> {
        return numcodecs(numcodecs); // as zarr-python 3 stores a numcodecs compressor
      }
    }
    return codec;
  }

  /** A numcodecs configuration as zarr-python 3 stores it in v3: "numcodecs.<id>", the rest as configuration. */
  private static ObjectNode numcodecs(ObjectNode config) {
    ObjectNode rest = config.deepCopy();
    String id = rest.remove("id").asText();
    ObjectNode codec = Json.object().put("name", "numcodecs." + id);
    codec.set("configuration", rest);
    return codec;
  }

  /** One sharding_indexed codec holding {@code inner}, with a crc32c-checked index at the end. */
  private ArrayNode shardingOf(ArrayNode inner, int[] shardShape) {
    for (int i = 0; i < shardShape.length; i++) {
      if (shardShape[i] % innerChunks[i] != 0) {
        throw new IllegalArgumentException("shards " + java.util.Arrays.toString(shardShape)
            + " must be multiples of chunks " + java.util.Arrays.toString(innerChunks));
      }
    }
    ObjectNode sharding = Json.object().put("name", "sharding_indexed");
    ObjectNode config = sharding.putObject("configuration");
    ArrayNode chunkShape = config.putArray("chunk_shape");
    for (int c : innerChunks) {
      chunkShape.add(c);
    }
    config.set("codecs", inner);
    ArrayNode index = config.putArray("index_codecs");
    ObjectNode bytes = index.addObject().put("name", "bytes");
    bytes.putObject("configuration").put("endian", "little");
    index.addObject().put("name", "crc32c");
    config.put("index_location", "end");
    return Json.nodes().arrayNode().add(sharding);
  }

  @Override
  public void writeArray(Store store, String path, ArrayMetadata md) throws IOException {
    ZarrHierarchy.writeArrayV3(store, path, md);
  }

  @Override
  public void writeGroup(Store store, String path, ObjectNode attributes) throws IOException {
    ZarrHierarchy.writeGroupV3(store, path, attributes);
  }

  @Override
  public void consolidate(Store store) throws IOException {
    ZarrHierarchy.consolidateV3(store);
  }

  @Override
  public boolean isMetadataKey(String key) {
    return key.equals(V3Metadata.KEY) || key.endsWith("/" + V3Metadata.KEY);
  }
}
