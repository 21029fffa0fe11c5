package io.github.sparkzarr.zarr.dtype;

import static io.github.sparkzarr.zarr.dtype.ByteViews.INT_BE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.INT_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.LONG_BE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.LONG_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.SHORT_BE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.SHORT_LE;

import java.nio.ByteOrder;

/**
 * A flat array of bool, integer or float elements over a byte[], in the byte order of its type.
 * Integers are read as longs (UINT 8 as its raw 64 bits), floats as doubles (float16 and float32
 * exactly); writes truncate integers to the element width and round floats to the element
 * precision.
 */
public final class NumericArray {
  private final DataType type;
  private final byte[] bytes;
  private final int length;
  private final boolean bigEndian;

  private NumericArray(DataType type, byte[] bytes) {
    if (!supports(type)) {
      throw new IllegalArgumentException(type + " is not a bool, integer or float type");
    }
    if (bytes.length % type.size() != 0) {
      throw new IllegalArgumentException(
          bytes.length + " bytes are not a whole number of " + type + " elements");
    }
    this.type = type;
    this.bytes = bytes;
    this.length = bytes.length / type.size();
    this.bigEndian = type.order() == ByteOrder.BIG_ENDIAN;
  }

  /** True for the kinds this class handles: BOOL, INT, UINT and FLOAT. */
  public static boolean supports(DataType type) {
    return switch (type.kind()) {
      case BOOL, INT, UINT, FLOAT -> true;
      default -> false;
    };
  }

  /** A view of {@code bytes} (not copied) as elements of {@code type}. */
  public static NumericArray wrap(DataType type, byte[] bytes) {
    return new NumericArray(type, bytes);
  }

  /** A zero-filled array of {@code length} elements. */
  public static NumericArray allocate(DataType type, int length) {
    return new NumericArray(type, new byte[Math.multiplyExact(length, type.size())]);
  }

  public DataType type() {
    return type;
  }

  public byte[] bytes() {
    return bytes;
  }

  public int length() {
    return length;
  }

  public boolean isFloat() {
    return type.kind() == DataType.Kind.FLOAT;
  }

  /** Integer or bool element {@code i}: sign-extended for INT, zero-extended for UINT and BOOL. */
  public long getLong(int i) {
    long raw = raw(i);
    return switch (type.kind()) {
      case INT -> {
        int shift = 64 - 8 * type.size();
        yield (raw << shift) >> shift;
      }
      case UINT, BOOL -> raw;
      default -> throw new IllegalStateException(type + " elements are not integers");
    };
  }

  /** Float element {@code i}, exactly. */
  public double getDouble(int i) {
    long raw = raw(i);
    return switch (type.size()) {
      case 2 -> HalfFloat.toDouble((short) raw);
      case 4 -> floatToDouble((int) raw);
      case 8 -> Double.longBitsToDouble(raw);
      default -> throw new IllegalStateException(type + " elements are not floats");
    };
  }

  /** Stores the low bits of {@code value} into integer element {@code i} (wraps around). */
  public void setLong(int i, long value) {
    if (isFloat()) {
      throw new IllegalStateException(type + " elements are not integers");
    }
    put(i, value);
  }

  /** Stores {@code value} rounded to this float type's precision into element {@code i}. */
  public void setDouble(int i, double value) {
    switch (isFloat() ? type.size() : 0) {
      case 2 -> put(i, HalfFloat.fromDouble(value) & 0xffffL);
      case 4 -> put(i, doubleToFloatBits(value) & 0xffffffffL);
      case 8 -> put(i, Double.doubleToRawLongBits(value));
      default -> throw new IllegalStateException(type + " elements are not floats");
    }
  }

  /**
   * float32 to double; a NaN keeps its sign and payload and becomes quiet, as x86's cvtss2sd
   * does (Java leaves NaN bits unspecified, numpy's results depend on them).
   */
  public static double floatToDouble(int bits) {
    if ((bits & 0x7f800000) == 0x7f800000 && (bits & 0x7fffff) != 0) {
      long sign = (long) (bits >>> 31) << 63;
      long payload = (long) (bits & 0x7fffff) << 29;
      return Double.longBitsToDouble(sign | 0x7ff8000000000000L | payload);
    }
    return Float.intBitsToFloat(bits);
  }

  /** double to float32 bits, rounding to nearest; a NaN keeps its sign and top payload bits. */
  public static int doubleToFloatBits(double value) {
    if (Double.isNaN(value)) {
      long bits = Double.doubleToRawLongBits(value);
      int sign = (int) (bits >>> 63) << 31;
      return sign | 0x7fc00000 | (int) ((bits >>> 29) & 0x3fffff);
    }
    return Float.floatToRawIntBits((float) value);
  }

  /**
   * The element's bits as an unsigned number (for bit manipulation of floats), through
   * {@link ByteViews} for 2-, 4- and 8-byte elements.
   */
  public long raw(int i) {
    int size = type.size();
    int base = i * size;
    switch (size) {
      case 1:
        return bytes[base] & 0xffL;
      case 2:
        return (bigEndian ? (short) SHORT_BE.get(bytes, base) : (short) SHORT_LE.get(bytes, base)) & 0xffffL;
      case 4:
        return (bigEndian ? (int) INT_BE.get(bytes, base) : (int) INT_LE.get(bytes, base)) & 0xffffffffL;
      case 8:
        return bigEndian ? (long) LONG_BE.get(bytes, base) : (long) LONG_LE.get(bytes, base);
      default:
        long v = 0;
        for (int b = 0; b < size; b++) {
          int at = bigEndian ? base + b : base + size - 1 - b;
          v = (v << 8) | (bytes[at] & 0xff);
        }
        return v;
    }
  }

  /** Stores the low {@code size * 8} bits of {@code bits} into element {@code i}. */
  public void put(int i, long bits) {
    int size = type.size();
    int base = i * size;
    switch (size) {
      case 1 -> bytes[base] = (byte) bits;
      case 2 -> {
        if (bigEndian) {
          SHORT_BE.set(bytes, base, (short) bits);
        } else {
          SHORT_LE.set(bytes, base, (short) bits);
        }
      }
      case 4 -> {
        if (bigEndian) {
          INT_BE.set(bytes, base, (int) bits);
        } else {
          INT_LE.set(bytes, base, (int) bits);
        }
      }
      case 8 -> {
        if (bigEndian) {
          LONG_BE.set(bytes, base, bits);
        } else {
          LONG_LE.set(bytes, base, bits);
        }
      }
      default -> {
        for (int b = 0; b < size; b++) {
          int at = bigEndian ? base + size - 1 - b : base + b;
          bytes[at] = (byte) (bits >>> (8 * b));
        }
      }
    }
  }
}
