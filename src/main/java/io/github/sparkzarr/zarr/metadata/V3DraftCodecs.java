package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.Codec;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import java.util.List;

/**
 * The 2022 v3 draft's compressor, {@code {"codec": URI, "configuration": {...}}}, as zarr-python
 * 2.13 writes it: the configuration is numcodecs' own, so the URI's name picks the numcodecs id
 * and the existing codec classes do the work.
 */
final class V3DraftCodecs {
  private V3DraftCodecs() {}

  static final String URI_BASE = "https://purl.org/zarr/spec/codec/";
  /** The compressors zarr-python 2.13 names by URI (it writes no others). */
  private static final List<String> NAMES = List.of("blosc", "gzip", "zlib", "bz2", "lz4", "lzma");

  /** The compressor, or null when the field is absent or null (no compression). */
  static BytesCodec read(JsonNode node) throws CodecException {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isObject() || !node.path("codec").isTextual()) {
      throw new CodecException("compressor must be {\"codec\": URI, \"configuration\": {...}}, got " + node);
    }
    String uri = node.get("codec").asText();
    String name = nameOf(uri);
    JsonNode configuration = node.path("configuration");
    if (!configuration.isMissingNode() && !configuration.isObject()) {
      throw new CodecException("compressor configuration must be an object, got " + configuration);
    }
    JsonNode id = configuration.path("id");
    if (!id.isMissingNode() && !id.asText().equals(name)) {
      // The URI picks the codec; a numcodecs id in the configuration must not swap in another.
      throw new CodecException("compressor configuration id " + id + " contradicts its codec '" + uri + "'");
    }
    ObjectNode config = Json.object();
    if (configuration.isObject()) {
      config.setAll(((ObjectNode) configuration).deepCopy());
    }
    config.put("id", name);
    Codec codec = CodecRegistry.fromConfig(config);
    return (BytesCodec) codec; // every name in NAMES is a compressor
  }

  /** "zlib" for ".../codec/zlib/1.0"; an error for codecs the draft writers do not name. */
  private static String nameOf(String uri) throws CodecException {
    if (uri.startsWith(URI_BASE)) {
      String rest = uri.substring(URI_BASE.length());
      int slash = rest.indexOf('/');
      String name = slash < 0 ? rest : rest.substring(0, slash);
      if (NAMES.contains(name)) {
        return name;
      }
    }
    throw new CodecException("unknown codec '" + uri + "' (supported: " + URI_BASE
        + "{" + String.join(",", NAMES) + "}/1.0)");
  }

  /** The compressor field for {@code codec} (never null). */
  static ObjectNode write(BytesCodec codec) {
    ObjectNode config = codec.toConfig();
    String id = config.remove("id").asText();
    if (!NAMES.contains(id)) {
      throw new IllegalArgumentException("the v3 draft (as zarr-python 2.13 reads it) has no codec '"
          + id + "' (supported: " + String.join(", ", NAMES) + ")");
    }
    ObjectNode out = Json.object().put("codec", URI_BASE + id + "/1.0");
    out.set("configuration", config);
    return out;
  }
}
