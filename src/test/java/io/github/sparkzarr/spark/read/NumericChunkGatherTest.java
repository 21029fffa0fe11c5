package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteOrder;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link NumericChunk#gather} copies exactly the kept elements, in order, for every element size,
 * from a run starting anywhere: blocks of eight marks all kept (copied whole), none kept
 * (skipped), mixed, and the tail after the last block.
 */
class NumericChunkGatherTest {
  @Test
  void keptElementsInOrder() {
    Random random = new Random(5);
    for (int size : new int[] {1, 2, 4, 8}) {
      DataType t = DataType.numeric(DataType.Kind.INT, size, ByteOrder.LITTLE_ENDIAN);
      for (int trial = 0; trial < 40; trial++) {
        int total = 1 + random.nextInt(120);
        byte[] bytes = new byte[total * size];
        random.nextBytes(bytes);
        byte[] keep = new byte[total];
        int mode = trial % 4; // runs of kept and dropped, random marks, all, none
        for (int i = 0; i < total; i++) {
          keep[i] = (byte) (mode == 0 ? (i / 11) % 2 : mode == 1 ? random.nextInt(2) : mode == 2 ? 1 : 0);
        }
        int at = random.nextInt(total);
        int n = total - at;
        NumericChunk chunk = new NumericChunk(bytes, t, null);
        NumericChunk.Kept kept = chunk.gather(keep, at, n, new byte[n * size]);
        int k = 0;
        for (int j = at; j < total; j++) {
          if (keep[j] == 1) {
            assertEquals(chunk.integralAt(j), kept.chunk().integralAt(k), "size " + size + " element " + j);
            k++;
          }
        }
        assertEquals(k, kept.count(), "size " + size + " mode " + mode);
      }
    }
  }
}
