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
        ByteShuffle.unshuffle(typeSize, typeSize * count, planes, 0, dst, dstOff + typeSize * first,
            n >= ByteShuffle.SIMD_MIN_ELEMENTS);
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
    int done = n < ByteShuffle.SIMD_MIN_ELEMENTS
        ? 0
        : BitPlaneTransposer.BEST.toBytePlanes(typeSize, n, src, srcOff, dst, dstOff, first, count);
    int rowBytes = n / 8;
    for (int j = 0; j < typeSize; j++) {
      int rowsStart = srcOff + 8 * j * rowBytes;
      int plane = dstOff + j * count - first;
      int g = (first + done) / 8;
      int end = (first + count) / 8;
      // Eight bytes of each of the eight rows at once: a byte transpose of the eight words gives,
      // per word, the eight bytes that one bit transpose turns into eight elements' byte j. The
      // words stay in locals, so the JIT keeps them in registers.
      for (; g + 8 <= end; g += 8) {
        int at = rowsStart + g;
        long w0 = LittleEndian.readLong(src, at);
        long w1 = LittleEndian.readLong(src, at + rowBytes);
        long w2 = LittleEndian.readLong(src, at + 2 * rowBytes);
        long w3 = LittleEndian.readLong(src, at + 3 * rowBytes);
        long w4 = LittleEndian.readLong(src, at + 4 * rowBytes);
        long w5 = LittleEndian.readLong(src, at + 5 * rowBytes);
        long w6 = LittleEndian.readLong(src, at + 6 * rowBytes);
        long w7 = LittleEndian.readLong(src, at + 7 * rowBytes);
        // byte transpose: swap bytes, then byte pairs, then halves between words 1, 2 and 4 apart
        long t;
        t = ((w0 >>> 8) ^ w1) & BYTES; w1 ^= t; w0 ^= t << 8;
        t = ((w2 >>> 8) ^ w3) & BYTES; w3 ^= t; w2 ^= t << 8;
        t = ((w4 >>> 8) ^ w5) & BYTES; w5 ^= t; w4 ^= t << 8;
        t = ((w6 >>> 8) ^ w7) & BYTES; w7 ^= t; w6 ^= t << 8;
        t = ((w0 >>> 16) ^ w2) & PAIRS; w2 ^= t; w0 ^= t << 16;
        t = ((w1 >>> 16) ^ w3) & PAIRS; w3 ^= t; w1 ^= t << 16;
        t = ((w4 >>> 16) ^ w6) & PAIRS; w6 ^= t; w4 ^= t << 16;
        t = ((w5 >>> 16) ^ w7) & PAIRS; w7 ^= t; w5 ^= t << 16;
        t = ((w0 >>> 32) ^ w4) & HALVES; w4 ^= t; w0 ^= t << 32;
        t = ((w1 >>> 32) ^ w5) & HALVES; w5 ^= t; w1 ^= t << 32;
        t = ((w2 >>> 32) ^ w6) & HALVES; w6 ^= t; w2 ^= t << 32;
        t = ((w3 >>> 32) ^ w7) & HALVES; w7 ^= t; w3 ^= t << 32;
        int out = plane + 8 * g;
        LittleEndian.writeLong(dst, out, transpose8x8(w0));
        LittleEndian.writeLong(dst, out + 8, transpose8x8(w1));
        LittleEndian.writeLong(dst, out + 16, transpose8x8(w2));
        LittleEndian.writeLong(dst, out + 24, transpose8x8(w3));
        LittleEndian.writeLong(dst, out + 32, transpose8x8(w4));
        LittleEndian.writeLong(dst, out + 40, transpose8x8(w5));
        LittleEndian.writeLong(dst, out + 48, transpose8x8(w6));
        LittleEndian.writeLong(dst, out + 56, transpose8x8(w7));
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

  private static final long BYTES = 0x00FF00FF00FF00FFL;
  private static final long PAIRS = 0x0000FFFF0000FFFFL;
  private static final long HALVES = 0x00000000FFFFFFFFL;

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
