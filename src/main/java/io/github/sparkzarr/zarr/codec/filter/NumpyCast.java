package io.github.sparkzarr.zarr.codec.filter;

import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.ByteSwapper;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.HalfFloat;
import io.github.sparkzarr.zarr.dtype.NumericArray;

/**
 * numpy's conversions between bool, integer and float elements.
 *
 * <p>Array casts ({@code astype}) convert out-of-range and NaN floats to integers the way numpy
 * 1.24 compiled for x86-64 does (its C casts use the cvttsd2si instructions); that behaviour is
 * undefined in C and may differ on other platforms. Scalar assignment ({@code a[0] = x}) goes
 * through Python's int() instead and is handled by {@link #setItem}. Where numpy's result
 * depends on the element's position in the array (float64 NaN or out of range to uint32), the
 * cast fails instead of guessing.
 */
final class NumpyCast {
  private NumpyCast() {}

  /**
   * {@code src.astype(dst)}. Between types of one kind and size numpy copies the bits (swapping
   * them when the byte orders differ), which a Quantize or AsType filter of one dtype does on
   * every chunk.
   */
  static NumericArray cast(NumericArray src, DataType dst) throws CodecException {
    DataType from = src.type();
    if (from.kind() == dst.kind() && from.size() == dst.size()) {
      byte[] bits = src.bytes().clone();
      if (from.needsSwap() != dst.needsSwap()) {
        ByteSwapper.reverseWords(bits, 0, src.length(), from.size());
      }
      return NumericArray.wrap(dst, bits);
    }
    NumericArray out = NumericArray.allocate(dst, src.length());
    if (FastCasts.unpacks(from, dst)) {
      FastCasts.unpack(src, out, false, 1, 0);
    } else if (FastCasts.convertsFloats(from, dst)) {
      FastCasts.convertFloats(src, out);
    } else {
      castElementByElement(src, out);
    }
    return out;
  }

  /** {@link #cast} one element at a time, for every pair of types. */
  static void castElementByElement(NumericArray src, NumericArray out) throws CodecException {
    for (int i = 0; i < src.length(); i++) {
      copy(src, i, out, i);
    }
  }

  /** Casts element {@code i} of {@code src} into element {@code j} of {@code dst}. */
  static void copy(NumericArray src, int i, NumericArray dst, int j) throws CodecException {
    if (src.isFloat()) {
      setFloat(dst, j, src.getDouble(i), src.type().size());
    } else {
      setInteger(dst, j, src.getLong(i), src.type().kind() == DataType.Kind.UINT);
    }
  }

  /** Stores the integer {@code v} (unsigned 64-bit if {@code unsigned}) into {@code dst[j]}. */
  static void setInteger(NumericArray dst, int j, long v, boolean unsigned) {
    switch (dst.type().kind()) {
      case BOOL -> dst.setLong(j, v != 0 ? 1 : 0);
      case INT, UINT -> dst.setLong(j, v);
      default -> dst.setDouble(j, integerToFloat(v, unsigned, dst.type().size()));
    }
  }

  /**
   * The integer rounded once to a float of {@code floatSize} bytes (C's conversion), returned as
   * a double. float16 goes through double, which is exact wherever float16 is finite.
   */
  static double integerToFloat(long v, boolean unsigned, int floatSize) {
    boolean huge = unsigned && v < 0;
    long halved = (v >>> 1) | (v & 1); // keeps the sticky bit so rounding stays correct
    if (floatSize == 4) {
      return huge ? (float) halved * 2f : (float) v;
    }
    return huge ? (double) halved * 2.0 : (double) v;
  }

  /** Stores the float {@code x}, read from a float of {@code srcSize} bytes, into {@code dst[j]}. */
  static void setFloat(NumericArray dst, int j, double x, int srcSize) throws CodecException {
    switch (dst.type().kind()) {
      case BOOL -> dst.setLong(j, x != 0 ? 1 : 0); // NaN is true
      case FLOAT -> dst.setDouble(j, x);
      default -> dst.setLong(j, floatToInteger(x, srcSize, dst.type()));
    }
  }

  /** numpy's array cast of a float to an integer type (see the class comment). */
  static long floatToInteger(double x, int srcSize, DataType dst) throws CodecException {
    boolean unsigned = dst.kind() == DataType.Kind.UINT;
    return switch (dst.size()) {
      case 1, 2 -> truncate32(x);
      case 4 -> {
        if (!unsigned) {
          yield truncate32(x);
        }
        if (srcSize == 2) {
          yield truncate64(x);
        }
        if (srcSize == 8 && !(x > -0x1p31 - 1 && x < 0x1p32)) {
          // numpy's SIMD and scalar loops disagree here: the result depends on the position
          throw new CodecException("numpy has no defined uint32 for the float64 " + x);
        }
        yield x >= 0x1p31 ? truncate32(x - 0x1p31) ^ 0x80000000L : truncate32(x);
      }
      default -> unsigned && x >= 0x1p63 ? truncate64(x - 0x1p63) ^ Long.MIN_VALUE : truncate64(x);
    };
  }

  /** cvttsd2si to 32 bits: truncation, or INT_MIN when NaN or out of range. */
  private static long truncate32(double x) {
    return x > -0x1p31 - 1 && x < 0x1p31 ? (int) x : Integer.MIN_VALUE;
  }

  /** cvttsd2si to 64 bits: truncation, or LONG_MIN when NaN or out of range. */
  private static long truncate64(double x) {
    return x >= -0x1p63 && x < 0x1p63 ? (long) x : Long.MIN_VALUE;
  }

  /** {@code x} rounded to the precision of a float of {@code size} bytes. */
  static double roundTo(double x, int size) {
    return switch (size) {
      case 2 -> HalfFloat.toDouble(HalfFloat.fromDouble(x));
      case 4 -> (float) x;
      default -> x;
    };
  }

  /**
   * {@code dst[j] = src[i]} for numpy scalars: numpy converts through Python int() or float(),
   * so float to integer truncates, wraps to the width, and fails for NaN, infinity and values
   * out of the 64-bit range (where numpy raises or gives platform-specific results).
   */
  static void setItem(NumericArray src, int i, NumericArray dst, int j) throws CodecException {
    DataType.Kind to = dst.type().kind();
    boolean srcUnsigned = src.type().kind() == DataType.Kind.UINT;
    if (to == DataType.Kind.FLOAT) {
      double x = src.isFloat() ? src.getDouble(i) : integerToFloat(src.getLong(i), srcUnsigned, 8);
      dst.setDouble(j, x);
    } else if (to == DataType.Kind.BOOL || !src.isFloat()) {
      if (to == DataType.Kind.INT && srcUnsigned && src.getLong(i) < 0) {
        throw new CodecException(
            "cannot store " + Long.toUnsignedString(src.getLong(i)) + " in " + dst.type());
      }
      copy(src, i, dst, j);
    } else {
      double t = src.getDouble(i);
      boolean fits =
          t > -0x1p63 - 1 && (to == DataType.Kind.UINT ? t < 0x1p64 : t < 0x1p63);
      if (!fits) {
        throw new CodecException("cannot store " + t + " in " + dst.type());
      }
      dst.setLong(j, t >= 0x1p63 ? (long) (t - 0x1p63) ^ Long.MIN_VALUE : (long) t);
    }
  }
}
