package io.github.sparkzarr.zarr.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Compares what we read with the values another implementation wrote down: raw little-endian
 * bytes (NaN-aware: any NaN equals any NaN) or a JSON list for variable-length types.
 */
public final class ExpectedValues {
  private ExpectedValues() {}

  static final ObjectMapper JSON =
      JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  /** Null if equal, else a description of the first difference. */
  public static String compareRaw(ChunkData actual, byte[] expected) {
    byte[] got = actual.bytes();
    if (got.length != expected.length) {
      return "got " + got.length + " bytes, expected " + expected.length;
    }
    List<int[]> floats = new ArrayList<>();
    floatParts(actual.type(), 0, floats);
    int size = actual.type().size();
    for (int i = 0; i < got.length; i++) {
      if (got[i] != expected[i]) {
        int element = i / size;
        int within = i % size;
        int[] part = partAt(floats, within);
        if (part != null && bothNaN(got, expected, element * size + part[0], part[1])) {
          i = element * size + part[0] + part[1] - 1;
          continue;
        }
        return "element " + element + " differs at byte " + within + " (type " + actual.type() + ")";
      }
    }
    return null;
  }

  /** Offsets and sizes of the float scalars inside one element of {@code type}. */
  private static void floatParts(DataType type, int base, List<int[]> out) {
    switch (type.kind()) {
      case FLOAT -> out.add(new int[] {base, type.size()});
      case COMPLEX -> {
        out.add(new int[] {base, type.size() / 2});
        out.add(new int[] {base + type.size() / 2, type.size() / 2});
      }
      case STRUCT -> {
        for (DataType.Field f : type.fields()) {
          for (int k = 0; k < f.count(); k++) {
            floatParts(f.type(), base + f.offset() + k * f.type().size(), out);
          }
        }
      }
      default -> {}
    }
  }

  private static int[] partAt(List<int[]> parts, int offset) {
    for (int[] p : parts) {
      if (offset >= p[0] && offset < p[0] + p[1]) {
        return p;
      }
    }
    return null;
  }

  private static boolean bothNaN(byte[] a, byte[] b, int at, int size) {
    return isNaN(a, at, size) && isNaN(b, at, size);
  }

  private static boolean isNaN(byte[] data, int at, int size) {
    ByteBuffer buf = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    return switch (size) {
      case 2 -> (buf.getShort(at) & 0x7c00) == 0x7c00 && (buf.getShort(at) & 0x3ff) != 0;
      case 4 -> Float.isNaN(buf.getFloat(at));
      default -> Double.isNaN(buf.getDouble(at));
    };
  }

  /** Null if equal, else a description of the first difference. */
  public static String compareJson(ChunkData actual, byte[] expectedJson) throws Exception {
    JsonNode expected = JSON.readTree(expectedJson);
    Object[] got = actual.objects();
    if (!expected.isArray() || expected.size() != got.length) {
      return "got " + got.length + " elements, expected " + expected.size();
    }
    for (int i = 0; i < got.length; i++) {
      JsonNode e = expected.get(i);
      Object g = got[i];
      boolean same;
      if (g == null || e.isNull()) {
        same = g == null && e.isNull();
      } else {
        same = switch (actual.type().kind()) {
          case STRING -> textOf(e).equals(g);
          case VLEN_BYTES -> e.isTextual() && java.util.Arrays.equals(Base64.getDecoder().decode(e.asText()), (byte[]) g);
          case JSON -> JSON.readTree(((String) g).getBytes(StandardCharsets.UTF_8)).equals(e);
          default -> false;
        };
      }
      if (!same) {
        return "element " + i + ": got " + describe(g) + ", expected " + e;
      }
    }
    return null;
  }

  private static String textOf(JsonNode e) {
    return e.isTextual() ? e.asText() : e.toString();
  }

  private static String describe(Object o) {
    return o instanceof byte[] b ? Base64.getEncoder().encodeToString(b) : String.valueOf(o);
  }
}
