package io.github.sparkzarr.zarr.codec;

import java.io.IOException;

/** A bytes codec that can decode into a caller's buffer, so a scan reuses one per task. */
public interface DecodesInto {
  /**
   * Decodes {@code input} into {@code out[0, size)}, which must be exactly its decoded length.
   *
   * @throws CodecException on corrupt or truncated data, or another decoded length
   */
  void decodeInto(byte[] input, byte[] out, int size) throws IOException;
}
