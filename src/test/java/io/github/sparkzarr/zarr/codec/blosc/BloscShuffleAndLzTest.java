package io.github.sparkzarr.zarr.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The filters and BloscLZ against straightforward definitions. */
class BloscShuffleAndLzTest {
  private final Random random = new Random(1);

  private byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }

  /**
   * Unshuffle against the definition for the element sizes with SIMD loops, at sizes around the
   * vector widths (small blocks, which take the scalar loops, and blocks from the SIMD threshold
   * on) and at odd offsets in longer arrays, with the bytes around the output untouched.
   */
  @Test
  void unshuffleIsTheInverseTransposeAtEverySizeAndOffset() {
    assertTrue(Unshuffler.BEST instanceof VectorUnshuffler, "the tests run with the Vector API");
    for (int typeSize : new int[] {2, 4, 8, 3}) {
      for (int k = 0; k <= 141; k++) {
        int n = k <= 70 ? k : ByteShuffle.SIMD_MIN_ELEMENTS + k - 71;
        int blockBytes = n * typeSize + (n % 3 == 0 ? typeSize - 1 : 0);
        int srcOff = random.nextInt(9);
        int dstOff = random.nextInt(9);
        byte[] src = randomBytes(srcOff + blockBytes + 7);
        byte[] dst = randomBytes(dstOff + blockBytes + 7);
        byte[] expected = dst.clone();
        for (int i = 0; i < n; i++) {
          for (int j = 0; j < typeSize; j++) {
            expected[dstOff + i * typeSize + j] = src[srcOff + j * n + i];
          }
        }
        System.arraycopy(src, srcOff + n * typeSize, expected, dstOff + n * typeSize,
            blockBytes - n * typeSize);
        ByteShuffle.unshuffle(typeSize, blockBytes, src, srcOff, dst, dstOff);
        assertArrayEquals(expected, dst, "typesize " + typeSize + " elements " + n);
      }
    }
  }

  @Test
  void byteShuffleIsTheByteTransposeWithAnUnshuffledTail() {
    for (int typeSize = 1; typeSize <= 20; typeSize++) {
      for (int blockBytes : new int[] {0, 1, typeSize, 8 * typeSize + 3, 1000}) {
        byte[] src = randomBytes(blockBytes);
        byte[] expected = new byte[blockBytes];
        int n = blockBytes / typeSize;
        for (int i = 0; i < n; i++) {
          for (int j = 0; j < typeSize; j++) {
            expected[j * n + i] = src[i * typeSize + j];
          }
        }
        System.arraycopy(src, n * typeSize, expected, n * typeSize, blockBytes - n * typeSize);
        byte[] shuffled = new byte[blockBytes];
        ByteShuffle.shuffle(typeSize, blockBytes, src, 0, shuffled, 0);
        assertArrayEquals(expected, shuffled, "typesize " + typeSize + " bytes " + blockBytes);
        byte[] back = new byte[blockBytes + 5];
        ByteShuffle.unshuffle(typeSize, blockBytes, shuffled, 0, back, 5);
        assertArrayEquals(src, java.util.Arrays.copyOfRange(back, 5, 5 + blockBytes));
      }
    }
  }

  @Test
  void bitShuffleMatchesTheBitLevelDefinition() {
    for (int typeSize : new int[] {1, 2, 3, 4, 8, 12, 17}) {
      // past 64 elements rows are read 8 bytes at a time; past 1024, un-shuffled in rounds
      for (int elements : new int[] {8, 16, 64, 13, 72, 200, 256, 264, 1032, 2112, 3000, 8200}) {
        int blockBytes = elements * typeSize + (typeSize - 1) / 2; // a ragged tail when possible
        byte[] src = randomBytes(blockBytes);
        byte[] expected = src.clone();
        if (elements % 8 == 0) {
          int rowBytes = elements / 8;
          java.util.Arrays.fill(expected, 0, elements * typeSize, (byte) 0);
          for (int i = 0; i < elements; i++) {
            for (int bit = 0; bit < 8 * typeSize; bit++) {
              int value = (src[i * typeSize + bit / 8] >>> (bit % 8)) & 1;
              expected[bit * rowBytes + i / 8] |= (byte) (value << (i % 8));
            }
          }
        }
        // inside larger arrays, at odd offsets, as blosc's blocks are
        byte[] padded = new byte[blockBytes + 10];
        System.arraycopy(src, 0, padded, 3, blockBytes);
        byte[] shuffled = new byte[blockBytes + 10];
        BitShuffle.shuffle(typeSize, blockBytes, padded, 3, shuffled, 5);
        String what = "typesize " + typeSize + " elements " + elements;
        assertArrayEquals(expected, java.util.Arrays.copyOfRange(shuffled, 5, 5 + blockBytes), what);
        byte[] back = new byte[blockBytes + 10];
        BitShuffle.unshuffle(typeSize, blockBytes, shuffled, 5, back, 7);
        assertArrayEquals(src, java.util.Arrays.copyOfRange(back, 7, 7 + blockBytes), what);
      }
    }
  }

  @Test
  void blosclzRoundTripsAndCompresses() throws Exception {
    byte[][] inputs = BloscLibbloscVerifyTest.stressInputs();
    BloscLzEncoder encoder = new BloscLzEncoder();
    for (byte[] input : inputs) {
      byte[] compressed = new byte[input.length];
      int size = encoder.encode(input, 0, input.length, compressed, 0, input.length - 1);
      if (size < 0) {
        continue; // the random input does not compress
      }
      byte[] out = new byte[input.length];
      assertEquals(input.length, BloscLzDecoder.decode(compressed, 0, size, out, 0, out.length));
      assertArrayEquals(input, out);
    }
    byte[] zeros = new byte[100_000];
    byte[] compressed = new byte[zeros.length];
    int size = encoder.encode(zeros, 0, zeros.length, compressed, 0, zeros.length);
    assertTrue(size > 0 && size < 1000, "zeros compress to " + size);
  }

  @Test
  void blosclzDecodesHandWrittenMatches() throws Exception {
    // "ab" then a 3-byte match at distance 2, then a far-distance form is not needed: "ababa" + "z"
    byte[] stream = {1, 'a', 'b', 0x20, 1, 0, 'z'};
    byte[] out = new byte[6];
    assertEquals(6, BloscLzDecoder.decode(stream, 0, stream.length, out, 0, 6));
    assertArrayEquals("ababaz".getBytes(java.nio.charset.StandardCharsets.US_ASCII), out);
    // A 9-byte long-form match (length code 7, extra 0) of distance 1: a run.
    byte[] run = {0, 'x', (byte) 0xE0, 0, 0, 0, 'y'};
    byte[] out2 = new byte[11];
    assertEquals(11, BloscLzDecoder.decode(run, 0, run.length, out2, 0, 11));
    assertArrayEquals("xxxxxxxxxxy".getBytes(java.nio.charset.StandardCharsets.US_ASCII), out2);
  }
}
