package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.HalfFloat;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * Zarr v3 fill values: numbers, "NaN", "Infinity", "-Infinity", "0x…" bit patterns for floats,
 * [re, im] for complex, true/false, byte lists (or base64) for raw types, strings for text, "NaT" or integers
 * for datetimes. Parsing gives the element in memory layout; writing gives the canonical JSON.
 */
public final class V3FillValues {
  private V3FillValues() {}

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final long NAT = Long.MIN_VALUE;

  /** Parses {@code json} for {@code type}; IllegalArgumentException naming the value if bad. */
  public static FillValue parse(JsonNode json, DataType type) {
    if (json == null || json.isNull()) {
      throw bad(json, type, "a v3 fill_value must not be null");
    }
    switch (type.kind()) {
      case STRING -> {
        if (!json.isTextual()) {
          throw bad(json, type, "a string fill value must be a string");
        }
        return FillValue.ofObject(json.asText(), json);
      }
      case VLEN_BYTES -> {
        return FillValue.ofObject(byteList(json, type, -1), json);
      }
      default -> {
        return FillValue.ofElement(type, element(json, type), json);
      }
    }
  }

  private static byte[] element(JsonNode j, DataType type) {
    ByteBuffer buf = ByteBuffer.allocate(type.size()).order(ByteOrder.LITTLE_ENDIAN);
    switch (type.kind()) {
      case BOOL -> {
        if (!j.isBoolean()) {
          throw bad(j, type, "a bool fill value must be true or false");
        }
        buf.put((byte) (j.booleanValue() ? 1 : 0));
      }
      case INT, UINT, DATETIME, TIMEDELTA -> putInteger(buf, integer(j, type), type.size());
      case FLOAT -> putFloat(buf, 0, type.size(), j, type);
      case COMPLEX -> {
        if (!j.isArray() || j.size() != 2) {
          throw bad(j, type, "a complex fill value must be [real, imaginary]");
        }
        putFloat(buf, 0, type.size() / 2, j.get(0), type);
        putFloat(buf, type.size() / 2, type.size() / 2, j.get(1), type);
      }
      case RAW -> {
        // zarr-python 3 writes the fill value of its "raw_bytes" type in base64
        byte[] raw = j.isTextual() ? base64(j, type) : byteList(j, type, type.size());
        if (raw.length != type.size()) {
          throw bad(j, type, "the fill value must have exactly " + type.size() + " bytes");
        }
        buf.put(raw);
      }
      case BYTES -> {
        byte[] raw = j.isTextual() ? base64(j, type) : byteList(j, type, -1);
        if (raw.length > type.size()) {
          throw bad(j, type, "the fill value is longer than the type");
        }
        buf.put(raw);
      }
      case UNICODE -> {
        if (!j.isTextual()) {
          throw bad(j, type, "a text fill value must be a string");
        }
        int[] cps = j.asText().codePoints().toArray();
        if (cps.length * 4 > type.size()) {
          throw bad(j, type, "the fill value is longer than the type");
        }
        for (int cp : cps) {
          buf.putInt(cp);
        }
      }
      case STRUCT -> buf.put(structElement(j, type));
      default -> throw bad(j, type, "v3 has no fill value for this type");
    }
    return buf.array();
  }

  /** A record's fill value: an object of each field's fill value, or (zarr-python 3.0) base64 bytes. */
  private static byte[] structElement(JsonNode j, DataType type) {
    if (j.isTextual()) {
      byte[] raw = base64(j, type);
      if (raw.length != type.size()) {
        throw bad(j, type, "the fill value must have exactly " + type.size() + " bytes");
      }
      return raw;
    }
    if (!j.isObject()) {
      throw bad(j, type, "a struct fill value must be an object of field values or base64 bytes");
    }
    byte[] el = new byte[type.size()];
    for (DataType.Field f : type.fields()) {
      JsonNode v = j.get(f.name());
      if (v == null) {
        throw bad(j, type, "the fill value has no field '" + f.name() + "'");
      }
      byte[] part = element(v, f.type());
      System.arraycopy(part, 0, el, f.offset(), part.length);
    }
    if (j.size() != type.fields().size()) {
      throw bad(j, type, "the fill value has fields the type does not");
    }
    return el;
  }

  private static BigInteger integer(JsonNode j, DataType type) {
    BigInteger v;
    boolean time = type.kind() == DataType.Kind.DATETIME || type.kind() == DataType.Kind.TIMEDELTA;
    if (j.isIntegralNumber()) {
      v = j.bigIntegerValue();
    } else if (time && j.isTextual() && j.asText().equals("NaT")) {
      v = BigInteger.valueOf(NAT);
    } else if (j.isTextual() && j.asText().matches("0x[0-9a-fA-F]+")) {
      v = new BigInteger(j.asText().substring(2), 16);
      if (type.kind() == DataType.Kind.INT && v.bitLength() == type.size() * 8) {
        v = v.subtract(BigInteger.ONE.shiftLeft(type.size() * 8));
      }
    } else {
      throw bad(j, type, "an integer fill value must be an integer");
    }
    int bits = type.size() * 8;
    boolean unsigned = type.kind() == DataType.Kind.UINT;
    BigInteger min = unsigned ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1).negate();
    BigInteger max = unsigned ? BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
        : BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
    if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
      throw bad(j, type, "the fill value is out of range");
    }
    return v;
  }

  private static void putInteger(ByteBuffer buf, BigInteger v, int size) {
    long l = v.longValue();
    for (int i = 0; i < size; i++) {
      buf.put(i, (byte) (l >>> (8 * i)));
    }
  }

  private static void putFloat(ByteBuffer buf, int at, int size, JsonNode j, DataType type) {
    if (j.isTextual() && j.asText().matches("0x[0-9a-fA-F]+")) {
      String hex = j.asText().substring(2);
      if (hex.length() != size * 2) {
        throw bad(j, type, "a hex fill value needs " + size * 2 + " hex digits");
      }
      putInteger(buf.slice(at, size).order(ByteOrder.LITTLE_ENDIAN), new BigInteger(hex, 16), size);
      return;
    }
    double v;
    try {
      v = FillValue.parseDouble(j);
    } catch (IllegalArgumentException e) {
      throw bad(j, type, "a float fill value must be a number, \"NaN\", \"Infinity\", \"-Infinity\" or \"0x…\"");
    }
    switch (size) {
      case 2 -> buf.putShort(at, HalfFloat.fromDouble(v));
      case 4 -> buf.putFloat(at, (float) v);
      default -> buf.putDouble(at, v);
    }
  }

  private static byte[] byteList(JsonNode j, DataType type, int size) {
    if (j.isTextual() && size < 0) {
      return base64(j, type);
    }
    if (!j.isArray() || (size >= 0 && j.size() != size)) {
      throw bad(j, type, "the fill value must be a list of " + (size >= 0 ? size + " " : "") + "byte values");
    }
    byte[] out = new byte[j.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode b = j.get(i);
      if (!b.isIntegralNumber() || b.intValue() < 0 || b.intValue() > 255) {
        throw bad(j, type, "byte values must be integers 0..255");
      }
      out[i] = (byte) b.intValue();
    }
    return out;
  }

  private static byte[] base64(JsonNode j, DataType type) {
    try {
      return Base64.getDecoder().decode(j.asText());
    } catch (IllegalArgumentException e) {
      throw bad(j, type, "the fill value is not valid base64");
    }
  }

  /** The canonical v3 JSON of {@code fill} for {@code type}. */
  public static JsonNode toJson(DataType type, FillValue fill) {
    switch (type.kind()) {
      case STRING -> {
        return NODES.textNode(fill.object() == null ? "" : (String) fill.object());
      }
      case VLEN_BYTES -> {
        byte[] b = fill.object() == null ? new byte[0] : (byte[]) fill.object();
        return NODES.textNode(Base64.getEncoder().encodeToString(b));
      }
      default -> {
        return elementJson(type, fill.element());
      }
    }
  }

  private static JsonNode elementJson(DataType type, byte[] el) {
    ByteBuffer buf = ByteBuffer.wrap(el).order(ByteOrder.LITTLE_ENDIAN);
    switch (type.kind()) {
      case BOOL -> {
        return NODES.booleanNode(el[0] != 0);
      }
      case INT, DATETIME, TIMEDELTA -> {
        long v = switch (type.size()) {
          case 1 -> buf.get(0);
          case 2 -> buf.getShort(0);
          case 4 -> buf.getInt(0);
          default -> buf.getLong(0);
        };
        return NODES.numberNode(v);
      }
      case UINT -> {
        byte[] be = new byte[type.size() + 1];
        for (int i = 0; i < type.size(); i++) {
          be[be.length - 1 - i] = el[i];
        }
        return NODES.numberNode(new BigInteger(be));
      }
      case FLOAT -> {
        return floatJson(buf, 0, type.size());
      }
      case COMPLEX -> {
        ArrayNode pair = NODES.arrayNode();
        pair.add(floatJson(buf, 0, type.size() / 2));
        pair.add(floatJson(buf, type.size() / 2, type.size() / 2));
        return pair;
      }
      case RAW -> {
        ArrayNode list = NODES.arrayNode();
        for (byte b : el) {
          list.add(b & 0xff);
        }
        return list;
      }
      case BYTES -> {
        return NODES.textNode(Base64.getEncoder().encodeToString(el));
      }
      case UNICODE -> {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < el.length; i += 4) {
          int cp = buf.getInt(i);
          if (cp != 0) {
            s.appendCodePoint(cp);
          }
        }
        return NODES.textNode(s.toString());
      }
      case STRUCT -> {
        ObjectNode fields = NODES.objectNode();
        for (DataType.Field f : type.fields()) {
          fields.set(f.name(), elementJson(f.type(), Arrays.copyOfRange(el, f.offset(), f.offset() + f.type().size())));
        }
        return fields;
      }
      default -> throw new IllegalArgumentException("Zarr v3 has no fill value for " + type);
    }
  }

  /** A number, or "NaN"/"Infinity"/"-Infinity", or a hex bit pattern for a NaN with a payload. */
  private static JsonNode floatJson(ByteBuffer buf, int at, int size) {
    double v;
    long bits;
    long canonicalNan;
    switch (size) {
      case 2 -> {
        short h = buf.getShort(at);
        v = HalfFloat.toDouble(h);
        bits = h & 0xffffL;
        canonicalNan = 0x7e00L;
      }
      case 4 -> {
        float f = buf.getFloat(at);
        v = f;
        bits = Float.floatToRawIntBits(f) & 0xffffffffL;
        canonicalNan = 0x7fc00000L;
      }
      default -> {
        v = buf.getDouble(at);
        bits = Double.doubleToRawLongBits(v);
        canonicalNan = 0x7ff8000000000000L;
      }
    }
    if (Double.isNaN(v)) {
      return bits == canonicalNan ? NODES.textNode("NaN")
          : NODES.textNode(String.format("0x%0" + size * 2 + "x", bits));
    }
    if (Double.isInfinite(v)) {
      return NODES.textNode(v > 0 ? "Infinity" : "-Infinity");
    }
    return size == 4 ? NODES.numberNode((float) v) : NODES.numberNode(v);
  }

  private static IllegalArgumentException bad(JsonNode j, DataType type, String why) {
    return new IllegalArgumentException("bad fill_value " + j + " for " + type + ": " + why);
  }
}
