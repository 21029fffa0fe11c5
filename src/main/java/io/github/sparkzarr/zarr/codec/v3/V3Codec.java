package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.metadata.Json;

/** A codec of a Zarr v3 chain, which writes itself back as {@code {"name", "configuration"}}. */
public interface V3Codec {
  String name();

  /** The codec's entry in a v3 "codecs" list. */
  ObjectNode toJson();

  /** {@code {"name": name, "configuration": configuration}}, without a null configuration. */
  static ObjectNode entry(String name, JsonNode configuration) {
    ObjectNode node = Json.object().put("name", name);
    if (configuration != null) {
      node.set("configuration", configuration);
    }
    return node;
  }
}
