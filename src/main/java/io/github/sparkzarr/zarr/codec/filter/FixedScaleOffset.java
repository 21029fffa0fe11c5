package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.RunDecoder;
import io.github.sparkzarr.zarr.codec.filter.ScalarArithmetic.Op;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;

/**
 * numcodecs FixedScaleOffset: encodes {@code around((x - offset) * scale)} and decodes {@code x /
 * scale + offset}, with numpy's types at every step (an int offset keeps int arithmetic).
 */
public final class FixedScaleOffset extends ViewFilter {
  public static final String ID = "fixedscaleoffset";

  private final PyNumber offset;
  private final PyNumber scale;
  /** scale and offset as numpy sees them beside a float64 array. */
  private final double scale64;
  private final double offset64;
  /** Whether decoding is an integer-to-float64 unpacking that {@link #unpack} does in one pass. */
  private final boolean unpacksInOnePass;

  FixedScaleOffset(PyNumber offset, PyNumber scale, DataType dtype, DataType astype)
      throws CodecException {
    super(dtype, astype);
    this.offset = offset;
    this.scale = scale;
    if (dtype.kind() == DataType.Kind.BOOL || astype.kind() == DataType.Kind.BOOL) {
      throw new CodecException("codec 'fixedscaleoffset' does not support bool dtypes");
    }
    this.scale64 = ScalarArithmetic.asFloat64(scale);
    this.offset64 = ScalarArithmetic.asFloat64(offset);
    this.unpacksInOnePass = unpacksInOnePass();
  }

  /**
   * Integers stored, floats decoded, and every step in float64 without a NaN: {@code enc /
   * scale} is float64 for any integer type, and a finite non-zero scale and a finite offset make
   * no NaN from finite values. Then one loop gives numpy's bits without intermediate arrays.
   */
  private boolean unpacksInOnePass() {
    return FastCasts.isInteger(astype)
        && FastCasts.isFloat32Or64(dtype)
        && NumpyPromotion.withScalar(NumpyPromotion.trueDivide(astype, scale), offset).size() == 8
        && Double.isFinite(scale64) && scale64 != 0
        && Double.isFinite(offset64);
  }

  public static FixedScaleOffset fromConfig(JsonNode config) throws CodecException {
    DataType dtype = FilterConfig.numericDtype(config, "dtype");
    return new FixedScaleOffset(
        PyNumber.read(config, "offset"),
        PyNumber.read(config, "scale"),
        dtype,
        FilterConfig.optionalNumericDtype(config, "astype", dtype));
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    ObjectNode c = CodecConfig.withId(ID);
    c.set("scale", scale.toJson());
    c.set("offset", offset.toJson());
    c.put("dtype", FilterConfig.text(dtype));
    c.put("astype", FilterConfig.text(astype));
    return c;
  }

  @Override
  NumericArray encodeValues(NumericArray x) throws CodecException {
    NumericArray shifted = ScalarArithmetic.apply(x, Op.SUBTRACT, offset);
    NumericArray scaled = ScalarArithmetic.apply(shifted, Op.MULTIPLY, scale);
    return NumpyCast.cast(ScalarArithmetic.around(scaled), astype);
  }

  @Override
  NumericArray decodeValues(NumericArray enc) throws CodecException {
    return unpacksInOnePass ? unpack(enc) : decodeStepByStep(enc);
  }

  /** {@code (enc / scale + offset).astype(dtype)} in one pass (see {@link #unpacksInOnePass}). */
  NumericArray unpack(NumericArray enc) {
    int n = enc.length();
    NumericArray dec = NumericArray.allocate(dtype, n);
    if (FastCasts.unpacks(astype, dtype)) {
      FastCasts.unpack(enc, dec, true, scale64, offset64);
      return dec;
    }
    boolean unsigned = astype.kind() == DataType.Kind.UINT;
    for (int i = 0; i < n; i++) {
      dec.setDouble(i, NumpyCast.integerToFloat(enc.getLong(i), unsigned, 8) / scale64 + offset64);
    }
    return dec;
  }

  @Override
  RunDecoder valueRuns() {
    return unpacksInOnePass && FastCasts.unpacks(astype, dtype)
        ? FastCasts.unpackRuns(astype, dtype, true, scale64, offset64) : null;
  }

  /** numpy's steps one after the other, each into a new array. */
  NumericArray decodeStepByStep(NumericArray enc) throws CodecException {
    NumericArray unscaled = ScalarArithmetic.apply(enc, Op.TRUE_DIVIDE, scale);
    return NumpyCast.cast(ScalarArithmetic.apply(unscaled, Op.ADD, offset), dtype);
  }
}
