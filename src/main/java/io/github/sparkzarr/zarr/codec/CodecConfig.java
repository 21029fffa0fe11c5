package io.github.sparkzarr.zarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Reading and writing codec configuration fields, with errors that name the codec and field. */
public final class CodecConfig {
  private CodecConfig() {}

  /** A new configuration object holding {@code "id": id}. */
  public static ObjectNode withId(String id) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("id", id);
    return node;
  }

  public static int requiredInt(JsonNode config, String field) throws CodecException {
    JsonNode v = config.get(field);
    if (v == null || !v.canConvertToInt() || !v.isIntegralNumber()) {
      throw new CodecException(describe(config) + ": \"" + field + "\" must be an integer, got " + v);
    }
    return v.intValue();
  }

  public static int optionalInt(JsonNode config, String field, int fallback)
      throws CodecException {
    JsonNode v = config.get(field);
    return v == null || v.isNull() ? fallback : requiredInt(config, field);
  }

  public static double requiredDouble(JsonNode config, String field) throws CodecException {
    JsonNode v = config.get(field);
    if (v == null || !v.isNumber()) {
      throw new CodecException(describe(config) + ": \"" + field + "\" must be a number, got " + v);
    }
    return v.doubleValue();
  }

  public static String requiredText(JsonNode config, String field) throws CodecException {
    JsonNode v = config.get(field);
    if (v == null || !v.isTextual()) {
      throw new CodecException(describe(config) + ": \"" + field + "\" must be a string, got " + v);
    }
    return v.asText();
  }

  public static String optionalText(JsonNode config, String field, String fallback)
      throws CodecException {
    JsonNode v = config.get(field);
    return v == null || v.isNull() ? fallback : requiredText(config, field);
  }

  /** Builds a codec whose constructor rejects bad settings, naming the codec in the error. */
  public static <T extends Codec> T build(JsonNode config, java.util.function.Supplier<T> constructor)
      throws CodecException {
    try {
      return constructor.get();
    } catch (IllegalArgumentException e) {
      throw new CodecException(describe(config) + ": " + e.getMessage(), e);
    }
  }

  /** "codec 'blosc'" (or the whole configuration when it has no id), for messages. */
  public static String describe(JsonNode config) {
    JsonNode id = config == null ? null : config.get("id");
    return id != null && id.isTextual() ? "codec '" + id.asText() + "'" : "codec " + config;
  }
}
