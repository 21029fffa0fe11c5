package io.github.sparkzarr.zarr.dtype;

import static io.github.sparkzarr.zarr.dtype.ByteViews.INT_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.LONG_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.SHORT_LE;

import java.nio.ByteOrder;

/** Reorders the bytes of fixed-size elements between big-endian storage and little-endian memory. */
public final class ByteSwapper {
  private ByteSwapper() {}

  /**
   * Swaps, in place, every big-endian part of {@code count} elements of {@code type} starting at
   * {@code offset} in {@code data}. Swapping is its own inverse, so this also converts
   * little-endian memory back to a big-endian type's storage order.
   */
  public static void swapBigEndianParts(DataType type, byte[] data, int offset, long count) {
    if (!type.needsSwap()) {
      return;
    }
    if (type.kind() == DataType.Kind.STRUCT) {
      for (long i = 0; i < count; i++) {
        int base = Math.toIntExact(offset + i * type.size());
        for (DataType.Field f : type.fields()) {
          swapBigEndianParts(f.type(), data, base + f.offset(), f.count());
        }
      }
      return;
    }
    if (type.order() != ByteOrder.BIG_ENDIAN) {
      return;
    }
    int width =
        switch (type.kind()) {
          case COMPLEX -> type.size() / 2;
          case UNICODE -> 4;
          default -> type.size();
        };
    long words = count * type.size() / width;
    reverseWords(data, offset, words, width);
  }

  /**
   * Reverses the byte order of {@code words} consecutive words of {@code width} bytes: a word at a
   * time for 2, 4 and 8 bytes (a store of big-endian floats swaps every value it reads).
   */
  public static void reverseWords(byte[] data, int offset, long words, int width) {
    if (width <= 1) {
      return;
    }
    int end = Math.toIntExact(offset + words * width);
    switch (width) {
      case 2 -> {
        for (int p = offset; p < end; p += 2) {
          SHORT_LE.set(data, p, Short.reverseBytes((short) SHORT_LE.get(data, p)));
        }
      }
      case 4 -> {
        for (int p = offset; p < end; p += 4) {
          INT_LE.set(data, p, Integer.reverseBytes((int) INT_LE.get(data, p)));
        }
      }
      case 8 -> {
        for (int p = offset; p < end; p += 8) {
          LONG_LE.set(data, p, Long.reverseBytes((long) LONG_LE.get(data, p)));
        }
      }
      default -> {
        for (int lo0 = offset; lo0 < end; lo0 += width) {
          for (int lo = lo0, hi = lo0 + width - 1; lo < hi; lo++, hi--) {
            byte t = data[lo];
            data[lo] = data[hi];
            data[hi] = t;
          }
        }
      }
    }
  }
}
