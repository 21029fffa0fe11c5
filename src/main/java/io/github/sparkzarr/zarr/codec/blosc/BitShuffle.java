package io.github.sparkzarr.zarr.codec.blosc;

/**
 * Blosc's bit shuffle (the bitshuffle library's layout): for every bit b of every byte j of the
 * elements, one row of n/8 bytes holds that bit of all n elements, element i in bit i%8 of byte
 * i/8; row j*8+b. libblosc only transposes blocks whose element count is a multiple of 8 (copying
 * bytes after the last whole element as they are) and copies other blocks unchanged.
 */
final class BitShuffle {
  private BitShuffle() {}

  static void shuffle(int typeSize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
    int n = blockBytes / typeSize;
    if (n % 8 != 0) {
      System.arraycopy(src, srcOff, dst, dstOff, blockBytes);
      return;
    }
    int rowBytes = n / 8;
    int groupStride = 8 * typeSize;
    for (int j = 0; j < typeSize; j++) {
      int rowStart = dstOff + 8 * j * rowBytes;
      for (int g = 0, in = srcOff + j; g < rowBytes; g++, in += groupStride) {
        // byte m of x is byte j of element 8g+m; after the transpose byte b holds bit b of each
        long x = 0;
        for (int m = 0, e = in; m < 8; m++, e += typeSize) {
          x |= (src[e] & 0xFFL) << (8 * m);
        }
        x = transpose8x8(x);
        for (int b = 0, out = rowStart + g; b < 8; b++, out += rowBytes) {
          dst[out] = (byte) (x >>> (8 * b));
        }
      }
    }
    copyTail(typeSize, blockBytes, n, src, srcOff, dst, dstOff);
  }

  static void unshuffle(
      int typeSize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
    int n = blockBytes / typeSize;
    if (n % 8 != 0) {
      System.arraycopy(src, srcOff, dst, dstOff, blockBytes);
      return;
    }
    int rowBytes = n / 8;
    int groupStride = 8 * typeSize;
    for (int j = 0; j < typeSize; j++) {
      int rowStart = srcOff + 8 * j * rowBytes;
      for (int g = 0, out = dstOff + j; g < rowBytes; g++, out += groupStride) {
        long x = 0;
        for (int b = 0, in = rowStart + g; b < 8; b++, in += rowBytes) {
          x |= (src[in] & 0xFFL) << (8 * b);
        }
        x = transpose8x8(x);
        for (int m = 0, e = out; m < 8; m++, e += typeSize) {
          dst[e] = (byte) (x >>> (8 * m));
        }
      }
    }
    copyTail(typeSize, blockBytes, n, src, srcOff, dst, dstOff);
  }

  /** Transposes the 8x8 bit matrix whose row r is byte r: bit c of byte r moves to bit r of c. */
  static long transpose8x8(long x) {
    long t = (x ^ (x >>> 7)) & 0x00AA00AA00AA00AAL;
    x = x ^ t ^ (t << 7);
    t = (x ^ (x >>> 14)) & 0x0000CCCC0000CCCCL;
    x = x ^ t ^ (t << 14);
    t = (x ^ (x >>> 28)) & 0x00000000F0F0F0F0L;
    return x ^ t ^ (t << 28);
  }

  private static void copyTail(
      int typeSize, int blockBytes, int n, byte[] src, int srcOff, byte[] dst, int dstOff) {
    int whole = n * typeSize;
    System.arraycopy(src, srcOff + whole, dst, dstOff + whole, blockBytes - whole);
  }
}
