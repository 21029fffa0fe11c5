package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import io.github.sparkzarr.zarr.dtype.ByteSwapper;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.HalfFloat;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * An array's fill value: what missing chunks and unwritten elements read as.
 *
 * <p>For fixed-size types it is one element in memory layout (little-endian); a null fill value
 * reads as zeros, as zarr-python 3 does. For variable-length types it is a String, a byte[] or
 * null.
 */
public final class FillValue {
  private final JsonNode json;
  private final byte[] element;
  private final Object object;

  private FillValue(JsonNode json, byte[] element, Object object) {
    this.json = json;
    this.element = element;
    this.object = object;
  }

  /** The fill value as the metadata gave it. */
  public JsonNode json() {
    return json;
  }

  public boolean isNull() {
    return json == null || json.isNull();
  }

  /** One element in memory layout (fixed-size types only; do not modify). */
  public byte[] element() {
    if (element == null) {
      throw new IllegalStateException("variable-length fill values are objects");
    }
    return element;
  }

  /** The fill element of a variable-length type (String, byte[] or null). */
  public Object object() {
    return object;
  }

  /** A fill value built from one element in memory layout, written as v2 metadata writes it. */
  public static FillValue ofElement(DataType type, byte[] element, JsonNode json) {
    return new FillValue(json, element.clone(), null);
  }

  /** A variable-length type's fill value (a String, a byte[] or null). */
  public static FillValue ofObject(Object object, JsonNode json) {
    return new FillValue(json, null, object);
  }

  /** Parses a v2 (numpy-style) fill value for {@code type}. */
  public static FillValue parseV2(JsonNode json, DataType type) {
    JsonNode j = json == null ? NullNode.getInstance() : json;
    if (type.isVariableLength()) {
      return new FillValue(j, null, variableLengthFill(j, type));
    }
    byte[] el = new byte[type.size()];
    if (j.isNull()) {
      return new FillValue(j, el, null);
    }
    ByteBuffer buf = ByteBuffer.wrap(el).order(ByteOrder.LITTLE_ENDIAN);
    switch (type.kind()) {
      case BOOL -> el[0] = (byte) (parseBool(j) ? 1 : 0);
      case INT, UINT -> putInteger(buf, type, parseInteger(j, type));
      case DATETIME, TIMEDELTA -> putInteger(buf, type, parseInteger(j, type));
      case FLOAT -> putFloat(buf, 0, type.size(), parseDouble(j));
      case COMPLEX -> {
        if (!j.isArray() || j.size() != 2) {
          throw bad(j, type, "a complex fill value must be [real, imag]");
        }
        putFloat(buf, 0, type.size() / 2, parseDouble(j.get(0)));
        putFloat(buf, type.size() / 2, type.size() / 2, parseDouble(j.get(1)));
      }
      case UNICODE -> {
        if (!j.isTextual()) {
          throw bad(j, type, "a unicode fill value must be a string");
        }
        int[] cps = j.asText().codePoints().toArray();
        if (cps.length * 4 > type.size()) {
          throw bad(j, type, "the fill value is longer than the type");
        }
        for (int cp : cps) {
          buf.putInt(cp);
        }
      }
      case BYTES, RAW, STRUCT -> {
        byte[] raw = base64(j, type);
        if (raw.length > type.size() || (type.kind() != DataType.Kind.BYTES && raw.length != type.size())) {
          throw bad(j, type, "the fill value has " + raw.length + " bytes, the type " + type.size());
        }
        System.arraycopy(raw, 0, el, 0, raw.length);
        ByteSwapper.swapBigEndianParts(type, el, 0, 1);
      }
      default -> throw bad(j, type, "unsupported type");
    }
    return new FillValue(j, el, null);
  }

  private static Object variableLengthFill(JsonNode j, DataType type) {
    if (j.isNull()) {
      return null;
    }
    return switch (type.kind()) {
      case STRING -> j.isTextual() ? j.asText() : j.toString();
      case VLEN_BYTES -> j.isTextual() ? j.asText().getBytes(StandardCharsets.UTF_8) : null;
      default -> j.toString();
    };
  }

  private static boolean parseBool(JsonNode j) {
    if (j.isBoolean()) {
      return j.booleanValue();
    }
    if (j.isIntegralNumber() && (j.asLong() == 0 || j.asLong() == 1)) {
      return j.asLong() == 1;
    }
    throw bad(j, DataType.bool(), "a bool fill value must be true or false");
  }

  private static BigInteger parseInteger(JsonNode j, DataType type) {
    BigInteger v;
    if (j.isIntegralNumber()) {
      v = j.bigIntegerValue();
    } else if (j.isFloatingPointNumber() && j.doubleValue() == Math.rint(j.doubleValue())
        && !Double.isInfinite(j.doubleValue())) {
      v = j.decimalValue().toBigIntegerExact();
    } else if (j.isTextual() && j.asText().startsWith("0x")) {
      v = new BigInteger(j.asText().substring(2), 16);
    } else {
      throw bad(j, type, "an integer fill value is needed");
    }
    int bits = type.size() * 8;
    boolean unsigned = type.kind() == DataType.Kind.UINT;
    BigInteger min = unsigned ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1).negate();
    BigInteger max =
        unsigned
            ? BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
            : BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
    if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
      throw bad(j, type, "the fill value is out of range");
    }
    return v;
  }

  private static void putInteger(ByteBuffer buf, DataType type, BigInteger v) {
    long l = v.longValue();
    switch (type.size()) {
      case 1 -> buf.put(0, (byte) l);
      case 2 -> buf.putShort(0, (short) l);
      case 4 -> buf.putInt(0, (int) l);
      default -> buf.putLong(0, l);
    }
  }

  /** Parses a float fill value: a number, "NaN", "Infinity", "-Infinity". */
  static double parseDouble(JsonNode j) {
    if (j.isNumber()) {
      return j.doubleValue();
    }
    if (j.isTextual()) {
      switch (j.asText()) {
        case "NaN":
          return Double.NaN;
        case "Infinity":
          return Double.POSITIVE_INFINITY;
        case "-Infinity":
          return Double.NEGATIVE_INFINITY;
        default:
          break;
      }
    }
    throw new IllegalArgumentException(
        "bad fill value " + j + ": a float fill value must be a number, \"NaN\", \"Infinity\" or \"-Infinity\"");
  }

  private static void putFloat(ByteBuffer buf, int offset, int size, double v) {
    switch (size) {
      case 2 -> buf.putShort(offset, HalfFloat.fromDouble(v));
      case 4 -> buf.putFloat(offset, (float) v);
      default -> buf.putDouble(offset, v);
    }
  }

  private static byte[] base64(JsonNode j, DataType type) {
    if (!j.isTextual()) {
      throw bad(j, type, "the fill value must be a base64 string");
    }
    try {
      return Base64.getDecoder().decode(j.asText());
    } catch (IllegalArgumentException e) {
      throw bad(j, type, "the fill value is not valid base64");
    }
  }

  private static IllegalArgumentException bad(JsonNode j, DataType type, String why) {
    return new IllegalArgumentException("bad fill value " + j + " for " + type + ": " + why);
  }
}
