package io.github.sparkzarr.zarr.dtype;

/** IEEE 754 half precision conversions (Java 17 has none), rounding to nearest even like numpy. */
public final class Float16 {
  private Float16() {}

  /** The float value of the half-precision bits {@code h}. */
  public static float toFloat(short h) {
    int bits = h & 0xffff;
    int sign = (bits & 0x8000) << 16;
    int exp = (bits >>> 10) & 0x1f;
    int mant = bits & 0x3ff;
    if (exp == 0x1f) {
      return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
    }
    if (exp == 0) {
      float v = mant * 0x1p-24f;
      return sign == 0 ? v : -v;
    }
    return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
  }

  /** The half-precision bits nearest to {@code d} (ties to even), as numpy's astype('f2'). */
  public static short fromDouble(double d) {
    long bits = Double.doubleToRawLongBits(d);
    int sign = (int) ((bits >>> 48) & 0x8000);
    if (Double.isNaN(d)) {
      long mant = bits & 0xfffffffffffffL;
      return (short) (sign | 0x7c00 | 0x200 | (int) (mant >>> 42));
    }
    double a = Math.abs(d);
    if (a >= 65520.0) {
      return (short) (sign | 0x7c00);
    }
    if (a < 0x1p-14) {
      // Subnormal range: scale so one unit is 2^-24, then round half to even.
      long m = (long) Math.rint(a * 0x1p24);
      return (short) (sign | (int) m);
    }
    int exp = Math.getExponent(a);
    double scaled = a / Math.scalb(1.0, exp - 10);
    long m = (long) Math.rint(scaled);
    if (m == 2048) {
      m = 1024;
      exp++;
    }
    return (short) (sign | ((exp + 15) << 10) | (int) (m - 1024));
  }
}
