package io.github.sparkzarr.zarr.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Zarr v3 data type names ↔ {@link DataType}: the core types, "rN" raw bits, the "string" and
 * "bytes" types, zarr-python 3's fixed-length text and bytes, and the numpy.datetime64 /
 * numpy.timedelta64 extensions. v3 types carry no byte order (the "bytes" codec has it), so they
 * map to little-endian types.
 */
public final class V3DataTypes {
  private V3DataTypes() {}

  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
  private static final Map<String, DataType> SIMPLE = Map.ofEntries(
      Map.entry("bool", DataType.bool()),
      Map.entry("int8", DataType.numeric(DataType.Kind.INT, 1, LE)),
      Map.entry("int16", DataType.numeric(DataType.Kind.INT, 2, LE)),
      Map.entry("int32", DataType.numeric(DataType.Kind.INT, 4, LE)),
      Map.entry("int64", DataType.numeric(DataType.Kind.INT, 8, LE)),
      Map.entry("uint8", DataType.numeric(DataType.Kind.UINT, 1, LE)),
      Map.entry("uint16", DataType.numeric(DataType.Kind.UINT, 2, LE)),
      Map.entry("uint32", DataType.numeric(DataType.Kind.UINT, 4, LE)),
      Map.entry("uint64", DataType.numeric(DataType.Kind.UINT, 8, LE)),
      Map.entry("float16", DataType.numeric(DataType.Kind.FLOAT, 2, LE)),
      Map.entry("float32", DataType.numeric(DataType.Kind.FLOAT, 4, LE)),
      Map.entry("float64", DataType.numeric(DataType.Kind.FLOAT, 8, LE)),
      Map.entry("complex64", DataType.numeric(DataType.Kind.COMPLEX, 8, LE)),
      Map.entry("complex128", DataType.numeric(DataType.Kind.COMPLEX, 16, LE)),
      Map.entry("string", DataType.variableLength(DataType.Kind.STRING)),
      Map.entry("bytes", DataType.variableLength(DataType.Kind.VLEN_BYTES)),
      Map.entry("variable_length_bytes", DataType.variableLength(DataType.Kind.VLEN_BYTES)));

  private static final String DATETIME = "numpy.datetime64";
  private static final String TIMEDELTA = "numpy.timedelta64";
  private static final String UTF32 = "fixed_length_utf32";
  private static final String NT_BYTES = "null_terminated_bytes";
  /** Records: "struct" ({"name", "data_type"} fields), and zarr-python 3.0's "structured" ([name, type]). */
  private static final String STRUCT = "struct";
  private static final String STRUCTURED = "structured";
  /** zarr-python 3's name for numpy's "V<n>" (written where the spec has "r<bits>"). */
  private static final String RAW_BYTES = "raw_bytes";

  /** The type a v3 "data_type" names; IllegalArgumentException naming it when unknown. */
  public static DataType parse(JsonNode node) {
    if (node != null && node.isTextual()) {
      String name = node.asText();
      DataType simple = SIMPLE.get(name);
      if (simple != null) {
        return simple;
      }
      if (name.matches("r[1-9][0-9]*")) {
        int bits = Integer.parseInt(name.substring(1));
        if (bits % 8 != 0) {
          throw new IllegalArgumentException("data_type " + name + ": raw types need a multiple of 8 bits");
        }
        return DataType.fixedLength(DataType.Kind.RAW, bits / 8, null);
      }
      throw unknown(node);
    }
    if (node == null || !node.isObject() || !node.path("name").isTextual()) {
      throw unknown(node);
    }
    JsonNode config = node.path("configuration");
    switch (node.get("name").asText()) {
      case DATETIME, TIMEDELTA -> {
        String unit = config.path("unit").asText(null);
        JsonNode scale = config.get("scale_factor");
        if (unit == null || !NumpyDtype.TIME_UNITS.contains(unit) || unit.equals("μs")) {
          throw new IllegalArgumentException("data_type " + node + ": unknown time unit " + config.get("unit"));
        }
        int factor = scale == null ? 1 : scale.isIntegralNumber() && scale.canConvertToInt() ? scale.intValue() : 0;
        if (factor < 1) {
          throw new IllegalArgumentException("data_type " + node + ": scale_factor must be a positive integer");
        }
        DataType.Kind kind = node.get("name").asText().equals(DATETIME)
            ? DataType.Kind.DATETIME : DataType.Kind.TIMEDELTA;
        return DataType.time(kind, unit, factor, LE);
      }
      case UTF32 -> {
        return DataType.fixedLength(DataType.Kind.UNICODE, lengthBytes(node), LE);
      }
      case NT_BYTES -> {
        return DataType.fixedLength(DataType.Kind.BYTES, lengthBytes(node), null);
      }
      case STRUCT, STRUCTURED -> {
        return struct(node);
      }
      case RAW_BYTES -> {
        int length = lengthBytes(node);
        if (length < 1) {
          throw new IllegalArgumentException("data_type " + node + ": \"length_bytes\" must be at least 1");
        }
        return DataType.fixedLength(DataType.Kind.RAW, length, null);
      }
      default -> throw unknown(node);
    }
  }

  /** The fields one after another without padding, as numpy lays out a list of (name, type). */
  private static DataType struct(JsonNode node) {
    JsonNode fields = node.path("configuration").get("fields");
    if (fields == null || !fields.isArray() || fields.isEmpty()) {
      throw new IllegalArgumentException("data_type " + node + ": \"fields\" must be a non-empty list");
    }
    List<DataType.Field> out = new ArrayList<>();
    int offset = 0;
    for (JsonNode f : fields) {
      JsonNode name = f.isObject() ? f.get("name") : f.isArray() && f.size() == 2 ? f.get(0) : null;
      JsonNode type = f.isObject() ? f.get("data_type") : f.isArray() && f.size() == 2 ? f.get(1) : null;
      if (name == null || !name.isTextual() || type == null) {
        throw new IllegalArgumentException("data_type " + node + ": a field must be {\"name\", \"data_type\"} or [name, type], got " + f);
      }
      DataType t = parse(type);
      if (t.isVariableLength()) {
        throw new IllegalArgumentException("data_type " + node + ": field '" + name.asText() + "' has a variable length");
      }
      out.add(new DataType.Field(name.asText(), t, new int[0], offset));
      offset = Math.addExact(offset, t.size());
    }
    return DataType.struct(out, offset);
  }

  private static int lengthBytes(JsonNode node) {
    JsonNode n = node.path("configuration").get("length_bytes");
    if (n == null || !n.isIntegralNumber() || n.intValue() < 0) {
      throw new IllegalArgumentException("data_type " + node + ": \"length_bytes\" must be a non-negative integer");
    }
    return n.intValue();
  }

  private static IllegalArgumentException unknown(JsonNode node) {
    return new IllegalArgumentException("unknown data_type " + node + " (supported: "
        + String.join(", ", new java.util.TreeSet<>(SIMPLE.keySet()))
        + ", r<bits>, numpy.datetime64, numpy.timedelta64, fixed_length_utf32, null_terminated_bytes, raw_bytes, struct)");
  }

  /** The v3 "data_type" of {@code type}; IllegalArgumentException if v3 has no name for it. */
  public static JsonNode toJson(DataType type) {
    DataType le = type.littleEndian();
    for (Map.Entry<String, DataType> e : SIMPLE.entrySet()) {
      if (e.getValue().equals(le) && !e.getKey().equals("variable_length_bytes")) {
        return JsonNodeFactory.instance.textNode(e.getKey());
      }
    }
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    switch (type.kind()) {
      case RAW -> {
        return JsonNodeFactory.instance.textNode("r" + type.size() * 8);
      }
      case DATETIME, TIMEDELTA -> {
        node.put("name", type.kind() == DataType.Kind.DATETIME ? DATETIME : TIMEDELTA);
        node.putObject("configuration").put("unit", type.unit()).put("scale_factor", type.unitCount());
      }
      case UNICODE -> {
        node.put("name", UTF32);
        node.putObject("configuration").put("length_bytes", type.size());
      }
      case BYTES -> {
        node.put("name", NT_BYTES);
        node.putObject("configuration").put("length_bytes", type.size());
      }
      case STRUCT -> {
        node.put("name", STRUCT);
        ArrayNode fields = node.putObject("configuration").putArray("fields");
        int offset = 0;
        for (DataType.Field f : type.fields()) {
          if (f.shape().length > 0 || f.offset() != offset) {
            throw new IllegalArgumentException("Zarr v3 has no data type for " + type + " (padding or subarray fields)");
          }
          fields.addObject().put("name", f.name()).set("data_type", toJson(f.type()));
          offset += f.type().size();
        }
        if (offset != type.size()) {
          throw new IllegalArgumentException("Zarr v3 has no data type for " + type + " (trailing padding)");
        }
      }
      default -> throw new IllegalArgumentException("Zarr v3 has no data type for " + type);
    }
    return node;
  }
}
