package io.github.sparkzarr.zarr.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The bit transpose to byte planes, SIMD and scalar parts together, against the bit-level
 * definition: blocks from the SIMD threshold on, ranges of elements that start and end inside a
 * SIMD step, odd offsets, and the bytes around the output left as they were.
 */
class BitPlaneTransposerTest {
  private final Random random = new Random(7);

  @Test
  void bytePlanesMatchTheBitLevelDefinition() {
    assertTrue(BitPlaneTransposer.BEST instanceof VectorBitPlaneTransposer,
        "the tests run with the Vector API");
    int min = ByteShuffle.SIMD_MIN_ELEMENTS;
    int[][] blocksAndRanges = {
      // elements in the block, first element, element count (first and count multiples of 8)
      {min, 0, min}, {min, 0, 1024}, {min, 1024, 1024}, {min + 2048, 7168, 2048},
      {min + 8, 0, min + 8}, {min + 264, 256, 8 + 256 * 3}, {min, 8, 248}, {min, 8, 264},
      {min, 520, 1000}, {4 * min, 3 * min + 8, min - 8}, {min - 8, 0, min - 8},
    };
    for (int typeSize : new int[] {1, 2, 3, 4, 8}) {
      for (int[] c : blocksAndRanges) {
        int n = c[0];
        int first = c[1];
        int count = c[2];
        int srcOff = random.nextInt(13);
        int dstOff = random.nextInt(13);
        byte[] src = new byte[srcOff + n * typeSize + 5];
        random.nextBytes(src);
        byte[] dst = new byte[dstOff + count * typeSize + 5];
        random.nextBytes(dst);
        byte[] expected = dst.clone();
        int rowBytes = n / 8;
        for (int j = 0; j < typeSize; j++) {
          for (int i = 0; i < count; i++) {
            int element = first + i;
            int b = 0;
            for (int bit = 0; bit < 8; bit++) {
              int row = 8 * j + bit;
              b |= ((src[srcOff + row * rowBytes + element / 8] >>> (element % 8)) & 1) << bit;
            }
            expected[dstOff + j * count + i] = (byte) b;
          }
        }
        BitShuffle.toBytePlanes(typeSize, n, src, srcOff, dst, dstOff, first, count);
        assertArrayEquals(expected, dst,
            "typesize " + typeSize + ", block " + n + ", elements [" + first + ", +" + count + ")");
      }
    }
  }
}
