package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.BytesCodecFilter;
import io.github.sparkzarr.zarr.codec.Codec;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import java.util.ArrayList;
import java.util.List;

/** Reads and writes Zarr v2 `.zarray` documents. */
public final class V2Metadata {
  private V2Metadata() {}

  public static final String ARRAY_KEY = ".zarray";
  public static final String GROUP_KEY = ".zgroup";
  public static final String ATTRS_KEY = ".zattrs";
  public static final String CONSOLIDATED_KEY = ".zmetadata";
  /** The attribute xarray uses for dimension names in v2. */
  public static final String DIMENSIONS_ATTR = "_ARRAY_DIMENSIONS";

  /**
   * Builds the metadata of an array from its `.zarray` document and its attributes.
   *
   * @param key the `.zarray` key, for messages
   */
  public static ArrayMetadata readArray(
      ObjectNode zarray, ObjectNode attributes, String location, String key) throws ZarrException {
    try {
      int format = requiredInt(zarray, "zarr_format");
      if (format != 2) {
        throw new IllegalArgumentException("zarr_format must be 2, got " + format);
      }
      long[] shape = longs(required(zarray, "shape"), "shape");
      int[] chunks = ints(required(zarray, "chunks"), "chunks");
      JsonNode dtypeNode = required(zarray, "dtype");
      List<ArrayFilter> filters = filters(zarray.get("filters"));
      if (!zarray.has("filters")) {
        throw new IllegalArgumentException("required field \"filters\" is missing (use null for none)");
      }
      if (!zarray.has("compressor")) {
        throw new IllegalArgumentException("required field \"compressor\" is missing");
      }
      if (!zarray.has("fill_value")) {
        throw new IllegalArgumentException("required field \"fill_value\" is missing");
      }
      BytesCodec compressor = compressor(zarray.get("compressor"));
      DataType dtype = dataType(dtypeNode, filters);
      String order = requiredText(zarray, "order");
      if (!order.equals("C") && !order.equals("F")) {
        throw new IllegalArgumentException("order must be \"C\" or \"F\", got \"" + order + "\"");
      }
      char separator = separator(zarray.get("dimension_separator"));
      FillValue fill = FillValue.parseV2(zarray.get("fill_value"), dtype);
      V2ChunkCodec codec = new V2ChunkCodec(dtype, order.equals("F"), filters, compressor);
      ObjectNode attrs = attributes == null ? Json.object() : attributes;
      return new ArrayMetadata(
          2, shape, chunks, dtype, fill, codec, ChunkKeyEncoding.v2(separator),
          dimensionNames(attrs, shape.length), attrs);
    } catch (IllegalArgumentException | ArithmeticException | CodecException e) {
      throw new ZarrException(location, key, "invalid array metadata: " + e.getMessage(), e);
    }
  }

  private static DataType dataType(JsonNode dtypeNode, List<ArrayFilter> filters)
      throws CodecException {
    if (!NumpyDtype.isObject(dtypeNode)) {
      try {
        return NumpyDtype.parse(dtypeNode);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("dtype: " + e.getMessage(), e);
      }
    }
    // An object array's element type is decided by its object codec, the first filter.
    if (!filters.isEmpty()) {
      switch (filters.get(0).id()) {
        case "vlen-utf8":
          return DataType.variableLength(DataType.Kind.STRING);
        case "vlen-bytes":
          return DataType.variableLength(DataType.Kind.VLEN_BYTES);
        case "json2":
        case "json":
          return DataType.variableLength(DataType.Kind.JSON);
        case "categorize":
          return DataType.variableLength(DataType.Kind.STRING);
        default:
          break;
      }
    }
    throw new IllegalArgumentException(
        "dtype \"|O\" (object) needs an object codec (vlen-utf8, vlen-bytes or json2) as its first filter");
  }

  static List<String> dimensionNames(ObjectNode attrs, int rank) {
    JsonNode dims = attrs.get(DIMENSIONS_ATTR);
    if (dims == null || !dims.isArray() || dims.size() != rank) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (JsonNode d : dims) {
      names.add(d.isTextual() ? d.asText() : null);
    }
    return names;
  }

  private static List<ArrayFilter> filters(JsonNode node) throws CodecException {
    List<ArrayFilter> out = new ArrayList<>();
    if (node == null || node.isNull()) {
      return out;
    }
    if (!node.isArray()) {
      throw new IllegalArgumentException("filters must be a list or null, got " + node);
    }
    for (JsonNode config : node) {
      Codec c = CodecRegistry.fromConfig(config);
      out.add(c instanceof ArrayFilter f ? f : new BytesCodecFilter((BytesCodec) c));
    }
    return out;
  }

  private static BytesCodec compressor(JsonNode node) throws CodecException {
    if (node == null || node.isNull()) {
      return null;
    }
    Codec c = CodecRegistry.fromConfig(node);
    if (!(c instanceof BytesCodec b)) {
      throw new CodecException("codec '" + c.id() + "' is a filter, not a compressor");
    }
    return b;
  }

  private static char separator(JsonNode node) {
    if (node == null || node.isNull()) {
      return '.';
    }
    String s = node.asText();
    if (!node.isTextual() || !(s.equals(".") || s.equals("/"))) {
      throw new IllegalArgumentException("dimension_separator must be \".\" or \"/\", got " + node);
    }
    return s.charAt(0);
  }

  // ---- writing ---------------------------------------------------------------------------

  /** The `.zarray` document of {@code md}, whose codec must be a {@link V2ChunkCodec}. */
  public static ObjectNode toZarray(ArrayMetadata md) {
    if (!(md.codec() instanceof V2ChunkCodec codec)) {
      throw new IllegalArgumentException("a v2 array needs a v2 codec chain");
    }
    ObjectNode z = Json.object();
    z.put("zarr_format", 2);
    ArrayNode shape = z.putArray("shape");
    for (long d : md.shape()) {
      shape.add(d);
    }
    ArrayNode chunks = z.putArray("chunks");
    for (int d : md.chunkShape()) {
      chunks.add(d);
    }
    z.set("dtype", NumpyDtype.toJson(codec.storageType()));
    z.set("compressor", codec.compressor() == null ? NullNode.getInstance() : codec.compressor().toConfig());
    z.set("fill_value", md.fillValue().json());
    z.put("order", codec.fortranOrder() ? "F" : "C");
    if (codec.filters().isEmpty()) {
      z.set("filters", NullNode.getInstance());
    } else {
      ArrayNode filters = z.putArray("filters");
      for (ArrayFilter f : codec.filters()) {
        filters.add(f.toConfig());
      }
    }
    z.put("dimension_separator", String.valueOf(md.chunkKeyEncoding().separator()));
    return z;
  }

  // ---- field helpers ---------------------------------------------------------------------

  static JsonNode required(ObjectNode doc, String field) {
    JsonNode v = doc.get(field);
    if (v == null) {
      throw new IllegalArgumentException("required field \"" + field + "\" is missing");
    }
    return v;
  }

  static int requiredInt(ObjectNode doc, String field) {
    JsonNode v = required(doc, field);
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw new IllegalArgumentException("\"" + field + "\" must be an integer, got " + v);
    }
    return v.intValue();
  }

  static String requiredText(ObjectNode doc, String field) {
    JsonNode v = required(doc, field);
    if (!v.isTextual()) {
      throw new IllegalArgumentException("\"" + field + "\" must be a string, got " + v);
    }
    return v.asText();
  }

  static long[] longs(JsonNode node, String field) {
    if (!node.isArray()) {
      throw new IllegalArgumentException("\"" + field + "\" must be a list of integers, got " + node);
    }
    long[] out = new long[node.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode v = node.get(i);
      if (!v.isIntegralNumber() || !v.canConvertToLong()) {
        throw new IllegalArgumentException("\"" + field + "\" must be a list of integers, got " + node);
      }
      out[i] = v.longValue();
      if (out[i] < 0) {
        throw new IllegalArgumentException("\"" + field + "\" has a negative length: " + node);
      }
    }
    return out;
  }

  static int[] ints(JsonNode node, String field) {
    long[] l = longs(node, field);
    int[] out = new int[l.length];
    for (int i = 0; i < l.length; i++) {
      if (l[i] > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("\"" + field + "\" has a length too large: " + node);
      }
      out[i] = (int) l[i];
    }
    return out;
  }
}
