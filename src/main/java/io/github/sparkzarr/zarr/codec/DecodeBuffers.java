package io.github.sparkzarr.zarr.codec;

/**
 * Scratch buffers a caller keeps across chunks (one per task), so that decoding block by block
 * allocates nothing per chunk. Not thread-safe.
 */
public final class DecodeBuffers {
  private final byte[][] buffers = new byte[2][];

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
