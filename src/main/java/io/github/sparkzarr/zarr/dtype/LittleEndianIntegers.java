package io.github.sparkzarr.zarr.dtype;

import static io.github.sparkzarr.zarr.dtype.ByteViews.INT_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.LONG_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.SHORT_LE;

/**
 * Little-endian integers widened to 64 bits a block at a time, one loop per width and sign, so
 * that what follows (sums, running sums) runs over a long[] without deciding the type per element.
 */
public final class LittleEndianIntegers {
  private LittleEndianIntegers() {}

  /**
   * {@code count} integers of {@code size} bytes (1, 2, 4 or 8) at {@code b[at...]} into {@code
   * out[0, count)}, sign-extended or, {@code unsigned}, zero-extended (8-byte ones as their bits).
   */
  public static void widen(byte[] b, int at, int size, boolean unsigned, int count, long[] out) {
    switch (size) {
      case 1 -> {
        if (unsigned) {
          for (int k = 0; k < count; k++) {
            out[k] = b[at + k] & 0xFF;
          }
        } else {
          for (int k = 0; k < count; k++) {
            out[k] = b[at + k];
          }
        }
      }
      case 2 -> {
        if (unsigned) {
          for (int k = 0; k < count; k++) {
            out[k] = (short) SHORT_LE.get(b, at + 2 * k) & 0xFFFF;
          }
        } else {
          for (int k = 0; k < count; k++) {
            out[k] = (short) SHORT_LE.get(b, at + 2 * k);
          }
        }
      }
      case 4 -> {
        if (unsigned) {
          for (int k = 0; k < count; k++) {
            out[k] = (int) INT_LE.get(b, at + 4 * k) & 0xFFFFFFFFL;
          }
        } else {
          for (int k = 0; k < count; k++) {
            out[k] = (int) INT_LE.get(b, at + 4 * k);
          }
        }
      }
      case 8 -> {
        for (int k = 0; k < count; k++) {
          out[k] = (long) LONG_LE.get(b, at + 8 * k);
        }
      }
      default -> throw new IllegalArgumentException("integers of " + size + " bytes");
    }
  }
}
