package io.github.sparkzarr.zarr.chunk;

import java.io.IOException;

/** The chunks of a regular grid that a box meets, with where the box meets each. */
public final class GridOverlaps {
  private GridOverlaps() {}

  /** Receives one chunk a box meets. */
  public interface Visitor {
    /**
     * @param coords the chunk's grid coordinates
     * @param inChunk where the overlap starts in the chunk
     * @param inBox where the overlap starts relative to the box
     * @param overlap the overlap's size
     */
    void visit(long[] coords, int[] inChunk, int[] inBox, int[] overlap) throws IOException;
  }

  /**
   * Visits, in C order of the grid, each chunk of {@code chunkShape} that the box {@code [start,
   * start + shape)} meets; none when the box is empty.
   */
  public static void forEach(long[] start, int[] shape, int[] chunkShape, Visitor visitor)
      throws IOException {
    int rank = shape.length;
    if (ChunkData.count(shape) == 0) {
      return;
    }
    long[] first = new long[rank];
    long[] last = new long[rank];
    for (int i = 0; i < rank; i++) {
      first[i] = start[i] / chunkShape[i];
      last[i] = (start[i] + shape[i] - 1) / chunkShape[i];
    }
    long[] coords = first.clone();
    while (true) {
      int[] inChunk = new int[rank];
      int[] inBox = new int[rank];
      int[] overlap = new int[rank];
      for (int i = 0; i < rank; i++) {
        long chunkOrigin = coords[i] * chunkShape[i];
        long lo = Math.max(start[i], chunkOrigin);
        long hi = Math.min(start[i] + shape[i], chunkOrigin + chunkShape[i]);
        inChunk[i] = (int) (lo - chunkOrigin);
        inBox[i] = (int) (lo - start[i]);
        overlap[i] = (int) (hi - lo);
      }
      visitor.visit(coords.clone(), inChunk, inBox, overlap);
      int axis = rank - 1;
      while (axis >= 0) {
        if (++coords[axis] <= last[axis]) {
          break;
        }
        coords[axis] = first[axis];
        axis--;
      }
      if (axis < 0) {
        return;
      }
    }
  }
}
