package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
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

  FixedScaleOffset(PyNumber offset, PyNumber scale, DataType dtype, DataType astype)
      throws CodecException {
    super(dtype, astype);
    this.offset = offset;
    this.scale = scale;
    if (dtype.kind() == DataType.Kind.BOOL || astype.kind() == DataType.Kind.BOOL) {
      throw new CodecException("codec 'fixedscaleoffset' does not support bool dtypes");
    }
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
    NumericArray unscaled = ScalarArithmetic.apply(enc, Op.TRUE_DIVIDE, scale);
    return NumpyCast.cast(ScalarArithmetic.apply(unscaled, Op.ADD, offset), dtype);
  }
}
