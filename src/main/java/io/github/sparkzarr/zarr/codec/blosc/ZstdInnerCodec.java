package io.github.sparkzarr.zarr.codec.blosc;

import com.github.luben.zstd.Zstd;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.compress.ZstdContexts;

/** Zstandard frames, through zstd-jni. */
final class ZstdInnerCodec implements InnerCodec {
  private final int level;

  ZstdInnerCodec(int clevel) {
    this.level = zstdLevel(clevel);
  }

  /** For decoding only, where the level does not matter. */
  static ZstdInnerCodec decoder() {
    return new ZstdInnerCodec(1);
  }

  /** libblosc's mapping from its clevel 1-9 to zstd levels: 1, 3, ..., 15, then the maximum. */
  static int zstdLevel(int clevel) {
    return clevel < 9 ? 2 * clevel - 1 : Zstd.maxCompressionLevel();
  }

  @Override
  public int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut) {
    long size;
    try {
      size = Zstd.compressByteArray(dst, dstOff, maxOut, src, off, len, level);
    } catch (RuntimeException tooLarge) {
      return -1;
    }
    return Zstd.isError(size) ? -1 : (int) size;
  }

  @Override
  public void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int expected)
      throws CodecException {
    int got;
    try {
      // zstd-jni reports failures as ZstdException, not as error codes
      got = ZstdContexts.decompressor().decompressByteArray(dst, dstOff, expected, src, off, len);
    } catch (RuntimeException e) {
      throw InnerCodec.corrupt("zstd", e);
    }
    if (got != expected) {
      throw InnerCodec.wrongSize("zstd", got, expected);
    }
  }
}
