package io.github.sparkzarr.zarr.codec;

import io.github.sparkzarr.zarr.store.ReadBuffer;

/**
 * Scratch buffers a caller keeps across chunks (one per task), so that reading and decoding
 * allocates nothing per chunk. Not thread-safe.
 */
public final class DecodeBuffers {
  private final byte[][] buffers = new byte[2][];
  private final ReadBuffer stored = new ReadBuffer();

  /** Where a chunk's stored bytes are read. */
  public ReadBuffer stored() {
    return stored;
  }

  /** Scratch buffer {@code which} (0 or 1) of at least {@code size} bytes; contents undefined. */
  public byte[] get(int which, int size) {
    byte[] b = buffers[which];
    if (b == null || b.length < size) {
      b = new byte[size];
      buffers[which] = b;
    }
    return b;
  }
}
