package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.CodecException;

/**
 * The compressor blosc runs on each stream of each block. An instance serves one encode or decode
 * call (it may hold reusable state such as a hash table or an Inflater) and must be closed.
 */
interface InnerCodec extends AutoCloseable {

  /**
   * Compresses src[off, off+len) into dst at dstOff.
   *
   * @return the compressed size, or -1 when it would take more than maxOut bytes
   */
  int compress(byte[] src, int off, int len, byte[] dst, int dstOff, int maxOut)
      throws CodecException;

  /** Decompresses a stream that must decode to exactly {@code expected} bytes at dstOff. */
  void decompress(byte[] src, int off, int len, byte[] dst, int dstOff, int expected)
      throws CodecException;

  @Override
  default void close() {}

  static CodecException wrongSize(String name, int got, int expected) {
    return new CodecException(
        "blosc: " + name + " stream decoded to " + got + " bytes, expected " + expected);
  }

  static CodecException corrupt(String name, Exception cause) {
    return new CodecException("blosc: corrupt " + name + " stream: " + cause.getMessage(), cause);
  }
}
