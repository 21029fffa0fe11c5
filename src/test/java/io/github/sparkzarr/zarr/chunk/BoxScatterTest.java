package io.github.sparkzarr.zarr.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

class BoxScatterTest {

  /** Any split of a chunk into pieces lands where a box copy of the whole chunk puts it. */
  @Test
  void piecesLandWhereABoxCopyPutsTheChunk() {
    Random random = new Random(7);
    int[][] cases = {{3, 4, 5}, {1, 7}, {6}, {2, 1, 3}};
    int[][] targets = {{9, 8, 15}, {3, 21}, {18}, {4, 2, 6}};
    int[][] corners = {{3, 4, 10}, {2, 14}, {12}, {2, 1, 3}};
    for (int c = 0; c < cases.length; c++) {
      for (int elementSize : new int[] {1, 4, 8}) {
        int[] chunk = cases[c];
        byte[] src = new byte[(int) ChunkData.count(chunk) * elementSize];
        random.nextBytes(src);
        byte[] expected = new byte[(int) ChunkData.count(targets[c]) * elementSize];
        random.nextBytes(expected);
        byte[] actual = expected.clone();
        BoxCopy.copy(src, chunk, new int[chunk.length], expected, targets[c], corners[c], chunk, elementSize);
        BoxScatter scatter = new BoxScatter(actual, targets[c], chunk, corners[c], elementSize);
        int elements = src.length / elementSize;
        for (int at = 0; at < elements; ) {
          int n = Math.min(elements - at, 1 + random.nextInt(7));
          // pieces arrive in a buffer at some offset, as a decoder's blocks do
          byte[] piece = new byte[3 + n * elementSize];
          System.arraycopy(src, at * elementSize, piece, 3, n * elementSize);
          scatter.block(piece, 3, at * elementSize, n * elementSize);
          at += n;
        }
        assertArrayEquals(expected, actual, "case " + c + ", element size " + elementSize);
      }
    }
  }
}
