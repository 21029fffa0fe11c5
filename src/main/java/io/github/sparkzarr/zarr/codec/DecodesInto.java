package io.github.sparkzarr.zarr.codec;

import java.io.IOException;

/** A bytes codec that can decode into a caller's buffer, so a scan reuses one per task. */
public interface DecodesInto {
  /**
   * Decodes {@code input[0, inputLength)} into {@code out[0, size)}, which must be exactly its
   * decoded length. Both arrays may be longer: they are buffers reused from chunk to chunk.
   *
   * @throws CodecException on corrupt or truncated data, or another decoded length
   */
  void decodeInto(byte[] input, int inputLength, byte[] out, int size) throws IOException;

  /**
   * The same, with {@code scratch} kept by the caller across chunks: buffer 1 is free for the
   * codec's own use (buffer 0 may be {@code out}), so decoding allocates nothing per chunk.
   */
  default void decodeInto(byte[] input, int inputLength, byte[] out, int size, DecodeBuffers scratch)
      throws IOException {
    decodeInto(input, inputLength, out, size);
  }
}
