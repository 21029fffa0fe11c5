package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.charset.StandardCharsets;

/** Chooses how a column's elements are written: the raw type mapping, or CF decoding of it. */
final class ValueWriters {
  private ValueWriters() {}

  static ValueWriter of(DataType memoryType, CfDecoding cf) {
    if (memoryType.isVariableLength()) {
      return variableLength(memoryType);
    }
    FixedWriter raw = FixedWriter.of(memoryType);
    int size = memoryType.size();
    if (cf == null) {
      return (src, from, out, row, count) -> raw.write(src.bytes(), from * size, out, row, count);
    }
    RawNumber number = RawNumber.of(memoryType);
    if (cf.time() != null) {
      boolean integral = memoryType.kind() != DataType.Kind.FLOAT;
      return (src, from, out, row, count) -> {
        byte[] b = src.bytes();
        for (int i = 0; i < count; i++) {
          int at = (from + i) * size;
          double v = number.asDouble(b, at);
          if (cf.isMissing(v)) {
            out.putNull(row + i);
          } else {
            out.putLong(row + i, integral ? cf.time().fromLong(number.asLong(b, at)) : cf.time().fromDouble(v));
          }
        }
      };
    }
    if (cf.scaled()) {
      return (src, from, out, row, count) -> {
        byte[] b = src.bytes();
        for (int i = 0; i < count; i++) {
          double v = number.asDouble(b, (from + i) * size);
          if (cf.isMissing(v)) {
            out.putNull(row + i);
          } else if (cf.singlePrecision()) {
            out.putFloat(row + i, (float) cf.unpack(v));
          } else {
            out.putDouble(row + i, cf.unpack(v));
          }
        }
      };
    }
    // Masking only: copy in bulk, then null the missing values; the type stays as stored.
    return (src, from, out, row, count) -> {
      byte[] b = src.bytes();
      raw.write(b, from * size, out, row, count);
      for (int i = 0; i < count; i++) {
        if (cf.isMissing(number.asDouble(b, (from + i) * size))) {
          out.putNull(row + i);
        }
      }
    };
  }

  private static ValueWriter variableLength(DataType t) {
    boolean text = t.kind() != DataType.Kind.VLEN_BYTES;
    return (src, from, out, row, count) -> {
      Object[] objects = src.objects();
      for (int i = 0; i < count; i++) {
        Object o = objects[from + i];
        if (o == null) {
          out.putNull(row + i);
        } else {
          byte[] bytes = text ? o.toString().getBytes(StandardCharsets.UTF_8) : (byte[]) o;
          out.putByteArray(row + i, bytes);
        }
      }
    };
  }
}
