package io.github.sparkzarr.zarr.codec.blosc;

/**
 * Blosc's byte shuffle: a block of n elements of t bytes becomes t streams of n bytes (byte j of
 * every element, then byte j+1...). Bytes after the last whole element stay in place at the end.
 * Unshuffle is the hot path of reads, so the common element sizes assemble whole words, with SIMD
 * ({@link Unshuffler}) where the JVM has the Vector API. numcodecs' Shuffle filter has the same
 * layout over a whole chunk.
 */
public final class ByteShuffle {
  private ByteShuffle() {}

  public static void shuffle(int typeSize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
    int n = blockBytes / typeSize;
    switch (typeSize) {
      case 4 -> {
        for (int i = 0; i < n; i++) {
          int v = LittleEndian.readInt(src, srcOff + 4 * i);
          dst[dstOff + i] = (byte) v;
          dst[dstOff + n + i] = (byte) (v >>> 8);
          dst[dstOff + 2 * n + i] = (byte) (v >>> 16);
          dst[dstOff + 3 * n + i] = (byte) (v >>> 24);
        }
      }
      case 8 -> {
        for (int i = 0; i < n; i++) {
          long v = LittleEndian.readLong(src, srcOff + 8 * i);
          for (int j = 0; j < 8; j++) {
            dst[dstOff + j * n + i] = (byte) (v >>> (8 * j));
          }
        }
      }
      default -> {
        for (int j = 0; j < typeSize; j++) {
          int out = dstOff + j * n;
          for (int i = 0, in = srcOff + j; i < n; i++, in += typeSize) {
            dst[out + i] = src[in];
          }
        }
      }
    }
    copyTail(typeSize, blockBytes, src, srcOff, dst, dstOff);
  }

  /**
   * Blocks of fewer elements take the scalar loops. Small arrays are mostly coordinates, read on
   * the driver once per query, where the SIMD code is seldom run and so stays interpreted or in C1
   * (without the Vector API's intrinsics, each vector operation allocates) far longer than the
   * scalar loops, which the JIT compiles after a few calls. Data blocks are larger (blosc makes
   * blocks of 16 Ki elements and more for 2-, 4- and 8-byte types at its default levels).
   */
  static final int SIMD_MIN_ELEMENTS = 8192;

  public static void unshuffle(
      int typeSize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
    unshuffle(typeSize, blockBytes, src, srcOff, dst, dstOff, blockBytes / typeSize >= SIMD_MIN_ELEMENTS);
  }

  /**
   * {@link #unshuffle(int, int, byte[], int, byte[], int)} with the choice of SIMD made by the
   * caller: a bit-shuffled block un-shuffles its bytes in rounds smaller than the threshold.
   */
  static void unshuffle(
      int typeSize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff, boolean simd) {
    int n = blockBytes / typeSize;
    int done = simd ? Unshuffler.BEST.unshuffle(typeSize, n, src, srcOff, dst, dstOff) : 0;
    switch (typeSize) {
      case 2 -> {
        for (int i = done, s1 = srcOff + n, out = dstOff + 2 * done; i < n; i++, out += 2) {
          dst[out] = src[srcOff + i];
          dst[out + 1] = src[s1 + i];
        }
      }
      case 4 -> {
        int s1 = srcOff + n;
        int s2 = s1 + n;
        int s3 = s2 + n;
        for (int i = done; i < n; i++) {
          int v =
              (src[srcOff + i] & 0xFF)
                  | (src[s1 + i] & 0xFF) << 8
                  | (src[s2 + i] & 0xFF) << 16
                  | (src[s3 + i] & 0xFF) << 24;
          LittleEndian.writeInt(dst, dstOff + 4 * i, v);
        }
      }
      case 8 -> {
        for (int i = done; i < n; i++) {
          long v = 0;
          for (int j = 0, in = srcOff + i; j < 8; j++, in += n) {
            v |= (src[in] & 0xFFL) << (8 * j);
          }
          LittleEndian.writeLong(dst, dstOff + 8 * i, v);
        }
      }
      default -> {
        for (int j = 0; j < typeSize; j++) {
          int in = srcOff + j * n;
          for (int i = 0, out = dstOff + j; i < n; i++, out += typeSize) {
            dst[out] = src[in + i];
          }
        }
      }
    }
    copyTail(typeSize, blockBytes, src, srcOff, dst, dstOff);
  }

  /** The bytes after the last whole element are not shuffled. */
  private static void copyTail(
      int typeSize, int blockBytes, byte[] src, int srcOff, byte[] dst, int dstOff) {
    int whole = blockBytes - blockBytes % typeSize;
    System.arraycopy(src, srcOff + whole, dst, dstOff + whole, blockBytes - whole);
  }
}
