package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** JSON reading and writing for metadata documents, with errors that name the store and key. */
public final class Json {
  private Json() {}

  /** Python's json module writes NaN and Infinity as bare tokens; accept and write them. */
  private static final JsonMapper MAPPER =
      JsonMapper.builder()
          .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
          .enable(SerializationFeature.INDENT_OUTPUT)
          .enable(JsonWriteFeature.WRITE_NAN_AS_STRINGS)
          .build();

  public static JsonNodeFactory nodes() {
    return JsonNodeFactory.instance;
  }

  public static ObjectNode object() {
    return JsonNodeFactory.instance.objectNode();
  }

  /** Parses a metadata document; malformed or non-object JSON is a ZarrException. */
  public static ObjectNode parseObject(byte[] bytes, String location, String key)
      throws ZarrException {
    JsonNode node = parse(bytes, location, key);
    if (!node.isObject()) {
      throw new ZarrException(location, key, "metadata must be a JSON object, got " + node.getNodeType());
    }
    return (ObjectNode) node;
  }

  public static JsonNode parse(byte[] bytes, String location, String key) throws ZarrException {
    try {
      JsonNode node = MAPPER.readTree(bytes);
      if (node == null || node.isMissingNode()) {
        throw new ZarrException(location, key, "malformed JSON: the document is empty");
      }
      return node;
    } catch (JsonProcessingException e) {
      throw new ZarrException(location, key, "malformed JSON: " + e.getOriginalMessage(), e);
    } catch (IOException e) {
      throw new ZarrException(location, key, "unreadable JSON: " + e.getMessage(), e);
    }
  }

  /**
   * Pretty-printed JSON with every non-ASCII character escaped ("\u00e9"): zarr-python 2.13
   * decodes metadata documents as ASCII and rejects raw UTF-8.
   */
  public static byte[] writeAscii(JsonNode node) {
    try {
      return MAPPER.writer().with(JsonWriteFeature.ESCAPE_NON_ASCII)
          .writeValueAsString(node).getBytes(StandardCharsets.US_ASCII);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize " + node, e);
    }
  }

  /** Pretty-printed UTF-8 JSON, as zarr-python writes metadata. */
  public static byte[] write(JsonNode node) {
    try {
      return MAPPER.writeValueAsString(node).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot serialize " + node, e);
    }
  }
}
