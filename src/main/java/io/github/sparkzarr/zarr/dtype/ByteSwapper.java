package io.github.sparkzarr.zarr.dtype;

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

  /** Reverses the byte order of {@code words} consecutive words of {@code width} bytes. */
  public static void reverseWords(byte[] data, int offset, long words, int width) {
    if (width <= 1) {
      return;
    }
    long end = offset + words * width;
    for (long p = offset; p < end; p += width) {
      int lo = (int) p;
      int hi = lo + width - 1;
      while (lo < hi) {
        byte t = data[lo];
        data[lo] = data[hi];
        data[hi] = t;
        lo++;
        hi--;
      }
    }
  }
}
