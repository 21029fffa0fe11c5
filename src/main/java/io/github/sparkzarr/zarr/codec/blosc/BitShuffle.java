package io.github.sparkzarr.zarr.codec.blosc;

/**
 * Blosc's bit shuffle (the bitshuffle library's layout): for every bit b of every byte j of the
 * elements, one row of n/8 bytes holds that bit of all n elements, element i in bit i%8 of byte
 * i/8; row j*8+b. libblosc only transposes blocks whose element count is a multiple of 8 (copying
 * bytes after the last whole element as they are) and copies other blocks unchanged.
 */
final class BitShuffle {
  private BitShuffle() {}

  /**
   * Shuffles in the two steps of {@link #unshuffle} run backwards: {@link ByteShuffle} splits a
   * round of {@link #STEP} elements into byte planes, then each plane's bits go to their rows.
   */
  static void shuffle(int typeSize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
    int n = blockBytes / typeSize;
    if (n % 8 != 0) {
      System.arraycopy(src, srcOff, dst, dstOff, blockBytes);
      return;
    }
    if (typeSize == 1) {
      fromBytePlanes(1, n, src, srcOff, dst, dstOff, 0, n);
    } else {
      byte[] planes = roundPlanes(typeSize);
      for (int first = 0; first < n; first += STEP) {
        int count = Math.min(STEP, n - first);
        ByteShuffle.shuffle(typeSize, typeSize * count, src, srcOff + typeSize * first, planes, 0);
        fromBytePlanes(typeSize, n, planes, 0, dst, dstOff, first, count);
      }
    }
    copyTail(typeSize, blockBytes, n, src, srcOff, dst, dstOff);
  }

  /**
   * The inverse of {@link #toBytePlanes}: byte j of element first + i, read from
   * {@code src[srcOff + j * count + i]}, has its bits put in rows j*8..j*8+7 of the block's
   * {@code n} elements at {@code dst}. The same two transposes, each its own inverse, in the
   * other order.
   */
  static void fromBytePlanes(int typeSize, int n, byte[] src, int srcOff, byte[] dst, int dstOff,
      int first, int count) {
    int rowBytes = n / 8;
    long[] w = new long[8];
    for (int j = 0; j < typeSize; j++) {
      int rowsStart = dstOff + 8 * j * rowBytes;
      int plane = srcOff + j * count - first;
      int g = first / 8;
      int end = (first + count) / 8;
      for (; g + 8 <= end; g += 8) {
        int in = plane + 8 * g;
        for (int r = 0; r < 8; r++) {
          w[r] = transpose8x8(LittleEndian.readLong(src, in + 8 * r));
        }
        transposeBytes(w);
        int out = rowsStart + g;
        for (int r = 0; r < 8; r++) {
          LittleEndian.writeLong(dst, out + r * rowBytes, w[r]);
        }
      }
      for (; g < end; g++) {
        long x = transpose8x8(LittleEndian.readLong(src, plane + 8 * g));
        for (int b = 0, out = rowsStart + g; b < 8; b++, out += rowBytes) {
          dst[out] = (byte) (x >>> (8 * b));
        }
      }
    }
  }

  /** Elements un-shuffled per round: their byte planes stay in the CPU's first-level cache. */
  private static final int STEP = 1024;

  /** Per thread: the byte planes of one round of {@link #unshuffle} or {@link #shuffle}. */
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
      byte[] planes = roundPlanes(typeSize);
      for (int first = 0; first < n; first += STEP) {
        int count = Math.min(STEP, n - first);
        toBytePlanes(typeSize, n, src, srcOff, planes, 0, first, count);
        ByteShuffle.unshuffle(typeSize, typeSize * count, planes, 0, dst, dstOff + typeSize * first,
            n >= ByteShuffle.SIMD_MIN_ELEMENTS);
      }
    }
    copyTail(typeSize, blockBytes, n, src, srcOff, dst, dstOff);
  }

  private static byte[] roundPlanes(int typeSize) {
    byte[] planes = PLANES.get();
    if (planes.length < typeSize * STEP) {
      planes = new byte[typeSize * STEP];
      PLANES.set(planes);
    }
    return planes;
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
    long[] w = new long[8];
    for (int j = 0; j < typeSize; j++) {
      int rowsStart = srcOff + 8 * j * rowBytes;
      int plane = dstOff + j * count - first;
      int g = (first + done) / 8;
      int end = (first + count) / 8;
      // Eight bytes of each of the eight rows at once: a byte transpose of the eight words gives,
      // per word, the eight bytes that one bit transpose turns into eight elements' byte j.
      for (; g + 8 <= end; g += 8) {
        int at = rowsStart + g;
        for (int r = 0; r < 8; r++) {
          w[r] = LittleEndian.readLong(src, at + r * rowBytes);
        }
        transposeBytes(w);
        int out = plane + 8 * g;
        for (int r = 0; r < 8; r++) {
          LittleEndian.writeLong(dst, out + 8 * r, transpose8x8(w[r]));
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

  /**
   * Transposes the 8x8 byte matrix whose row r is word r (byte c of word r moves to byte r of
   * word c): bytes, then byte pairs, then halves swapped between words 1, 2 and 4 apart. Its own
   * inverse. The JIT keeps the eight words in registers.
   */
  private static void transposeBytes(long[] w) {
    swap(w, 0, 1, 8, BYTES);
    swap(w, 2, 3, 8, BYTES);
    swap(w, 4, 5, 8, BYTES);
    swap(w, 6, 7, 8, BYTES);
    swap(w, 0, 2, 16, PAIRS);
    swap(w, 1, 3, 16, PAIRS);
    swap(w, 4, 6, 16, PAIRS);
    swap(w, 5, 7, 16, PAIRS);
    swap(w, 0, 4, 32, HALVES);
    swap(w, 1, 5, 32, HALVES);
    swap(w, 2, 6, 32, HALVES);
    swap(w, 3, 7, 32, HALVES);
  }

  /** Swaps the masked high parts of word a with the masked low parts of word b. */
  private static void swap(long[] w, int a, int b, int shift, long mask) {
    long t = ((w[a] >>> shift) ^ w[b]) & mask;
    w[b] ^= t;
    w[a] ^= t << shift;
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
