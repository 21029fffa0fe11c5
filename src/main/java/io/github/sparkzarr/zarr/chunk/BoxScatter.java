package io.github.sparkzarr.zarr.chunk;

import io.github.sparkzarr.zarr.codec.BlockSink;

/**
 * Copies a chunk's decoded bytes, piece by piece as a decoder hands them out, into its place in a
 * larger C-ordered array: an inner chunk into its shard. Pieces may start and end anywhere on
 * element boundaries; rows (runs along the last dimension) are copied whole or in part.
 */
public final class BoxScatter implements BlockSink {
  private final byte[] target;
  private final int[] chunkShape;
  private final long[] targetStrides;
  /** Byte offset in the target of the chunk's first element. */
  private final long corner;
  private final int elementSize;
  private final int rowBytes;

  /**
   * @param target the larger array, of {@code targetShape}
   * @param at where the chunk's first element goes in it; the whole chunk must fit
   */
  public BoxScatter(byte[] target, int[] targetShape, int[] chunkShape, int[] at, int elementSize) {
    this.target = target;
    this.chunkShape = chunkShape.clone();
    this.targetStrides = BoxCopy.strides(targetShape);
    long c = 0;
    for (int d = 0; d < at.length; d++) {
      c += at[d] * targetStrides[d];
    }
    this.corner = c * elementSize;
    this.elementSize = elementSize;
    this.rowBytes = chunkShape.length == 0 ? elementSize : chunkShape[chunkShape.length - 1] * elementSize;
  }

  @Override
  public void block(byte[] buffer, int offset, int start, int length) {
    int last = chunkShape.length - 1;
    long pos = start;
    long end = (long) start + length;
    while (pos < end) {
      long row = pos / rowBytes;
      int inRow = (int) (pos % rowBytes);
      int n = (int) Math.min(rowBytes - inRow, end - pos);
      long to = corner + inRow;
      for (int d = last - 1; d >= 0; d--) {
        to += (row % chunkShape[d]) * targetStrides[d] * elementSize;
        row /= chunkShape[d];
      }
      System.arraycopy(buffer, (int) (offset + pos - start), target, (int) to, n);
      pos += n;
    }
  }
}
