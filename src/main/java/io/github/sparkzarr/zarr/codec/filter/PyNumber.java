package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.LongNode;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;

/**
 * A number from a codec configuration as Python sees it: an int or a float. The distinction
 * matters because numpy promotes arrays differently for Python ints and floats.
 */
record PyNumber(boolean integral, long longValue, double doubleValue) {

  static PyNumber ofFloat(double value) {
    return new PyNumber(false, 0, value);
  }

  /** Reads {@code config[field]}, which must be a number (ints within the 64-bit range). */
  static PyNumber read(JsonNode config, String field) throws CodecException {
    JsonNode v = config.get(field);
    if (v != null && v.isIntegralNumber() && v.canConvertToLong()) {
      return new PyNumber(true, v.longValue(), v.longValue());
    }
    if (v != null && v.isFloatingPointNumber()) {
      return ofFloat(v.doubleValue());
    }
    throw new CodecException(
        CodecConfig.describe(config) + ": \"" + field
            + "\" must be a number (integers within 64 bits), got " + v);
  }

  /** The JSON value numcodecs writes back: an int stays an int. */
  JsonNode toJson() {
    return integral ? LongNode.valueOf(longValue) : DoubleNode.valueOf(doubleValue);
  }
}
