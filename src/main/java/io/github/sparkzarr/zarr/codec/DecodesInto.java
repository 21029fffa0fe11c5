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
}
