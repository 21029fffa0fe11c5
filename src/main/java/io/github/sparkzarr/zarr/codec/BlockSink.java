package io.github.sparkzarr.zarr.codec;

import java.io.IOException;

/**
 * Receives a chunk's decoded bytes piece by piece, in order, while each piece is still in the
 * CPU's caches (blosc hands out its blocks). A piece is valid only during the call: the buffer is
 * reused for the next one.
 */
public interface BlockSink {

  /** Decoded bytes {@code [start, start + length)} of the chunk, at {@code buffer[offset...]}. */
  void block(byte[] buffer, int offset, int start, int length) throws IOException;

  /**
   * Whether the sink reads blocks still in blosc's byte-shuffled layout for elements of {@code
   * typeSize} bytes ({@link #byteShuffledBlock}), which saves writing the un-shuffled block.
   */
  default boolean readsByteShuffled(int typeSize) {
    return false;
  }

  /**
   * Decoded bytes {@code [start, start + length)} of the chunk, byte-shuffled: {@code length} is a
   * multiple of {@code typeSize}, and byte {@code k} of element {@code i} of the block is at
   * {@code buffer[offset + k * (length / typeSize) + i]}. Called only when {@link
   * #readsByteShuffled} said yes for this type size.
   */
  default void byteShuffledBlock(byte[] buffer, int offset, int start, int length, int typeSize)
      throws IOException {
    throw new UnsupportedOperationException("this sink reads un-shuffled blocks only");
  }
}
