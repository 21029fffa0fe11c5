package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V3FillValues;

/**
 * The zarr-extensions "scale_offset" codec: encodes {@code (x - offset) * scale} and decodes
 * {@code x / scale + offset} in the array's own type, as zarr-python 3 does: float32 in float32
 * arithmetic, integers exactly (a remainder or a result outside the type is an error).
 */
final class ScaleOffsetCodec implements ArrayToArrayCodec {
  static final String NAME = "scale_offset";

  private final JsonNode configuration;
  private final DataType type;
  private final NumericArray offset;
  private final NumericArray scale;
  /** The smallest and largest value of an integer type; null for floats. */
  private final long[] range;

  /** @param type the (little-endian) type of the elements, the same on both sides */
  ScaleOffsetCodec(JsonNode configuration, DataType type) throws CodecException {
    boolean integer = type.kind() == DataType.Kind.INT || type.kind() == DataType.Kind.UINT;
    boolean floating = type.kind() == DataType.Kind.FLOAT && type.size() >= 4;
    if (!integer && !floating || type.kind() == DataType.Kind.UINT && type.size() == 8) {
      throw new CodecException("codec 'scale_offset' supports int8-int64, uint8-uint32, float32 and float64, not "
          + NumpyDtype.toText(type));
    }
    this.configuration = configuration;
    this.type = type;
    this.offset = scalar(configuration, "offset", 0, type);
    this.scale = scalar(configuration, "scale", 1, type);
    this.range = integer ? CastValueCodec.range(type) : null;
    if (integer && scale.getLong(0) == 0) {
      throw new CodecException("codec 'scale_offset': an integer scale must not be 0");
    }
  }

  /** A configuration value as one element of the array's type (numbers, or strings as fill values take). */
  private static NumericArray scalar(JsonNode config, String field, int fallback, DataType type) throws CodecException {
    JsonNode v = config.has(field) ? config.get(field) : Json.nodes().numberNode(fallback);
    try {
      return NumericArray.wrap(type, V3FillValues.parse(v, type).element());
    } catch (IllegalArgumentException e) {
      throw new CodecException("codec 'scale_offset': \"" + field + "\" " + v + " is not a "
          + NumpyDtype.toText(type) + " value: " + e.getMessage(), e);
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ObjectNode toJson() {
    return V3Codec.entry(NAME, configuration.isEmpty() ? null : configuration);
  }

  @Override
  public ChunkData encode(ChunkData decoded) throws CodecException {
    return apply(decoded, decoded.shape(), true);
  }

  @Override
  public ChunkData decode(ChunkData encoded, int[] decodedShape) throws CodecException {
    return apply(encoded, decodedShape, false);
  }

  private ChunkData apply(ChunkData in, int[] shape, boolean encode) throws CodecException {
    NumericArray src = NumericArray.wrap(type, in.bytes());
    NumericArray out = NumericArray.allocate(type, src.length());
    for (int i = 0; i < src.length(); i++) {
      if (type.kind() == DataType.Kind.FLOAT) {
        out.setDouble(i, floating(src.getDouble(i), encode));
      } else {
        out.setLong(i, integer(src.getLong(i), encode));
      }
    }
    return ChunkData.ofBytes(type, shape, out.bytes());
  }

  /** In float32 arithmetic for float32 (Java's float operations are IEEE single, as numpy's). */
  private double floating(double x, boolean encode) {
    if (type.size() == 4) {
      float o = (float) offset.getDouble(0);
      float s = (float) scale.getDouble(0);
      return encode ? ((float) x - o) * s : (float) x / s + o;
    }
    double o = offset.getDouble(0);
    double s = scale.getDouble(0);
    return encode ? (x - o) * s : x / s + o;
  }

  private long integer(long x, boolean encode) throws CodecException {
    long o = offset.getLong(0);
    long s = scale.getLong(0);
    long r;
    try {
      if (encode) {
        r = Math.multiplyExact(Math.subtractExact(x, o), s);
      } else {
        if (x % s != 0) {
          throw new CodecException("codec 'scale_offset': " + x + " is not a multiple of the scale " + s
              + ", so it does not decode to a " + NumpyDtype.toText(type));
        }
        r = Math.addExact(x / s, o);
      }
    } catch (ArithmeticException e) {
      throw outside(x);
    }
    if (r < range[0] || r > range[1]) {
      throw outside(x);
    }
    return r;
  }

  private CodecException outside(long x) {
    return new CodecException("codec 'scale_offset': " + x + " gives a value outside " + NumpyDtype.toText(type));
  }
}
