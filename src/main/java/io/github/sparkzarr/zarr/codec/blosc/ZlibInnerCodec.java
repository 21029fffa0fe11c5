package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.CodecException;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/** zlib-wrapped deflate streams (zlib's compress2/uncompress), through java.util.zip. */
final class ZlibInnerCodec implements InnerCodec {
  private final int clevel;
  private Deflater deflater;
  private Inflater inflater;

  ZlibInnerCodec(int clevel) {
    this.clevel = clevel;
  }

  /** For decoding only, where the level does not matter. */
  static ZlibInnerCodec decoder() {
    return new ZlibInnerCodec(Deflater.DEFAULT_COMPRESSION);
  }

  @Override
  public int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut) {
    if (deflater == null) {
      deflater = new Deflater(clevel);
    } else {
      deflater.reset();
    }
    deflater.setInput(src, off, len);
    deflater.finish();
    int size = deflater.deflate(dst, dstOff, maxOut);
    return deflater.finished() ? size : -1;
  }

  @Override
  public void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int expected)
      throws CodecException {
    if (inflater == null) {
      inflater = new Inflater();
    } else {
      inflater.reset();
    }
    inflater.setInput(src, off, len);
    int got;
    try {
      got = inflater.inflate(dst, dstOff, expected);
    } catch (DataFormatException e) {
      throw InnerCodec.corrupt("zlib", e);
    }
    if (got != expected || !inflater.finished()) {
      throw new CodecException(
          "blosc: zlib stream does not decode to exactly " + expected + " bytes");
    }
  }

  @Override
  public void close() {
    if (deflater != null) {
      deflater.end();
    }
    if (inflater != null) {
      inflater.end();
    }
  }
}
