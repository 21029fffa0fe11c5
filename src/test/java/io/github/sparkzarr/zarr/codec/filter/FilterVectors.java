package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** The cases gen_filter_vectors.py wrote into src/test/resources/filters/manifest.json. */
final class FilterVectors {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HexFormat HEX = HexFormat.of();

  private FilterVectors() {}

  static JsonNode manifest() throws IOException {
    try (InputStream in = FilterVectors.class.getResourceAsStream("/filters/manifest.json")) {
      if (in == null) {
        throw new IOException("filters/manifest.json is missing: run integration-tests/gen_filter_vectors.py");
      }
      return JSON.readTree(in);
    }
  }

  static List<JsonNode> cases() throws IOException {
    List<JsonNode> out = new ArrayList<>();
    manifest().get("cases").forEach(out::add);
    return out;
  }

  static ArrayFilter codec(JsonNode c) throws CodecException {
    return (ArrayFilter) CodecRegistry.fromConfig(c.get("config"));
  }

  static boolean numeric(JsonNode c) {
    return c.get("kind").asText().equals("numeric");
  }

  /** The decoded (input) chunk of a case. */
  static ChunkData decoded(JsonNode c) {
    if (numeric(c)) {
      DataType type = NumpyDtype.parse(c.get("dtype").asText());
      byte[] bytes = HEX.parseHex(c.get("decoded").asText());
      return ChunkData.ofBytes(type, new int[] {bytes.length / type.size()}, bytes);
    }
    int[] shape = new int[c.get("shape").size()];
    for (int i = 0; i < shape.length; i++) {
      shape[i] = c.get("shape").get(i).asInt();
    }
    return ChunkData.ofObjects(objectType(c), shape, items(c, c.get("items")));
  }

  static DataType objectType(JsonNode c) {
    return DataType.variableLength(
        switch (c.get("kind").asText()) {
          case "string" -> DataType.Kind.STRING;
          case "bytes" -> DataType.Kind.VLEN_BYTES;
          default -> DataType.Kind.JSON;
        });
  }

  static Object[] items(JsonNode c, JsonNode list) {
    boolean bytes = c.get("kind").asText().equals("bytes");
    Object[] out = new Object[list.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode x = list.get(i);
      out[i] = x.isNull() ? null : bytes ? HEX.parseHex(x.asText()) : x.asText();
    }
    return out;
  }

  /** Encoded bytes typed as the codec's encoded type, the way the pipeline hands them over. */
  static ChunkData encodedChunk(ArrayFilter codec, DataType decodedType, byte[] bytes)
      throws CodecException {
    DataType t = codec.encodedType(decodedType);
    return ChunkData.ofBytes(t, new int[] {bytes.length / t.size()}, bytes);
  }
}
