package io.github.sparkzarr.zarr.codec.filter;

import static io.github.sparkzarr.zarr.dtype.ByteViews.INT_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.LONG_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.SHORT_LE;

import io.github.sparkzarr.zarr.codec.RunDecoder;
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
    unpackRuns(src.type(), dst.type(), arithmetic, scale, offset)
        .decode(src.bytes(), 0, dst.bytes(), 0, src.length());
  }

  /** {@link #unpack} a run at a time: from {@code from} elements to {@code to} elements. */
  static RunDecoder unpackRuns(DataType from, DataType to, boolean arithmetic, double scale,
      double offset) {
    double[] block = new double[BLOCK];
    boolean toFloat32 = to.size() == 4;
    return (in, inOffset, out, outOffset, count) -> {
      for (int done = 0; done < count; done += BLOCK) {
        int n = Math.min(BLOCK, count - done);
        widen(from, in, inOffset + done * from.size(), n, block);
        if (arithmetic) {
          for (int j = 0; j < n; j++) {
            block[j] = block[j] / scale + offset;
          }
        }
        int at = outOffset + done * to.size();
        if (toFloat32) {
          for (int j = 0; j < n; j++, at += 4) {
            INT_LE.set(out, at, Float.floatToRawIntBits((float) block[j]));
          }
        } else {
          for (int j = 0; j < n; j++, at += 8) {
            LONG_LE.set(out, at, Double.doubleToRawLongBits(block[j]));
          }
        }
      }
    };
  }

  /** {@code count} little-endian integers of {@code type} at {@code b[at...]} as doubles. */
  private static void widen(DataType type, byte[] b, int at, int count, double[] out) {
    boolean unsigned = type.kind() == DataType.Kind.UINT;
    switch (type.size()) {
      case 1 -> {
        for (int j = 0; j < count; j++) {
          out[j] = unsigned ? b[at + j] & 0xff : b[at + j];
        }
      }
      case 2 -> {
        for (int j = 0; j < count; j++, at += 2) {
          short v = (short) SHORT_LE.get(b, at);
          out[j] = unsigned ? v & 0xffff : v;
        }
      }
      default -> {
        for (int j = 0; j < count; j++, at += 4) {
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
   * float32 to float64 or back, rounding to nearest; NaNs keep their sign and payload as x86
   * does ({@link NumericArray#floatToDouble}, {@link NumericArray#doubleToFloatBits}).
   */
  static void convertFloats(NumericArray src, NumericArray dst) {
    convertFloats(src.type().size(), src.bytes(), 0, dst.bytes(), 0, src.length());
  }

  /** {@link #convertFloats} of {@code count} elements of {@code fromSize} bytes. */
  static void convertFloats(int fromSize, byte[] in, int inOffset, byte[] out, int outOffset,
      int count) {
    if (fromSize == 4) {
      for (int i = 0; i < count; i++) {
        int bits = (int) INT_LE.get(in, inOffset + 4 * i);
        LONG_LE.set(out, outOffset + 8 * i, Double.doubleToRawLongBits(NumericArray.floatToDouble(bits)));
      }
    } else {
      for (int i = 0; i < count; i++) {
        double v = Double.longBitsToDouble((long) LONG_LE.get(in, inOffset + 8 * i));
        INT_LE.set(out, outOffset + 4 * i, NumericArray.doubleToFloatBits(v));
      }
    }
  }

  /** numpy's cast from {@code from} to {@code to} a run at a time, when a loop here does it; else null. */
  static RunDecoder castRuns(DataType from, DataType to) {
    if (unpacks(from, to)) {
      return unpackRuns(from, to, false, 1, 0);
    }
    if (convertsFloats(from, to)) {
      int fromSize = from.size();
      return (in, inOffset, out, outOffset, count) ->
          convertFloats(fromSize, in, inOffset, out, outOffset, count);
    }
    return null;
  }

  static boolean isFloat32Or64(DataType t) {
    return t.kind() == DataType.Kind.FLOAT && (t.size() == 4 || t.size() == 8);
  }

  static boolean isInteger(DataType t) {
    return t.kind() == DataType.Kind.INT || t.kind() == DataType.Kind.UINT;
  }
}
