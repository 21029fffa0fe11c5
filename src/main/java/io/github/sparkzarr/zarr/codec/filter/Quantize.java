package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.filter.ScalarArithmetic.Op;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;

/**
 * numcodecs Quantize: {@code around(scale * x) / scale} with {@code scale} the power of two
 * numcodecs derives from {@code digits}; decoding is a cast.
 */
public final class Quantize extends ViewFilter {
  public static final String ID = "quantize";

  private final int digits;
  private final PyNumber scale;

  Quantize(int digits, DataType dtype, DataType astype) throws CodecException {
    super(dtype, astype);
    if (dtype.kind() != DataType.Kind.FLOAT || astype.kind() != DataType.Kind.FLOAT) {
      throw new CodecException("codec 'quantize' supports only float dtypes");
    }
    if (digits < -300 || digits > 300) {
      throw new CodecException("codec 'quantize': digits must be within -300..300, got " + digits);
    }
    this.digits = digits;
    this.scale = PyNumber.ofFloat(Math.scalb(1.0, bits(digits)));
  }

  public static Quantize fromConfig(JsonNode config) throws CodecException {
    DataType dtype = FilterConfig.numericDtype(config, "dtype");
    return new Quantize(
        CodecConfig.requiredInt(config, "digits"),
        dtype,
        FilterConfig.optionalNumericDtype(config, "astype", dtype));
  }

  /** numcodecs' mantissa bits for {@code digits}, computed with the same float steps. */
  static int bits(int digits) {
    double precision = Math.pow(10.0, -digits);
    double exp = Math.log(precision) / Math.log(10);
    int e = (int) (exp < 0 ? Math.floor(exp) : Math.ceil(exp));
    return (int) Math.ceil(Math.log(Math.pow(10.0, -e)) / Math.log(2));
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    ObjectNode c = CodecConfig.withId(ID);
    c.put("digits", digits);
    c.put("dtype", FilterConfig.text(dtype));
    c.put("astype", FilterConfig.text(astype));
    return c;
  }

  @Override
  NumericArray encodeValues(NumericArray x) throws CodecException {
    NumericArray scaled = ScalarArithmetic.apply(x, Op.MULTIPLY, scale);
    NumericArray rounded = ScalarArithmetic.apply(ScalarArithmetic.around(scaled), Op.TRUE_DIVIDE, scale);
    return NumpyCast.cast(rounded, astype);
  }

  /** Rounding happens when encoding; decoding only casts from astype to dtype. */
  @Override
  public boolean decodesUnchanged(DataType decodedType) {
    return castsToItself(decodedType);
  }

  @Override
  NumericArray decodeValues(NumericArray enc) throws CodecException {
    return NumpyCast.cast(enc, dtype);
  }
}
