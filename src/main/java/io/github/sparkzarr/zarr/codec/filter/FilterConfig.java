package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;

/** Reading the numpy dtypes of filter configurations. */
final class FilterConfig {
  private FilterConfig() {}

  /** {@code config[field]} as a bool, integer or float dtype such as "<i4". */
  static DataType numericDtype(JsonNode config, String field) throws CodecException {
    DataType type = dtype(config, field, CodecConfig.requiredText(config, field));
    if (!NumericArray.supports(type)) {
      throw new CodecException(
          CodecConfig.describe(config) + ": \"" + field
              + "\" must be a bool, integer or float dtype, got " + config.get(field));
    }
    return type;
  }

  /** Like {@link #numericDtype}, but {@code fallback} when the field is absent or null. */
  static DataType optionalNumericDtype(JsonNode config, String field, DataType fallback)
      throws CodecException {
    JsonNode v = config.get(field);
    return v == null || v.isNull() ? fallback : numericDtype(config, field);
  }

  static DataType dtype(JsonNode config, String field, String text) throws CodecException {
    try {
      return NumpyDtype.parseTypeOrName(text);
    } catch (IllegalArgumentException e) {
      throw new CodecException(
          CodecConfig.describe(config) + ": bad \"" + field + "\": " + e.getMessage(), e);
    }
  }

  /** numpy's dtype.str. */
  static String text(DataType type) {
    return NumpyDtype.toText(type);
  }
}
