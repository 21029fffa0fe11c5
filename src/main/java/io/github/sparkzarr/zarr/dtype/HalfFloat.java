package io.github.sparkzarr.zarr.dtype;

/**
 * IEEE 754 binary16 (numpy float16) conversions. Java 17 has no float16 support, and numpy
 * converts from double directly (round half to even), so the rounding is done here by hand.
 */
public final class HalfFloat {
  private HalfFloat() {}

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
