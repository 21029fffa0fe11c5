package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.CodecException;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/** LZ4 block format streams (lz4 and lz4hc write the same format), through lz4-java. */
final class Lz4InnerCodec implements InnerCodec {
  private static final LZ4Factory FACTORY = LZ4Factory.fastestInstance();
  private static final LZ4SafeDecompressor DECOMPRESSOR = FACTORY.safeDecompressor();

  private final LZ4Compressor compressor;

  private Lz4InnerCodec(LZ4Compressor compressor) {
    this.compressor = compressor;
  }

  static Lz4InnerCodec fast() {
    return new Lz4InnerCodec(FACTORY.fastCompressor());
  }

  /** libblosc passes its clevel (1-9) straight to LZ4_compress_HC. */
  static Lz4InnerCodec highCompression(int clevel) {
    return new Lz4InnerCodec(FACTORY.highCompressor(Math.max(1, clevel)));
  }

  /** For decoding only, where lz4 and lz4hc are the same. */
  static Lz4InnerCodec decoder() {
    return new Lz4InnerCodec(null);
  }

  @Override
  public int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut) {
    try {
      return compressor.compress(src, off, len, dst, dstOff, maxOut);
    } catch (LZ4Exception tooLarge) {
      return -1;
    }
  }

  @Override
  public void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int expected)
      throws CodecException {
    int got;
    try {
      got = DECOMPRESSOR.decompress(src, off, len, dst, dstOff, expected);
    } catch (RuntimeException e) {
      throw InnerCodec.corrupt("lz4", e);
    }
    if (got != expected) {
      throw InnerCodec.wrongSize("lz4", got, expected);
    }
  }
}
