package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.dtype.V3DataTypes;
import io.github.sparkzarr.zarr.metadata.V3FillValues;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The zarr-extensions "cast_value" codec: stores the array's values as another integer or float
 * type ({@code data_type}), converting with a rounding mode, an out-of-range rule (an error by
 * default, "clamp" or "wrap") and exact scalar mappings (such as NaN to -32768) for each direction.
 * Used after "scale_offset" to pack floats into small integers.
 */
final class CastValueCodec implements ArrayToArrayCodec {
  static final String NAME = "cast_value";
  private static final List<String> ROUNDING =
      List.of("nearest-even", "towards-zero", "towards-positive", "towards-negative", "nearest-away");

  private final JsonNode configuration;
  private final DataType decodedType;
  private final DataType encodedType;
  private final String rounding;
  /** null (an error), "clamp" or "wrap". */
  private final String outOfRange;
  private final List<Mapping> encodeMap;
  private final List<Mapping> decodeMap;

  /** One scalar_map entry: {@code from} (an element of the source type) becomes {@code to}'s bytes. */
  private record Mapping(double fromFloat, long fromInt, byte[] to) {}

  /** @param decodedType the (little-endian) type of the array's elements */
  CastValueCodec(JsonNode configuration, DataType decodedType) throws CodecException {
    this.configuration = configuration;
    this.decodedType = decodedType;
    try {
      this.encodedType = V3DataTypes.parse(configuration.get("data_type"));
    } catch (IllegalArgumentException e) {
      throw new CodecException("codec 'cast_value': " + e.getMessage(), e);
    }
    requireNumeric(decodedType);
    requireNumeric(encodedType);
    this.rounding = CodecConfig.optionalText(configuration, "rounding", "nearest-even");
    if (!ROUNDING.contains(rounding)) {
      throw new CodecException("codec 'cast_value': rounding must be one of " + ROUNDING + ", got " + rounding);
    }
    this.outOfRange = CodecConfig.optionalText(configuration, "out_of_range", null);
    if (outOfRange != null && !outOfRange.equals("clamp") && !(outOfRange.equals("wrap") && !isFloat(encodedType))) {
      throw new CodecException("codec 'cast_value': out_of_range must be \"clamp\", or \"wrap\" for an integer "
          + "data_type, got " + outOfRange);
    }
    JsonNode map = configuration.path("scalar_map");
    this.encodeMap = mappings(map.get("encode"), decodedType, encodedType);
    this.decodeMap = mappings(map.get("decode"), encodedType, decodedType);
  }

  private static void requireNumeric(DataType t) throws CodecException {
    boolean ok = t.kind() == DataType.Kind.INT || t.kind() == DataType.Kind.FLOAT
        || t.kind() == DataType.Kind.UINT && t.size() < 8;
    if (!ok) {
      throw new CodecException("codec 'cast_value' supports integers (not uint64) and floats, not " + NumpyDtype.toText(t));
    }
  }

  private static boolean isFloat(DataType t) {
    return t.kind() == DataType.Kind.FLOAT;
  }

  private static List<Mapping> mappings(JsonNode pairs, DataType from, DataType to) throws CodecException {
    List<Mapping> out = new ArrayList<>();
    if (pairs == null || pairs.isNull()) {
      return out;
    }
    if (!pairs.isArray()) {
      throw new CodecException("codec 'cast_value': a scalar_map direction must be a list of [from, to] pairs, got " + pairs);
    }
    for (JsonNode p : pairs) {
      if (!p.isArray() || p.size() != 2) {
        throw new CodecException("codec 'cast_value': a scalar_map entry must be [from, to], got " + p);
      }
      try {
        NumericArray key = NumericArray.wrap(from, V3FillValues.parse(p.get(0), from).element());
        byte[] value = V3FillValues.parse(p.get(1), to).element();
        out.add(isFloat(from) ? new Mapping(key.getDouble(0), 0, value) : new Mapping(0, key.getLong(0), value));
      } catch (IllegalArgumentException e) {
        throw new CodecException("codec 'cast_value': scalar_map entry " + p + ": " + e.getMessage(), e);
      }
    }
    return out;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ObjectNode toJson() {
    return V3Codec.entry(NAME, configuration);
  }

  @Override
  public DataType encodedType(DataType type) {
    return encodedType;
  }

  @Override
  public ChunkData encode(ChunkData decoded) throws CodecException {
    return cast(decoded.bytes(), decodedType, encodedType, encodeMap, decoded.shape());
  }

  @Override
  public ChunkData decode(ChunkData encoded, int[] decodedShape) throws CodecException {
    return cast(encoded.bytes(), encodedType, decodedType, decodeMap, decodedShape);
  }

  private ChunkData cast(byte[] bytes, DataType from, DataType to, List<Mapping> map, int[] shape)
      throws CodecException {
    NumericArray src = NumericArray.wrap(from, bytes);
    NumericArray out = NumericArray.allocate(to, src.length());
    for (int i = 0; i < src.length(); i++) {
      byte[] mapped = mapped(src, i, map);
      if (mapped != null) {
        System.arraycopy(mapped, 0, out.bytes(), i * to.size(), to.size());
      } else if (isFloat(from)) {
        castFloat(src.getDouble(i), out, i);
      } else {
        castInteger(src.getLong(i), out, i);
      }
    }
    return ChunkData.ofBytes(to, shape, out.bytes());
  }

  private static byte[] mapped(NumericArray src, int i, List<Mapping> map) {
    for (Mapping m : map) {
      if (src.isFloat()) {
        double v = src.getDouble(i);
        if (Double.isNaN(m.fromFloat()) ? Double.isNaN(v) : v == m.fromFloat()) {
          return m.to();
        }
      } else if (src.getLong(i) == m.fromInt()) {
        return m.to();
      }
    }
    return null;
  }

  private void castInteger(long v, NumericArray out, int i) throws CodecException {
    if (isFloat(out.type())) {
      out.setDouble(i, (double) v);
      if (!rounding.equals("nearest-even") && (long) out.getDouble(i) != v) {
        throw unsupported(v);
      }
      return;
    }
    long[] range = range(out.type());
    if (v >= range[0] && v <= range[1] || "wrap".equals(outOfRange)) {
      out.setLong(i, v); // wrap keeps the low bits, two's complement
    } else if ("clamp".equals(outOfRange)) {
      out.setLong(i, Math.max(range[0], Math.min(range[1], v)));
    } else {
      throw outside(v, out.type());
    }
  }

  private void castFloat(double v, NumericArray out, int i) throws CodecException {
    if (isFloat(out.type())) {
      out.setDouble(i, v);
      double stored = out.getDouble(i);
      if (Double.isInfinite(stored) && !Double.isInfinite(v)) {
        if (!"clamp".equals(outOfRange)) {
          throw outside(v, out.type());
        }
        out.setDouble(i, Math.copySign(out.type().size() == 4 ? Float.MAX_VALUE : 65504.0, v));
      } else if (!rounding.equals("nearest-even") && stored != v && !Double.isNaN(v)) {
        throw unsupported(v);
      }
      return;
    }
    if (Double.isNaN(v)) {
      throw new CodecException("codec 'cast_value': NaN has no " + NumpyDtype.toText(out.type())
          + " value (a scalar_map entry would give it one)");
    }
    double r = round(v);
    long[] range = range(out.type());
    boolean inside = r >= range[0] && r < -(double) Long.MIN_VALUE && (long) r <= range[1];
    if (inside) {
      out.setLong(i, (long) r);
    } else if ("clamp".equals(outOfRange)) {
      out.setLong(i, r < range[0] ? range[0] : range[1]);
    } else if ("wrap".equals(outOfRange) && !Double.isInfinite(r)) {
      out.setLong(i, new BigDecimal(r).toBigInteger().longValue());
    } else {
      throw outside(v, out.type());
    }
  }

  private double round(double v) {
    return switch (rounding) {
      case "towards-zero" -> v < 0 ? Math.ceil(v) : Math.floor(v);
      case "towards-positive" -> Math.ceil(v);
      case "towards-negative" -> Math.floor(v);
      case "nearest-away" -> {
        double a = Math.abs(v);
        double f = Math.floor(a);
        yield Math.copySign(a - f >= 0.5 ? f + 1 : f, v);
      }
      default -> Math.rint(v);
    };
  }

  /** The smallest and largest value of an integer type other than uint64. */
  static long[] range(DataType t) {
    int bits = 8 * t.size();
    if (t.kind() == DataType.Kind.UINT) {
      return new long[] {0, (1L << bits) - 1};
    }
    return new long[] {bits == 64 ? Long.MIN_VALUE : -(1L << (bits - 1)), bits == 64 ? Long.MAX_VALUE : (1L << (bits - 1)) - 1};
  }

  private CodecException outside(double v, DataType t) {
    String value = Double.isFinite(v) ? BigDecimal.valueOf(v).stripTrailingZeros().toPlainString() : String.valueOf(v);
    return new CodecException("codec 'cast_value': " + value + " is outside " + NumpyDtype.toText(t) + " and out_of_range is " + (outOfRange == null ? "not set" : outOfRange));
  }

  private CodecException unsupported(double v) {
    return new CodecException("codec 'cast_value': " + v + " is not exact in the target type, and rounding '"
        + rounding + "' between floats is not supported here (only nearest-even)");
  }
}
