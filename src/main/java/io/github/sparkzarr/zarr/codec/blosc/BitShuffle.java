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

  /** Elements un-shuffled per round: their byte planes stay in the CPU's first-level cache. */
  private static final int STEP = 1024;

  /** Per thread: the byte planes of one round of {@link #unshuffle}. */
  private static final ThreadLocal<byte[]> PLANES = ThreadLocal.withInitial(() -> new byte[0]);

  /**
   * Undoes the bit shuffle in two steps, as libblosc does: the bit transpose gives each byte's
   * plane (byte j of every element, the byte shuffle's layout), then {@link ByteShuffle} puts the
   * bytes of each element together. Rounds of {@link #STEP} elements keep the planes in cache.
   */
  static void unshuffle(
      int typeSize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
    int n = blockBytes / typeSize;
    if (n % 8 != 0) {
      System.arraycopy(src, srcOff, dst, dstOff, blockBytes);
      return;
    }
    if (typeSize == 1) {
      toBytePlanes(1, n, src, srcOff, dst, dstOff, 0, n);
    } else {
      byte[] planes = PLANES.get();
      if (planes.length < typeSize * STEP) {
        planes = new byte[typeSize * STEP];
        PLANES.set(planes);
      }
      for (int first = 0; first < n; first += STEP) {
        int count = Math.min(STEP, n - first);
        toBytePlanes(typeSize, n, src, srcOff, planes, 0, first, count);
        ByteShuffle.unshuffle(typeSize, typeSize * count, planes, 0, dst, dstOff + typeSize * first);
      }
    }
    copyTail(typeSize, blockBytes, n, src, srcOff, dst, dstOff);
  }

  /**
   * The bit transpose alone, for elements {@code [first, first + count)} of a bit-shuffled block of
   * {@code n} elements ({@code n} and {@code first} multiples of 8): byte j of element first + i
   * goes to {@code dst[dstOff + j * count + i]}, the byte shuffle's layout.
   */
  static void toBytePlanes(int typeSize, int n, byte[] src, int srcOff, byte[] dst, int dstOff,
      int first, int count) {
    int rowBytes = n / 8;
    long[] rows = new long[8];
    for (int j = 0; j < typeSize; j++) {
      int rowsStart = srcOff + 8 * j * rowBytes;
      int plane = dstOff + j * count - first;
      int g = first / 8;
      int end = (first + count) / 8;
      // Eight bytes of each of the eight rows at once: a byte transpose of the eight words gives,
      // per word, the eight bytes that one bit transpose turns into eight elements' byte j.
      for (; g + 8 <= end; g += 8) {
        for (int b = 0; b < 8; b++) {
          rows[b] = LittleEndian.readLong(src, rowsStart + b * rowBytes + g);
        }
        transposeBytes(rows);
        for (int k = 0; k < 8; k++) {
          LittleEndian.writeLong(dst, plane + 8 * (g + k), transpose8x8(rows[k]));
        }
      }
      for (; g < end; g++) {
        long x = 0;
        for (int b = 0, in = rowsStart + g; b < 8; b++, in += rowBytes) {
          x |= (src[in] & 0xFFL) << (8 * b);
        }
        LittleEndian.writeLong(dst, plane + 8 * g, transpose8x8(x));
      }
    }
  }

  /** Transposes the 8x8 byte matrix whose row r is word r: byte c of word r moves to byte r of c. */
  static void transposeBytes(long[] w) {
    for (int r = 0; r < 8; r += 2) {
      long t = ((w[r] >>> 8) ^ w[r + 1]) & 0x00FF00FF00FF00FFL;
      w[r + 1] ^= t;
      w[r] ^= t << 8;
    }
    for (int r = 0; r < 8; r += (r % 4 == 1) ? 3 : 1) {
      long t = ((w[r] >>> 16) ^ w[r + 2]) & 0x0000FFFF0000FFFFL;
      w[r + 2] ^= t;
      w[r] ^= t << 16;
    }
    for (int r = 0; r < 4; r++) {
      long t = ((w[r] >>> 32) ^ w[r + 4]) & 0x00000000FFFFFFFFL;
      w[r + 4] ^= t;
      w[r] ^= t << 32;
    }
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
