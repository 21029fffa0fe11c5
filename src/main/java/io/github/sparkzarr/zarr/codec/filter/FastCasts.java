package io.github.sparkzarr.zarr.codec.filter;

import static io.github.sparkzarr.zarr.dtype.ByteViews.INT_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.LONG_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.SHORT_LE;

import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;

/**
 * The common numpy conversions of whole chunks as loops that do not decide the types per element:
 * little-endian integers of up to 4 bytes (exact as doubles) to little-endian float32 or float64,
 * optionally unpacked as {@code x / scale + offset} in float64, and float32 to float64 and back.
 * Each gives the bits {@link NumpyCast} and {@link ScalarArithmetic} give element by element.
 */
final class FastCasts {
  /** Elements widened per block, few enough to stay in the first-level cache. */
  private static final int BLOCK = 2048;

  private FastCasts() {}

  /** Whether {@link #unpack} converts {@code from} to {@code to}. */
  static boolean unpacks(DataType from, DataType to) {
    return isInteger(from) && from.size() <= 4 && !from.needsSwap()
        && isFloat32Or64(to) && !to.needsSwap();
  }

  /**
   * {@code dst[i] = src[i] / scale + offset} in float64, rounded to dst's type; with {@code
   * arithmetic} false, the plain cast. The caller checks {@link #unpacks} and, for the
   * arithmetic, that scale and offset are finite and scale is not 0 (so no NaN arises).
   */
  static void unpack(NumericArray src, NumericArray dst, boolean arithmetic, double scale, double offset) {
    double[] block = new double[BLOCK];
    byte[] out = dst.bytes();
    boolean toFloat32 = dst.type().size() == 4;
    for (int first = 0; first < src.length(); first += BLOCK) {
      int count = Math.min(BLOCK, src.length() - first);
      widen(src, first, count, block);
      if (arithmetic) {
        for (int j = 0; j < count; j++) {
          block[j] = block[j] / scale + offset;
        }
      }
      if (toFloat32) {
        for (int j = 0, at = 4 * first; j < count; j++, at += 4) {
          INT_LE.set(out, at, Float.floatToRawIntBits((float) block[j]));
        }
      } else {
        for (int j = 0, at = 8 * first; j < count; j++, at += 8) {
          LONG_LE.set(out, at, Double.doubleToRawLongBits(block[j]));
        }
      }
    }
  }

  /** Elements {@code [first, first + count)} of little-endian integers as doubles. */
  private static void widen(NumericArray src, int first, int count, double[] out) {
    byte[] b = src.bytes();
    boolean unsigned = src.type().kind() == DataType.Kind.UINT;
    switch (src.type().size()) {
      case 1 -> {
        for (int j = 0; j < count; j++) {
          out[j] = unsigned ? b[first + j] & 0xff : b[first + j];
        }
      }
      case 2 -> {
        for (int j = 0, at = 2 * first; j < count; j++, at += 2) {
          short v = (short) SHORT_LE.get(b, at);
          out[j] = unsigned ? v & 0xffff : v;
        }
      }
      default -> {
        for (int j = 0, at = 4 * first; j < count; j++, at += 4) {
          int v = (int) INT_LE.get(b, at);
          out[j] = unsigned ? v & 0xffffffffL : v;
        }
      }
    }
  }

  /** Whether {@link #convertFloats} converts {@code from} to {@code to}. */
  static boolean convertsFloats(DataType from, DataType to) {
    return isFloat32Or64(from) && isFloat32Or64(to) && from.size() != to.size()
        && !from.needsSwap() && !to.needsSwap();
  }

  /**
   * float32 to float64 or back, rounding to nearest; NaNs go through {@link NumericArray}, which
   * keeps their sign and payload as x86 does.
   */
  static void convertFloats(NumericArray src, NumericArray dst) {
    byte[] in = src.bytes();
    byte[] out = dst.bytes();
    if (src.type().size() == 4) {
      for (int i = 0; i < src.length(); i++) {
        float v = Float.intBitsToFloat((int) INT_LE.get(in, 4 * i));
        if (v != v) {
          dst.setDouble(i, src.getDouble(i));
        } else {
          LONG_LE.set(out, 8 * i, Double.doubleToRawLongBits(v));
        }
      }
    } else {
      for (int i = 0; i < src.length(); i++) {
        double v = Double.longBitsToDouble((long) LONG_LE.get(in, 8 * i));
        if (v != v) {
          dst.setDouble(i, v);
        } else {
          INT_LE.set(out, 4 * i, Float.floatToRawIntBits((float) v));
        }
      }
    }
  }

  static boolean isFloat32Or64(DataType t) {
    return t.kind() == DataType.Kind.FLOAT && (t.size() == 4 || t.size() == 8);
  }

  static boolean isInteger(DataType t) {
    return t.kind() == DataType.Kind.INT || t.kind() == DataType.Kind.UINT;
  }
}
