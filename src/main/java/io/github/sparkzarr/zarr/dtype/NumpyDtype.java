package io.github.sparkzarr.zarr.dtype;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.TextNode;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * numpy type descriptions as v1/v2 metadata and numcodecs configurations hold them: type strings
 * such as {@code "<i4"}, {@code ">M8[ns]"}, {@code "|S10"}, and structured types as lists of
 * {@code [name, type]} or {@code [name, type, shape]}.
 */
public final class NumpyDtype {
  private NumpyDtype() {}

  private static final Pattern SIMPLE =
      Pattern.compile("([<>|=]?)([a-zA-Z])(\\d*)(?:\\[(\\d*)([a-zA-Zμ]+)\\])?");

  /** numpy's datetime64/timedelta64 units. */
  public static final Set<String> TIME_UNITS =
      Set.of("Y", "M", "W", "D", "h", "m", "s", "ms", "us", "μs", "ns", "ps", "fs", "as");

  /** True if {@code node} is numpy's object type "|O", which needs an object codec to resolve. */
  public static boolean isObject(JsonNode node) {
    return node != null && node.isTextual() && node.asText().matches("[<>|=]?O\\d*");
  }

  /**
   * Parses a numpy type description. The object type "|O" is not accepted here: it is resolved by
   * the array's object codec (see {@link #isObject}).
   */
  public static DataType parse(JsonNode node) {
    if (node == null || node.isNull()) {
      throw new IllegalArgumentException("no dtype");
    }
    if (node.isTextual()) {
      return parse(node.asText());
    }
    if (node.isArray()) {
      return parseStruct(node);
    }
    throw new IllegalArgumentException("dtype must be a string or a list of fields, got " + node);
  }

  /** numpy's names of the numeric types, as {@code str(np.dtype("float32"))} gives them. */
  private static final Map<String, String> NAMES = Map.ofEntries(
      Map.entry("bool", "|b1"),
      Map.entry("int8", "|i1"), Map.entry("int16", "<i2"), Map.entry("int32", "<i4"), Map.entry("int64", "<i8"),
      Map.entry("uint8", "|u1"), Map.entry("uint16", "<u2"), Map.entry("uint32", "<u4"), Map.entry("uint64", "<u8"),
      Map.entry("float16", "<f2"), Map.entry("float32", "<f4"), Map.entry("float64", "<f8"),
      Map.entry("complex64", "<c8"), Map.entry("complex128", "<c16"));

  /**
   * Parses a type string ("<f4") or a numpy type name ("float32", little-endian as on the machines
   * that write them): zarr-python 3 writes names into the configurations of numcodecs codecs.
   */
  public static DataType parseTypeOrName(String text) {
    return parse(NAMES.getOrDefault(text, text));
  }

  /** Parses a numpy type string such as "<f8". */
  public static DataType parse(String text) {
    Matcher m = SIMPLE.matcher(text);
    if (!m.matches()) {
      throw new IllegalArgumentException("unknown dtype '" + text + "'");
    }
    ByteOrder order = m.group(1).equals(">") ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    char code = m.group(2).charAt(0);
    String digits = m.group(3);
    int size;
    try {
      size = digits.isEmpty() ? -1 : Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("dtype '" + text + "' has a size too large");
    }
    boolean hasUnit = m.group(5) != null;
    if (hasUnit && code != 'M' && code != 'm') {
      throw new IllegalArgumentException("dtype '" + text + "': only M8 and m8 take a unit");
    }
    try {
      switch (code) {
        case 'b':
          requireSize(text, size, 1);
          return DataType.bool();
        case 'i':
          return DataType.numeric(DataType.Kind.INT, size, order);
        case 'u':
          return DataType.numeric(DataType.Kind.UINT, size, order);
        case 'f':
          return DataType.numeric(DataType.Kind.FLOAT, size, order);
        case 'c':
          return DataType.numeric(DataType.Kind.COMPLEX, size, order);
        case 'M':
        case 'm':
          {
            requireSize(text, size, 8);
            String unit = hasUnit ? m.group(5) : "generic";
            if (hasUnit && !TIME_UNITS.contains(unit)) {
              throw new IllegalArgumentException("dtype '" + text + "' has unknown unit " + unit);
            }
            if (unit.equals("μs")) {
              unit = "us";
            }
            int count = hasUnit && !m.group(4).isEmpty() ? Integer.parseInt(m.group(4)) : 1;
            DataType.Kind kind = code == 'M' ? DataType.Kind.DATETIME : DataType.Kind.TIMEDELTA;
            return DataType.time(kind, unit, count, order);
          }
        case 'S':
          return DataType.fixedLength(DataType.Kind.BYTES, nonNegative(text, size), null);
        case 'U':
          return DataType.fixedLength(
              DataType.Kind.UNICODE, Math.multiplyExact(nonNegative(text, size), 4), order);
        case 'V':
          return DataType.fixedLength(DataType.Kind.RAW, nonNegative(text, size), null);
        default:
          throw new IllegalArgumentException("unknown dtype '" + text + "'");
      }
    } catch (IllegalArgumentException | ArithmeticException e) {
      if (e.getMessage() != null && e.getMessage().contains("'" + text + "'")) {
        throw e;
      }
      throw new IllegalArgumentException("unsupported dtype '" + text + "': " + e.getMessage(), e);
    }
  }

  private static void requireSize(String text, int size, int expected) {
    if (size != expected) {
      throw new IllegalArgumentException("dtype '" + text + "' must have size " + expected);
    }
  }

  private static int nonNegative(String text, int size) {
    if (size < 0) {
      throw new IllegalArgumentException("dtype '" + text + "' needs a length");
    }
    return size;
  }

  private static DataType parseStruct(JsonNode list) {
    List<DataType.Field> fields = new ArrayList<>();
    long offset = 0;
    for (JsonNode entry : list) {
      if (!entry.isArray() || entry.size() < 2 || entry.size() > 3 || !entry.get(0).isTextual()) {
        throw new IllegalArgumentException(
            "structured dtype field must be [name, type] or [name, type, shape], got " + entry);
      }
      String name = entry.get(0).asText();
      DataType type = parse(entry.get(1));
      int[] shape = new int[0];
      if (entry.size() == 3) {
        JsonNode s = entry.get(2);
        if (!s.isArray()) {
          throw new IllegalArgumentException("field '" + name + "' shape must be a list: " + s);
        }
        shape = new int[s.size()];
        for (int i = 0; i < shape.length; i++) {
          if (!s.get(i).isIntegralNumber() || s.get(i).asLong() < 0
              || s.get(i).asLong() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("field '" + name + "' has a bad shape " + s);
          }
          shape[i] = s.get(i).intValue();
        }
      }
      DataType.Field field = new DataType.Field(name, type, shape, Math.toIntExact(offset));
      // numpy writes alignment padding as fields with an empty name: keep the offset, drop them.
      if (!name.isEmpty()) {
        fields.add(field);
      }
      offset += (long) field.count() * type.size();
      if (offset > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("structured dtype is too large: " + list);
      }
    }
    if (fields.isEmpty()) {
      throw new IllegalArgumentException("structured dtype has no fields: " + list);
    }
    return DataType.struct(fields, (int) offset);
  }

  /** The numpy description of {@code type}, as v2 metadata writes it. */
  public static JsonNode toJson(DataType type) {
    if (type.kind() == DataType.Kind.STRUCT) {
      ArrayNode list = JsonNodeFactory.instance.arrayNode();
      int offset = 0;
      int pad = 0;
      for (DataType.Field f : type.fields()) {
        if (f.offset() > offset) {
          list.addArray().add("").add("|V" + (f.offset() - offset));
          pad++;
        }
        ArrayNode entry = list.addArray().add(f.name());
        entry.add(toJson(f.type()));
        if (f.shape().length > 0) {
          ArrayNode shape = entry.addArray();
          for (int d : f.shape()) {
            shape.add(d);
          }
        }
        offset = f.offset() + f.count() * f.type().size();
      }
      if (type.size() > offset) {
        list.addArray().add("").add("|V" + (type.size() - offset));
      }
      return list;
    }
    return TextNode.valueOf(toText(type));
  }

  /** The numpy type string of a non-structured, fixed-size type. */
  public static String toText(DataType type) {
    String order =
        type.order() == null ? "|" : type.order() == ByteOrder.BIG_ENDIAN ? ">" : "<";
    return switch (type.kind()) {
      case BOOL -> "|b1";
      case INT -> order + "i" + type.size();
      case UINT -> order + "u" + type.size();
      case FLOAT -> order + "f" + type.size();
      case COMPLEX -> order + "c" + type.size();
      case DATETIME, TIMEDELTA -> {
        String code = type.kind() == DataType.Kind.DATETIME ? "M8" : "m8";
        yield type.unit().equals("generic")
            ? order + code
            : order + code + "[" + (type.unitCount() == 1 ? "" : type.unitCount()) + type.unit()
                + "]";
      }
      case BYTES -> "|S" + type.size();
      case UNICODE -> order + "U" + type.size() / 4;
      case RAW -> "|V" + type.size();
      case STRING, VLEN_BYTES, JSON -> "|O";
      case STRUCT -> throw new IllegalArgumentException("use toJson for structured types");
    };
  }
}
