package io.github.sparkzarr.zarr.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Decoding whole chunks into a scan's reused buffers (row scans): a shuffled block waits in the
 * caller's scratch buffer 1, never in buffer 0 (which is the output), and chunk after chunk the
 * same scratch serves and the bytes come out right.
 */
class BloscDecodeIntoTest {
  private static final int BLOCK = 16 << 10;

  @Test
  void shuffledBlocksWaitInScratchBufferOneChunkAfterChunk() throws Exception {
    Random random = new Random(7);
    for (BloscShuffle shuffle : new BloscShuffle[] {BloscShuffle.SHUFFLE, BloscShuffle.BITSHUFFLE}) {
      BloscCodec codec = new BloscCodec(BloscCname.LZ4, 5, shuffle, BLOCK, 4);
      DecodeBuffers scratch = new DecodeBuffers();
      byte[] scratchBlock = null;
      for (int chunk = 0; chunk < 3; chunk++) {
        byte[] values = new byte[5 * BLOCK + 12]; // a partial last block too
        for (int i = 0; i < values.length; i += 4) {
          values[i + random.nextInt(4)] = (byte) random.nextInt(3); // compressible, not constant
        }
        byte[] frame = codec.encode(values, 4);
        byte[] out = scratch.get(0, values.length);
        Arrays.fill(out, (byte) 0x55);
        codec.decodeInto(frame, frame.length, out, values.length, scratch);
        assertArrayEquals(values, Arrays.copyOf(out, values.length), shuffle + " chunk " + chunk);
        byte[] block = scratch.get(1, 1);
        assertTrue(block.length >= BLOCK, shuffle + ": the decoder sized scratch buffer 1 for a block");
        if (scratchBlock != null) {
          assertSame(scratchBlock, block, shuffle + ": the same scratch block, chunk after chunk");
        }
        scratchBlock = block;
      }
    }
  }
}
