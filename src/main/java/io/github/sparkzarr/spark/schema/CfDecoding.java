package io.github.sparkzarr.spark.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.dtype.DataType.Kind;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * How one numeric variable is decoded by the CF conventions, as xarray does: values equal to
 * {@code _FillValue}/{@code missing_value} become null, then {@code scale_factor}/{@code
 * add_offset} are applied, or CF time units turn numbers into timestamps.
 *
 * @param masked raw values that mean "missing"
 * @param maskNaN whether NaN means missing (a NaN fill value)
 * @param scale the scale factor, 1 when absent
 * @param offset the add offset, 0 when absent
 * @param scaled whether scale or offset are applied at all
 * @param singlePrecision whether the scaled result is float (xarray's _choose_float_dtype) or double
 * @param time CF time units, or null
 */
public record CfDecoding(double[] masked, boolean maskNaN, double scale, double offset,
    boolean scaled, boolean singlePrecision, CfTime time) implements Serializable {

  /**
   * The decoding of {@code md}, or null when it needs none.
   *
   * @param fillValueIsMissing whether the Zarr fill_value is the CF _FillValue (xarray's v2 layout:
   *     xarray moves _FillValue into fill_value), true in the dataset view
   */
  public static CfDecoding of(String name, ArrayMetadata md, boolean fillValueIsMissing) {
    Kind kind = md.dataType().kind();
    if (kind != Kind.INT && kind != Kind.UINT && kind != Kind.FLOAT) {
      return null;
    }
    ObjectNode attrs = md.attributes();
    List<Double> masked = new ArrayList<>();
    addNumbers(attrs.get("_FillValue"), masked);
    addNumbers(attrs.get("missing_value"), masked);
    // xarray uses the Zarr fill_value as the mask only for v1/v2; for v3 (whose fill_value can
    // never be null) it reads _FillValue from the attributes, handled above.
    if (fillValueIsMissing && md.zarrFormat() < 3 && !md.fillValue().isNull()) {
      addNumbers(md.fillValue().json(), masked);
    }
    boolean maskNaN = masked.stream().anyMatch(d -> d.isNaN());
    double[] values = masked.stream().filter(d -> !d.isNaN()).mapToDouble(Double::doubleValue).toArray();
    boolean hasScale = attrs.has("scale_factor");
    boolean hasOffset = attrs.has("add_offset");
    double scale = hasScale ? number(name, attrs.get("scale_factor"), "scale_factor") : 1;
    double offset = hasOffset ? number(name, attrs.get("add_offset"), "add_offset") : 0;
    CfTime time = CfTime.parse(name, attrs);
    if (values.length == 0 && !maskNaN && !hasScale && !hasOffset && time == null) {
      return null;
    }
    int size = md.dataType().size();
    // xarray masks first (promoting int8/16 to float32), then picks the scaling precision.
    boolean single = kind == Kind.FLOAT ? size <= 4
        : size <= 2 && (values.length > 0 || maskNaN || !hasOffset);
    return new CfDecoding(values, maskNaN, scale, offset, hasScale || hasOffset, single, time);
  }

  private static void addNumbers(JsonNode node, List<Double> out) {
    if (node == null || node.isNull()) {
      return;
    }
    if (node.isArray()) {
      node.forEach(n -> addNumbers(n, out));
    } else if (node.isNumber()) {
      out.add(node.doubleValue());
    } else if (node.isTextual() && node.asText().equals("NaN")) {
      out.add(Double.NaN);
    }
  }

  private static double number(String name, JsonNode node, String attr) {
    if (node.isArray() && node.size() == 1) {
      node = node.get(0);
    }
    if (!node.isNumber()) {
      throw new IllegalArgumentException("variable '" + name + "': attribute " + attr
          + " must be a number, got " + node + " (read it undecoded with option decodeCF=false)");
    }
    return node.doubleValue();
  }

  /** The Spark type of the decoded values. */
  public DataType sparkType(DataType raw) {
    if (time != null) {
      return DataTypes.TimestampNTZType;
    }
    if (scaled) {
      return singlePrecision ? DataTypes.FloatType : DataTypes.DoubleType;
    }
    return raw;
  }

  /**
   * The decoded value of the raw value {@code raw} of a scaled variable, as xarray computes it: in
   * float32 arithmetic for a float result ({@link #singlePrecision}), else in double. Both are
   * non-decreasing in {@code raw} when the scale is not negative, non-increasing when it is.
   */
  public double unpack(double raw) {
    return singlePrecision ? (float) raw * (float) scale + (float) offset : raw * scale + offset;
  }

  /** Whether {@link #unpack} reverses the order of raw values (a negative scale). */
  public boolean reversesOrder() {
    return singlePrecision ? (float) scale < 0 : scale < 0;
  }

  /** Whether a raw value means "missing". */
  public boolean isMissing(double raw) {
    if (Double.isNaN(raw)) {
      return maskNaN;
    }
    for (double m : masked) {
      if (m == raw) {
        return true;
      }
    }
    return false;
  }
}
