package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.util.List;
import java.util.Set;

/**
 * Reads and writes the documents of the 2022 Zarr v3 editor's draft as zarr-python 2.13 writes
 * them: the {@code zarr.json} entry point, {@code *.array.json} (shape, data_type, chunk_grid,
 * chunk_memory_layout, compressor, fill_value, attributes, extensions) and {@code *.group.json}.
 * Chunks go through the v1/v2 pipeline (memory order, byte order, one compressor).
 */
public final class V3DraftMetadata {
  private V3DraftMetadata() {}

  public static final String ENTRY_POINT_KEY = "zarr.json";
  /** The entry point's zarr_format as zarr-python 2.13 writes it. */
  public static final String PROTOCOL_URI = "https://purl.org/zarr/spec/protocol/core/3.0";
  /** The draft's later specification URI, also accepted. */
  private static final Set<String> FORMAT_URIS = Set.of(PROTOCOL_URI, "https://purl.org/zarr/spec/core/3.0");
  private static final String DEFAULT_SUFFIX = ".json";
  /** The prefix of every URI the draft's documents use. */
  private static final String SPEC_URI_BASE = "https://purl.org/zarr/spec/";

  // ---- entry point ------------------------------------------------------------------------

  /** True when {@code doc} is a draft entry point (zarr_format is the draft's URI, not 3). */
  public static boolean isEntryPoint(ObjectNode doc) {
    JsonNode format = doc.get("zarr_format");
    return format != null && format.isTextual() && FORMAT_URIS.contains(format.asText());
  }

  /**
   * True when {@code doc} claims to be a draft entry point of a version we do not know: its
   * zarr_format is a URI below the draft's "https://purl.org/zarr/spec/".
   */
  public static boolean isUnknownDraftVersion(ObjectNode doc) {
    JsonNode format = doc.get("zarr_format");
    return format != null && format.isTextual() && format.asText().startsWith(SPEC_URI_BASE) && !isEntryPoint(doc);
  }

  /**
   * The metadata key suffix the entry point declares; refuses extensions it must understand and
   * metadata encodings other than the draft's JSON.
   */
  public static String keySuffix(ObjectNode entry, String location) throws ZarrException {
    if (!isEntryPoint(entry)) {
      throw new ZarrException(location, ENTRY_POINT_KEY, "not a v3 draft entry point: zarr_format must be \""
          + PROTOCOL_URI + "\", got " + entry.get("zarr_format"));
    }
    checkExtensions(entry.get("extensions"), location, ENTRY_POINT_KEY);
    checkEncoding(entry.get("metadata_encoding"), location);
    JsonNode suffix = entry.get("metadata_key_suffix");
    if (suffix == null || suffix.isNull()) {
      return DEFAULT_SUFFIX;
    }
    if (!suffix.isTextual() || !isKeySegmentSuffix(suffix.asText())) {
      throw new ZarrException(location, ENTRY_POINT_KEY,
          "metadata_key_suffix must be a string without '/', '\\' or control characters, got " + suffix);
    }
    return suffix.asText();
  }

  /** True when appending {@code suffix} to a node name keeps it one valid key segment. */
  private static boolean isKeySegmentSuffix(String suffix) {
    if (suffix.indexOf('/') >= 0) {
      return false;
    }
    try {
      StoreKeys.validate("root.array" + suffix);
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** Documents in any other encoding would be misread as JSON, so only the draft's is accepted. */
  private static void checkEncoding(JsonNode encoding, String location) throws ZarrException {
    if (encoding != null && !encoding.isNull()
        && !(encoding.isTextual() && FORMAT_URIS.contains(encoding.asText()))) {
      throw new ZarrException(location, ENTRY_POINT_KEY, "unsupported metadata_encoding " + encoding
          + " (supported: \"" + PROTOCOL_URI + "\", JSON)");
    }
  }

  /** The entry point zarr-python 2.13 writes. */
  public static ObjectNode entryPoint() {
    ObjectNode z = Json.object();
    z.putArray("extensions");
    z.put("metadata_encoding", PROTOCOL_URI);
    z.put("metadata_key_suffix", DEFAULT_SUFFIX);
    z.put("zarr_format", PROTOCOL_URI);
    return z;
  }

  /** Draft extensions are {"extension": URI, "must_understand": bool}; we understand none. */
  private static void checkExtensions(JsonNode list, String location, String key) throws ZarrException {
    if (list == null || list.isNull()) {
      return;
    }
    if (!list.isArray()) {
      throw new ZarrException(location, key, "extensions must be a list, got " + list);
    }
    for (JsonNode e : list) {
      if (!(e.isObject() && e.path("must_understand").isBoolean() && !e.get("must_understand").booleanValue())) {
        throw new ZarrException(location, key, "unsupported extension " + e
            + " (it does not declare \"must_understand\": false)");
      }
    }
  }

  // ---- arrays -----------------------------------------------------------------------------

  /**
   * The metadata of the array described by {@code doc}, whose chunks live below {@code dataRoot}
   * (e.g. "data/root/a/b").
   */
  public static ArrayMetadata readArray(ObjectNode doc, String dataRoot, String location, String key)
      throws ZarrException {
    checkExtensions(doc.get("extensions"), location, key);
    try {
      long[] shape = V2Metadata.longs(V2Metadata.required(doc, "shape"), "shape");
      DataType type = dataType(V2Metadata.required(doc, "data_type"));
      JsonNode grid = V2Metadata.required(doc, "chunk_grid");
      if (!grid.isObject() || !"regular".equals(grid.path("type").asText())) {
        throw new IllegalArgumentException("unsupported chunk_grid " + grid + " (only type \"regular\")");
      }
      int[] chunks = V2Metadata.ints(grid.path("chunk_shape"), "chunk_grid.chunk_shape");
      char separator = separator(grid.get("separator"));
      String layout = V2Metadata.requiredText(doc, "chunk_memory_layout");
      if (!layout.equals("C") && !layout.equals("F")) {
        throw new IllegalArgumentException("chunk_memory_layout must be \"C\" or \"F\", got \"" + layout + "\"");
      }
      if (!doc.has("fill_value")) {
        throw new IllegalArgumentException("required field \"fill_value\" is missing");
      }
      JsonNode transformers = doc.get("storage_transformers");
      if (transformers != null && !transformers.isNull() && !(transformers.isArray() && transformers.isEmpty())) {
        throw new IllegalArgumentException("unsupported storage_transformers " + transformers);
      }
      FillValue fill = FillValue.parseV2(doc.get("fill_value"), type);
      V2ChunkCodec codec = new V2ChunkCodec(type, layout.equals("F"), List.of(), V3DraftCodecs.read(doc.get("compressor")));
      ObjectNode attrs = attributes(doc, location, key);
      return new ArrayMetadata(3, shape, chunks, type, fill, codec, ChunkKeyEncoding.v3Draft(separator, dataRoot),
          V2Metadata.dimensionNames(attrs, shape.length), attrs);
    } catch (IllegalArgumentException | ArithmeticException | CodecException e) {
      throw new ZarrException(location, key, "invalid array metadata: " + e.getMessage(), e);
    }
  }

  /** Numpy-like strings ("<i4", and the core names "bool", "i1", "u1"), or {"type": ...} objects. */
  private static DataType dataType(JsonNode node) {
    JsonNode t = node.isObject() ? node.get("type") : node;
    if (t == null) {
      throw new IllegalArgumentException("data_type " + node + " has no \"type\"");
    }
    if (NumpyDtype.isObject(t)) {
      throw new IllegalArgumentException("data_type " + t + ": object arrays are not supported in the v3 draft");
    }
    String text = t.isTextual() ? t.asText() : null;
    try {
      return switch (text == null ? "" : text) {
        case "bool" -> NumpyDtype.parse("|b1");
        case "i1", "u1" -> NumpyDtype.parse("|" + text);
        default -> NumpyDtype.parse(t);
      };
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("data_type: " + e.getMessage(), e);
    }
  }

  private static char separator(JsonNode node) {
    if (node == null || node.isNull()) {
      return '/';
    }
    if (!node.isTextual() || !(node.asText().equals("/") || node.asText().equals("."))) {
      throw new IllegalArgumentException("chunk_grid separator must be \"/\" or \".\", got " + node);
    }
    return node.asText().charAt(0);
  }

  private static ObjectNode attributes(ObjectNode doc, String location, String key) throws ZarrException {
    JsonNode attrs = doc.get("attributes");
    if (attrs == null || attrs.isNull()) {
      return Json.object();
    }
    if (!attrs.isObject()) {
      throw new ZarrException(location, key, "attributes must be a JSON object, got " + attrs);
    }
    return (ObjectNode) attrs;
  }

  /** The array document of {@code md}; its codec must be a filter-less v1/v2 pipeline. */
  public static ObjectNode toJson(ArrayMetadata md) {
    if (!(md.codec() instanceof V2ChunkCodec codec) || !codec.filters().isEmpty()) {
      throw new IllegalArgumentException("a v3 draft array needs an order + compressor codec chain without filters");
    }
    ObjectNode z = Json.object();
    z.set("attributes", md.attributes() == null ? Json.object() : md.attributes());
    ObjectNode grid = z.putObject("chunk_grid");
    ArrayNode chunks = grid.putArray("chunk_shape");
    for (int d : md.chunkShape()) {
      chunks.add(d);
    }
    grid.put("separator", String.valueOf(md.chunkKeyEncoding().separator()));
    grid.put("type", "regular");
    z.put("chunk_memory_layout", codec.fortranOrder() ? "F" : "C");
    if (codec.compressor() != null) {
      z.set("compressor", V3DraftCodecs.write(codec.compressor()));
    }
    z.set("data_type", dataTypeJson(codec.storageType()));
    z.putArray("extensions");
    z.set("fill_value", md.fillValue().json());
    ArrayNode shape = z.putArray("shape");
    for (long d : md.shape()) {
      shape.add(d);
    }
    return z;
  }

  private static JsonNode dataTypeJson(DataType type) {
    if (type.isVariableLength()) {
      throw new IllegalArgumentException("the v3 draft writer does not support variable-length " + type);
    }
    JsonNode numpy = NumpyDtype.toJson(type);
    return switch (numpy.asText("")) {
      case "|b1" -> TextNode.valueOf("bool");
      case "|i1", "|u1" -> TextNode.valueOf(numpy.asText().substring(1));
      default -> numpy;
    };
  }

  // ---- groups -----------------------------------------------------------------------------

  public static GroupMetadata readGroup(ObjectNode doc, String location, String key) throws ZarrException {
    checkExtensions(doc.get("extensions"), location, key);
    return new GroupMetadata(3, attributes(doc, location, key));
  }

  public static ObjectNode groupJson(ObjectNode attributes) {
    ObjectNode z = Json.object();
    z.set("attributes", attributes == null ? Json.object() : attributes);
    return z;
  }
}
