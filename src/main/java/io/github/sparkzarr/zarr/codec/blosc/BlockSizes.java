package io.github.sparkzarr.zarr.codec.blosc;

/** libblosc 1.21's rules for block sizes and for splitting blocks into per-byte streams. */
final class BlockSizes {
  /** Smaller buffers are stored uncompressed; smaller forced blocks are enlarged to this. */
  static final int MIN_BUFFER_SIZE = 128;
  /** Elements larger than this are never split into per-byte streams. */
  static final int MAX_SPLITS = 16;
  /** libblosc's limit, so that its decoder's temporaries fit in an int. */
  static final int MAX_BLOCK_SIZE = (Integer.MAX_VALUE - 255 * 4) / 3;

  private static final int L1 = 32 * 1024;

  private BlockSizes() {}

  /**
   * Whether the encoder splits full blocks into typesize streams (libblosc's default "forward
   * compatible" mode: every codec but zstd, small elements, at least 128 elements per block).
   */
  static boolean split(BloscCname cname, int typeSize, int blockSize) {
    return cname != BloscCname.ZSTD && splittable(typeSize, blockSize);
  }

  /**
   * The decoder's condition besides the header's dont-split flag; frames written before that flag
   * existed rely on it.
   */
  static boolean splittable(int typeSize, int blockSize) {
    return typeSize <= MAX_SPLITS && blockSize / typeSize >= MIN_BUFFER_SIZE;
  }

  /** libblosc's compute_blocksize; forcedBlockSize 0 means automatic. */
  static int compute(BloscCname cname, int clevel, int typeSize, int nbytes, int forcedBlockSize) {
    if (nbytes < typeSize) {
      return 1;
    }
    int blockSize = nbytes;
    if (forcedBlockSize > 0) {
      blockSize = Math.min(Math.max(forcedBlockSize, MIN_BUFFER_SIZE), MAX_BLOCK_SIZE);
    } else if (nbytes >= L1) {
      blockSize = L1 * (cname.highCompressionRatio() ? 2 : 1);
      blockSize = scaleForLevel(blockSize, clevel, cname.highCompressionRatio());
    }
    if (clevel > 0 && split(cname, typeSize, blockSize)) {
      // Split streams stay below 256 KB, blocks between 64 KB and 1 MB.
      blockSize = Math.min(blockSize, 1 << 18) * typeSize;
      blockSize = Math.min(Math.max(blockSize, 1 << 16), 1 << 20);
    }
    blockSize = Math.min(blockSize, nbytes);
    if (blockSize > typeSize) {
      blockSize = blockSize / typeSize * typeSize;
    }
    return blockSize;
  }

  private static int scaleForLevel(int blockSize, int clevel, boolean highRatio) {
    return switch (clevel) {
      case 0 -> blockSize / 4;
      case 1 -> blockSize / 2;
      case 2 -> blockSize;
      case 3 -> blockSize * 2;
      case 4, 5 -> blockSize * 4;
      case 6, 7, 8 -> blockSize * 8;
      default -> blockSize * (highRatio ? 16 : 8);
    };
  }
}
