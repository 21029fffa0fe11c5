package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.CodecException;
import io.airlift.compress.snappy.SnappyCompressor;
import io.airlift.compress.snappy.SnappyDecompressor;

/** Raw (unframed) snappy streams, through aircompressor. */
final class SnappyInnerCodec implements InnerCodec {
  private final SnappyCompressor compressor = new SnappyCompressor();
  private final SnappyDecompressor decompressor = new SnappyDecompressor();
  private byte[] scratch = new byte[0];

  @Override
  public int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut) {
    // aircompressor wants room for the worst case, so compress aside and copy if it fits.
    int bound = compressor.maxCompressedLength(len);
    if (scratch.length < bound) {
      scratch = new byte[bound];
    }
    int size = compressor.compress(src, off, len, scratch, 0, bound);
    if (size > maxOut) {
      return -1;
    }
    System.arraycopy(scratch, 0, dst, dstOff, size);
    return size;
  }

  @Override
  public void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int expected)
      throws CodecException {
    int got;
    try {
      int declared = SnappyDecompressor.getUncompressedLength(src, off);
      if (declared != expected) {
        throw InnerCodec.wrongSize("snappy", declared, expected);
      }
      got = decompressor.decompress(src, off, len, dst, dstOff, expected);
    } catch (RuntimeException e) {
      throw InnerCodec.corrupt("snappy", e);
    }
    if (got != expected) {
      throw InnerCodec.wrongSize("snappy", got, expected);
    }
  }
}
