package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.HalfFloat;

/** Reads one little-endian integer or float element as a number, for CF decoding. */
abstract class RawNumber {
  abstract double asDouble(byte[] b, int at);

  long asLong(byte[] b, int at) {
    return (long) asDouble(b, at);
  }

  static RawNumber of(DataType t) {
    boolean unsigned = t.kind() == DataType.Kind.UINT;
    if (t.kind() == DataType.Kind.FLOAT) {
      return switch (t.size()) {
        case 2 -> new RawNumber() {
          double asDouble(byte[] b, int at) {
            return HalfFloat.toFloat(FixedWriter.shortAt(b, at));
          }
        };
        case 4 -> new RawNumber() {
          double asDouble(byte[] b, int at) {
            return Float.intBitsToFloat(FixedWriter.intAt(b, at));
          }
        };
        default -> new RawNumber() {
          double asDouble(byte[] b, int at) {
            return Double.longBitsToDouble(FixedWriter.longAt(b, at));
          }
        };
      };
    }
    int size = t.size();
    return new RawNumber() {
      @Override
      long asLong(byte[] b, int at) {
        return switch (size) {
          case 1 -> unsigned ? b[at] & 0xff : b[at];
          case 2 -> unsigned ? FixedWriter.shortAt(b, at) & 0xffff : FixedWriter.shortAt(b, at);
          case 4 -> unsigned ? FixedWriter.intAt(b, at) & 0xffffffffL : FixedWriter.intAt(b, at);
          default -> FixedWriter.longAt(b, at);
        };
      }

      double asDouble(byte[] b, int at) {
        long v = asLong(b, at);
        return unsigned && size == 8 && v < 0 ? (double) (v >>> 1) * 2.0 + (v & 1) : (double) v;
      }
    };
  }
}
