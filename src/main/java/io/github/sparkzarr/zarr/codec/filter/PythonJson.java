package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.codec.CodecException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Writes JSON values exactly as Python's json module does (float repr, escapes, key order). */
final class PythonJson {
  private PythonJson() {}

  /** The json.JSONEncoder options that change the text. */
  record Style(
      boolean ensureAscii, boolean sortKeys, boolean allowNan, String itemSeparator, String keySeparator) {
    /** Compact, unsorted, non-ASCII kept: the text of one decoded item. */
    static final Style ITEM = new Style(false, false, true, ",", ":");
  }

  static void write(JsonNode node, Style style, StringBuilder out) throws CodecException {
    if (node == null || node.isNull()) {
      out.append("null");
    } else if (node.isBoolean()) {
      out.append(node.booleanValue() ? "true" : "false");
    } else if (node.isIntegralNumber()) {
      out.append(node.bigIntegerValue());
    } else if (node.isNumber()) {
      out.append(floatRepr(node.doubleValue(), style.allowNan()));
    } else if (node.isTextual()) {
      string(node.textValue(), style.ensureAscii(), out);
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        out.append(i == 0 ? "" : style.itemSeparator());
        write(node.get(i), style, out);
      }
      out.append(']');
    } else if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        fields.add(it.next());
      }
      if (style.sortKeys()) {
        fields.sort((a, b) -> compareCodePoints(a.getKey(), b.getKey()));
      }
      out.append('{');
      for (int i = 0; i < fields.size(); i++) {
        out.append(i == 0 ? "" : style.itemSeparator());
        string(fields.get(i).getKey(), style.ensureAscii(), out);
        out.append(style.keySeparator());
        write(fields.get(i).getValue(), style, out);
      }
      out.append('}');
    } else {
      throw new CodecException("cannot write " + node.getNodeType() + " as JSON");
    }
  }

  /** Python sorts str keys by code point, not by UTF-16 unit. */
  private static int compareCodePoints(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  static void string(String s, boolean ensureAscii, StringBuilder out) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default -> {
          if (c < 0x20 || (ensureAscii && c > 0x7e)) {
            out.append(String.format("\\u%04x", (int) c)); // UTF-16 units, as Python escapes
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }

  /** Python's float repr: the shortest digits that read back as {@code d}. */
  static String floatRepr(double d, boolean allowNan) throws CodecException {
    if (!Double.isFinite(d)) {
      if (!allowNan) {
        throw new CodecException("JSON codec with allow_nan=false cannot encode " + d);
      }
      return Double.isNaN(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
    }
    if (d == 0) {
      return 1 / d < 0 ? "-0.0" : "0.0";
    }
    BigDecimal shortest = shortestDigits(d);
    String digits = shortest.unscaledValue().abs().toString().replaceAll("0+$", "");
    // value = 0.digits * 10^decpt
    int decpt = shortest.precision() - shortest.scale();
    StringBuilder s = new StringBuilder(d < 0 ? "-" : "");
    if (decpt > -4 && decpt <= 16) {
      if (decpt <= 0) {
        s.append("0.").append("0".repeat(-decpt)).append(digits);
      } else if (decpt >= digits.length()) {
        s.append(digits).append("0".repeat(decpt - digits.length())).append(".0");
      } else {
        s.append(digits, 0, decpt).append('.').append(digits.substring(decpt));
      }
    } else {
      s.append(digits.charAt(0));
      if (digits.length() > 1) {
        s.append('.').append(digits.substring(1));
      }
      int exp = decpt - 1;
      s.append('e').append(exp < 0 ? '-' : '+');
      s.append(Math.abs(exp) < 10 ? "0" : "").append(Math.abs(exp));
    }
    return s.toString();
  }

  /** Fewest significant digits that round trip; the nearest such decimal when there are two. */
  private static BigDecimal shortestDigits(double d) {
    BigDecimal exact = new BigDecimal(d);
    for (int p = 1; p < 17; p++) {
      BigDecimal nearest = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
      if (nearest.doubleValue() == d) {
        return nearest;
      }
      RoundingMode other =
          nearest.compareTo(exact) > 0 ? RoundingMode.FLOOR : RoundingMode.CEILING;
      BigDecimal second = exact.round(new MathContext(p, other));
      if (second.doubleValue() == d) {
        return second;
      }
    }
    return exact.round(new MathContext(17, RoundingMode.HALF_EVEN));
  }
}
