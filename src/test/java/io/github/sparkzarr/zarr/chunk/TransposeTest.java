package io.github.sparkzarr.zarr.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Permuted bytes are where the index arithmetic puts them, for every element size, ranks 0 to 4,
 * axes shorter than a tile (1, 5, 17, 48), one tile long (64) and longer with a partial last tile
 * (130), every permutation.
 */
class TransposeTest {
  @Test
  void everyElementLandsWhereItsIndexSays() {
    Random random = new Random(11);
    int[] lengths = {1, 5, 17, 48, 64, 130};
    for (int size : new int[] {1, 2, 3, 4, 8}) {
      for (int rank = 0; rank <= 4; rank++) {
        for (int trial = 0; trial < 12; trial++) {
          int[] shape = new int[rank];
          long count = 1;
          for (int d = 0; d < rank; d++) {
            shape[d] = lengths[random.nextInt(lengths.length)];
            count *= shape[d];
          }
          if (count > 200_000) {
            continue;
          }
          List<Integer> axes = new ArrayList<>();
          for (int d = 0; d < rank; d++) {
            axes.add(d);
          }
          Collections.shuffle(axes, random);
          int[] order = axes.stream().mapToInt(Integer::intValue).toArray();
          byte[] src = new byte[(int) count * size];
          random.nextBytes(src);
          assertArrayEquals(naive(src, shape, order, size), Transpose.permute(src, shape, order, size),
              "size " + size + " shape " + java.util.Arrays.toString(shape) + " order " + java.util.Arrays.toString(order));
        }
      }
    }
  }

  @Test
  void objectsMoveAsBytesDo() {
    int[] shape = {5, 32, 17};
    int[] order = {1, 2, 0};
    int count = 5 * 32 * 17;
    java.nio.ByteBuffer numbers = java.nio.ByteBuffer.allocate(count * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    Object[] objects = new Object[count];
    for (int i = 0; i < count; i++) {
      numbers.putInt(i);
      objects[i] = i;
    }
    java.nio.ByteBuffer moved = java.nio.ByteBuffer.wrap(naive(numbers.array(), shape, order, 4))
        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    Object[] got = Transpose.permute(objects, shape, order);
    for (int j = 0; j < count; j++) {
      org.junit.jupiter.api.Assertions.assertEquals(moved.getInt(4 * j), got[j], "element " + j);
    }
  }

  @Test
  void permutingIntoReusedBuffersTouchesOnlyTheChunk() {
    int[] shape = {70, 3, 130};
    int[] order = {2, 0, 1};
    int bytes = 70 * 3 * 130 * 4;
    Random random = new Random(5);
    byte[] src = new byte[bytes + 100]; // a reused buffer: the chunk, then bytes of an earlier one
    random.nextBytes(src);
    byte[] dst = new byte[bytes + 100];
    java.util.Arrays.fill(dst, (byte) 7);
    Transpose.permuteInto(src, dst, shape, order, 4);
    assertArrayEquals(naive(java.util.Arrays.copyOf(src, bytes), shape, order, 4), java.util.Arrays.copyOf(dst, bytes));
    for (int i = bytes; i < dst.length; i++) {
      org.junit.jupiter.api.Assertions.assertEquals(7, dst[i], "byte " + i + " past the chunk");
    }
  }

  @Test
  void fortranOrderOfAChunkIsItsReversal() {
    int[] shape = {128, 64, 16}; // a 16 x 64 x 128 chunk stored in Fortran order
    byte[] src = new byte[128 * 64 * 16 * 4];
    new Random(3).nextBytes(src);
    assertArrayEquals(naive(src, shape, Transpose.reversal(3), 4), Transpose.permute(src, shape, Transpose.reversal(3), 4));
  }

  /** Destination element at index j (axis i of j is axis order[i] of the source's index). */
  private static byte[] naive(byte[] src, int[] shape, int[] order, int size) {
    int rank = shape.length;
    int[] dstShape = new int[rank];
    for (int i = 0; i < rank; i++) {
      dstShape[i] = shape[order[i]];
    }
    byte[] dst = new byte[src.length];
    int count = src.length / size;
    int[] idx = new int[rank];
    for (int j = 0; j < count; j++) {
      int rest = j;
      for (int i = rank - 1; i >= 0; i--) {
        idx[i] = rest % dstShape[i];
        rest /= dstShape[i];
      }
      int[] srcIdx = new int[rank];
      for (int i = 0; i < rank; i++) {
        srcIdx[order[i]] = idx[i];
      }
      int s = 0;
      for (int d = 0; d < rank; d++) {
        s = s * shape[d] + srcIdx[d];
      }
      System.arraycopy(src, s * size, dst, j * size, size);
    }
    return dst;
  }
}
