package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.CodecException;

/** BloscLZ streams, through our own encoder and decoder. */
final class BloscLzInnerCodec implements InnerCodec {
  private BloscLzEncoder encoder;

  @Override
  public int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut) {
    if (encoder == null) {
      encoder = new BloscLzEncoder();
    }
    return encoder.encode(src, off, len, dst, dstOff, maxOut);
  }

  @Override
  public void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int expected)
      throws CodecException {
    int got = BloscLzDecoder.decode(src, off, len, dst, dstOff, expected);
    if (got != expected) {
      throw InnerCodec.wrongSize("blosclz", got, expected);
    }
  }
}
