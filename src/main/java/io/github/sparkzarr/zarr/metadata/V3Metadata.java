package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.codec.v3.V3Codecs;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.V3DataTypes;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads and writes Zarr v3 {@code zarr.json} documents (final specification). */
public final class V3Metadata {
  private V3Metadata() {}

  public static final String KEY = "zarr.json";
  private static final Set<String> ARRAY_FIELDS = Set.of("zarr_format", "node_type", "shape",
      "data_type", "chunk_grid", "chunk_key_encoding", "fill_value", "codecs", "attributes",
      "dimension_names", "storage_transformers");
  private static final Set<String> GROUP_FIELDS =
      Set.of("zarr_format", "node_type", "attributes", "consolidated_metadata");

  /** "array" or "group", checking zarr_format 3; errors name the store and key. */
  public static String nodeType(ObjectNode doc, String location, String key) throws ZarrException {
    JsonNode format = doc.get("zarr_format");
    if (format == null || !format.isIntegralNumber() || format.intValue() != 3) {
      throw new ZarrException(location, key, "zarr_format must be 3, got " + format);
    }
    JsonNode type = doc.get("node_type");
    if (type == null || !type.isTextual() || !(type.asText().equals("array") || type.asText().equals("group"))) {
      throw new ZarrException(location, key, "node_type must be \"array\" or \"group\", got " + type);
    }
    return type.asText();
  }

  public static GroupMetadata readGroup(ObjectNode doc, String location, String key) throws ZarrException {
    if (!nodeType(doc, location, key).equals("group")) {
      throw new ZarrException(location, key, "this is an array, not a group");
    }
    checkExtensions(doc, GROUP_FIELDS, location, key);
    return new GroupMetadata(3, attributes(doc, location, key));
  }

  public static ArrayMetadata readArray(ObjectNode doc, String location, String key) throws ZarrException {
    if (!nodeType(doc, location, key).equals("array")) {
      throw new ZarrException(location, key, "this is a group, not an array");
    }
    checkExtensions(doc, ARRAY_FIELDS, location, key);
    try {
      long[] shape = V2Metadata.longs(V2Metadata.required(doc, "shape"), "shape");
      DataType type = V3DataTypes.parse(V2Metadata.required(doc, "data_type"));
      int[] chunks = chunkGrid(V2Metadata.required(doc, "chunk_grid"));
      if (chunks.length != shape.length) {
        throw new IllegalArgumentException("chunk_grid chunk_shape " + java.util.Arrays.toString(chunks)
            + " does not match the rank of shape " + java.util.Arrays.toString(shape));
      }
      ChunkKeyEncoding keys = keyEncoding(V2Metadata.required(doc, "chunk_key_encoding"));
      FillValue fill = V3FillValues.parse(V2Metadata.required(doc, "fill_value"), type);
      V3ChunkCodec codec = V3Codecs.parse(V2Metadata.required(doc, "codecs"), type, fill, chunks);
      storageTransformers(doc.get("storage_transformers"));
      return new ArrayMetadata(3, shape, chunks, type, fill, codec, keys,
          dimensionNames(doc.get("dimension_names"), shape.length), attributes(doc, location, key));
    } catch (IllegalArgumentException | ArithmeticException | CodecException e) {
      throw new ZarrException(location, key, "invalid array metadata: " + e.getMessage(), e);
    }
  }

  /** Unknown fields are extensions: ignorable only when they say "must_understand": false. */
  static void checkExtensions(ObjectNode doc, Set<String> known, String location, String key)
      throws ZarrException {
    Iterator<Map.Entry<String, JsonNode>> it = doc.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!known.contains(e.getKey()) && !ignorable(e.getValue())) {
        throw new ZarrException(location, key, "unsupported extension \"" + e.getKey()
            + "\" (it does not declare \"must_understand\": false)");
      }
    }
  }

  private static boolean ignorable(JsonNode extension) {
    return extension.isObject() && extension.path("must_understand").isBoolean()
        && !extension.get("must_understand").booleanValue();
  }

  private static void storageTransformers(JsonNode node) {
    if (node == null || node.isNull()) {
      return;
    }
    if (!node.isArray()) {
      throw new IllegalArgumentException("storage_transformers must be a list, got " + node);
    }
    for (JsonNode t : node) {
      if (!ignorable(t)) {
        throw new IllegalArgumentException("unsupported storage transformer " + t);
      }
    }
  }

  private static int[] chunkGrid(JsonNode grid) {
    if (!grid.isObject() || !"regular".equals(grid.path("name").asText())) {
      throw new IllegalArgumentException("unsupported chunk_grid " + grid + " (only \"regular\")");
    }
    return V2Metadata.ints(grid.path("configuration").path("chunk_shape"), "chunk_grid.configuration.chunk_shape");
  }

  private static ChunkKeyEncoding keyEncoding(JsonNode node) {
    String name = node.path("name").asText("");
    JsonNode sep = node.path("configuration").path("separator");
    if (!sep.isMissingNode() && !(sep.isTextual() && (sep.asText().equals(".") || sep.asText().equals("/")))) {
      throw new IllegalArgumentException("chunk_key_encoding separator must be \".\" or \"/\", got " + sep);
    }
    return switch (name) {
      case "default" -> ChunkKeyEncoding.v3Default(sep.isMissingNode() ? '/' : sep.asText().charAt(0));
      case "v2" -> ChunkKeyEncoding.v2(sep.isMissingNode() ? '.' : sep.asText().charAt(0));
      default -> throw new IllegalArgumentException("unsupported chunk_key_encoding " + node);
    };
  }

  private static List<String> dimensionNames(JsonNode node, int rank) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isArray() || node.size() != rank) {
      throw new IllegalArgumentException("dimension_names must be a list of " + rank + " names, got " + node);
    }
    List<String> names = new ArrayList<>();
    for (JsonNode n : node) {
      if (!n.isNull() && !n.isTextual()) {
        throw new IllegalArgumentException("dimension_names must hold strings or null, got " + node);
      }
      names.add(n.isNull() ? null : n.asText());
    }
    return names;
  }

  private static ObjectNode attributes(ObjectNode doc, String location, String key) throws ZarrException {
    JsonNode attrs = doc.get("attributes");
    if (attrs == null || attrs.isNull()) {
      return Json.object();
    }
    if (!attrs.isObject()) {
      throw new ZarrException(location, key, "attributes must be a JSON object");
    }
    return (ObjectNode) attrs;
  }

  // ---- writing ---------------------------------------------------------------------------

  /** The zarr.json of an array; its codec must be a {@link V3ChunkCodec}. */
  public static ObjectNode toJson(ArrayMetadata md) {
    if (!(md.codec() instanceof V3ChunkCodec codec)) {
      throw new IllegalArgumentException("a v3 array needs a v3 codec chain");
    }
    ObjectNode z = Json.object();
    z.put("zarr_format", 3);
    z.put("node_type", "array");
    ArrayNode shape = z.putArray("shape");
    for (long d : md.shape()) {
      shape.add(d);
    }
    z.set("data_type", V3DataTypes.toJson(md.dataType()));
    ObjectNode grid = z.putObject("chunk_grid");
    grid.put("name", "regular");
    ArrayNode chunks = grid.putObject("configuration").putArray("chunk_shape");
    for (int d : md.chunkShape()) {
      chunks.add(d);
    }
    ObjectNode keys = z.putObject("chunk_key_encoding");
    keys.put("name", md.chunkKeyEncoding().prefix().isEmpty() ? "v2" : "default");
    keys.putObject("configuration").put("separator", String.valueOf(md.chunkKeyEncoding().separator()));
    z.set("fill_value", V3FillValues.toJson(md.dataType(), md.fillValue()));
    z.set("codecs", codec.toJson());
    z.set("attributes", md.attributes());
    if (md.dimensionNames() != null) {
      ArrayNode dims = z.putArray("dimension_names");
      md.dimensionNames().forEach(dims::add);
    }
    return z;
  }

  /** The zarr.json of a group. */
  public static ObjectNode groupJson(ObjectNode attributes) {
    ObjectNode z = Json.object();
    z.put("zarr_format", 3);
    z.put("node_type", "group");
    z.set("attributes", attributes == null ? Json.object() : attributes);
    return z;
  }
}
