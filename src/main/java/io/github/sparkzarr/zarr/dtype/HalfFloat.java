package io.github.sparkzarr.zarr.dtype;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * IEEE 754 binary16 (numpy float16) conversions. Java 17 has no float16 support, and numpy
 * converts from double directly (round half to even), so the rounding is done here by hand.
 */
public final class HalfFloat {
  /** Every float16's value as a float (exact), by its 16 bits: 256 KiB, in cache while a chunk is read. */
  private static final float[] FLOATS = new float[1 << 16];
  private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

  static {
    for (int h = 0; h < FLOATS.length; h++) {
      FLOATS[h] = (float) toDouble((short) h);
    }
  }

  private HalfFloat() {}

  /** The value of the float16 with bits {@code h}, exactly (a float holds every float16). */
  public static float toFloat(short h) {
    return FLOATS[h & 0xffff];
  }

  /**
   * Widens {@code count} little-endian float16 elements at {@code src[offset]} to little-endian
   * float32 elements at {@code dst[0]}, so float16 chunks take the float32 paths.
   */
  public static void widen(byte[] src, int offset, int count, byte[] dst) {
    for (int i = 0; i < count; i++) {
      FLOAT.set(dst, 4 * i, FLOATS[(short) SHORT.get(src, offset + 2 * i) & 0xffff]);
    }
  }

  /** The exact value of the float16 with bits {@code h}. */
  public static double toDouble(short h) {
    int bits = h & 0xffff;
    int sign = bits >>> 15;
    int exp = (bits >>> 10) & 0x1f;
    int mantissa = bits & 0x3ff;
    double magnitude;
    if (exp == 0x1f && mantissa != 0) {
      // keep the NaN payload in the top mantissa bits, as numpy's npy_half_to_double does
      return Double.longBitsToDouble(((long) sign << 63) | 0x7ff0000000000000L | (long) mantissa << 42);
    }
    if (exp == 0x1f) {
      magnitude = Double.POSITIVE_INFINITY;
    } else if (exp == 0) {
      magnitude = Math.scalb((double) mantissa, -24);
    } else {
      magnitude = Math.scalb((double) (mantissa | 0x400), exp - 25);
    }
    return sign == 0 ? magnitude : -magnitude;
  }

  /** {@code value} rounded to the nearest float16 (ties to even), as numpy's npy_double_to_half. */
  public static short fromDouble(double value) {
    long bits = Double.doubleToRawLongBits(value);
    int sign = (int) (bits >>> 48) & 0x8000;
    double abs = Math.abs(value);
    if (Double.isNaN(value)) {
      // numpy keeps the sign and the top mantissa bits, and keeps the result a NaN
      int top = (int) ((bits >>> 42) & 0x3ff);
      return (short) (sign | 0x7c00 | (top == 0 ? 1 : top));
    }
    if (abs >= 65520.0) { // the rounding midpoint between 65504 and the next binade
      return (short) (sign | 0x7c00);
    }
    if (abs < 0x1p-14) {
      // subnormal: a multiple of 2^-24, rounded half to even by rint
      int m = (int) Math.rint(Math.scalb(abs, 24));
      return (short) (sign | m); // m == 0x400 carries into the smallest normal, as wanted
    }
    int exp = Math.getExponent(abs);
    int m = (int) Math.rint(Math.scalb(abs, 10 - exp)); // 1024..2048 inclusive
    int biased = exp + 15;
    if (m == 0x800) {
      m = 0x400;
      biased++;
    }
    return (short) (sign | (biased << 10) | (m & 0x3ff));
  }
}
