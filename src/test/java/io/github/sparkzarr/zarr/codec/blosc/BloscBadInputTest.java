package io.github.sparkzarr.zarr.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.sparkzarr.zarr.codec.CodecException;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Corrupt, truncated and hostile frames fail with a CodecException, never anything else. */
class BloscBadInputTest {

  private static byte[] frame(BloscCname cname, int shuffle, int typeSize, int nbytes)
      throws Exception {
    byte[] raw = new byte[nbytes];
    for (int i = 0; i < nbytes; i++) {
      raw[i] = (byte) (i / 3 + (i % 7 == 0 ? i : 0));
    }
    return new BloscCodec(cname, 5, BloscShuffle.fromNumcodecs(shuffle), 4096, 0)
        .encode(raw, typeSize);
  }

  private static byte[] compressedFrame() throws Exception {
    byte[] f = frame(BloscCname.BLOSCLZ, 1, 4, 20_000);
    assertTrue((f[2] & BloscHeader.FLAG_MEMCPYED) == 0, "test frame should be compressed");
    return f;
  }

  private static String fails(byte[] frame, int decodedSize) {
    CodecException e =
        assertThrows(CodecException.class, () -> BloscDecoder.decode(frame, decodedSize));
    return e.getMessage();
  }

  private static void assertMessage(String message, String expectedPart) {
    assertTrue(message.contains(expectedPart), "message '" + message + "' lacks '" + expectedPart + "'");
  }

  @Test
  void truncatedHeader() {
    assertMessage(fails(new byte[0], -1), "truncated header");
    assertMessage(fails(new byte[15], -1), "truncated header");
  }

  @Test
  void wrongVersionAndReservedFlag() throws Exception {
    byte[] f = compressedFrame();
    f[0] = 3;
    assertMessage(fails(f, -1), "version 3");
    f = compressedFrame();
    f[2] |= 0x08;
    assertMessage(fails(f, -1), "reserved flag");
  }

  @Test
  void cbytesMustMatchTheFrameLength() throws Exception {
    byte[] f = compressedFrame();
    assertMessage(fails(Arrays.copyOf(f, f.length - 1), -1), "truncated");
    assertMessage(fails(Arrays.copyOf(f, f.length + 3), -1), "but it has");
    byte[] g = f.clone();
    LittleEndian.writeInt(g, 12, -5);
    assertMessage(fails(g, -1), "invalid sizes");
  }

  @Test
  void decompressionBombFailsBeforeAllocating() throws Exception {
    byte[] f = compressedFrame();
    LittleEndian.writeInt(f, 4, Integer.MAX_VALUE); // claims 2 GB
    assertMessage(fails(f, 20_000), "were expected");
    byte[] g = compressedFrame();
    assertMessage(fails(g, 19_999), "were expected");
  }

  @Test
  void badGeometry() throws Exception {
    byte[] f = compressedFrame();
    f[3] = 0;
    assertMessage(fails(f, -1), "typesize 0");
    f = compressedFrame();
    LittleEndian.writeInt(f, 8, 0);
    assertMessage(fails(f, -1), "blocksize");
    f = compressedFrame();
    LittleEndian.writeInt(f, 8, 20_001);
    assertMessage(fails(f, -1), "blocksize");
    f = compressedFrame();
    LittleEndian.writeInt(f, 8, 1); // 20000 blocks: too many offsets for the frame
    assertMessage(fails(f, -1), "too short");
  }

  @Test
  void outOfRangeOffsetsAndSizes() throws Exception {
    byte[] f = compressedFrame();
    LittleEndian.writeInt(f, 16, f.length);
    assertMessage(fails(f, -1), "out of the frame");
    f = compressedFrame();
    LittleEndian.writeInt(f, 16, -1);
    assertMessage(fails(f, -1), "out of the frame");
    f = compressedFrame();
    int first = LittleEndian.readInt(f, 16);
    LittleEndian.writeInt(f, first, f.length);
    assertMessage(fails(f, -1), "remain");
    f = compressedFrame();
    LittleEndian.writeInt(f, first, -7);
    assertMessage(fails(f, -1), "remain");
  }

  @Test
  void unknownCompressorFormat() throws Exception {
    byte[] f = compressedFrame();
    f[2] = (byte) ((f[2] & 0x1F) | 5 << 5);
    assertMessage(fails(f, -1), "unknown compressor format 5");
  }

  @Test
  void storedFrameWithWrongSize() throws Exception {
    byte[] f = frame(BloscCname.LZ4, 0, 1, 100); // below 128 bytes: stored
    assertTrue((f[2] & BloscHeader.FLAG_MEMCPYED) != 0);
    byte[] longer = Arrays.copyOf(f, f.length + 1);
    LittleEndian.writeInt(longer, 12, longer.length);
    assertMessage(fails(longer, -1), "uncompressed frame");
  }

  @Test
  void corruptStreamsOfEveryCompressor() throws Exception {
    for (BloscCname cname : BloscCname.values()) {
      byte[] f = frame(cname, 1, 4, 20_000);
      assertTrue((f[2] & BloscHeader.FLAG_MEMCPYED) == 0, cname + " frame should be compressed");
      int first = LittleEndian.readInt(f, 16);
      int csize = LittleEndian.readInt(f, first);
      // Damage the stream body (not stored raw: csize differs from the stream size).
      for (int i = first + 4; i < first + 4 + csize; i += 3) {
        f[i] = (byte) (f[i] * 31 + 0x5A);
      }
      byte[] damaged = f;
      try {
        byte[] out = BloscDecoder.decode(damaged, 20_000);
        fail(cname + ": corrupt stream decoded to " + out.length + " bytes");
      } catch (CodecException expected) {
        assertMessage(expected.getMessage(), "blosc:");
      }
    }
  }

  @Test
  void blosclzStreamRules() {
    byte[] out = new byte[64];
    // A match before any output.
    assertThrows(
        CodecException.class,
        () -> BloscLzDecoder.decode(new byte[] {0, 'a', 0x20, 5, 0, 'b'}, 0, 6, out, 0, 64));
    // A literal run longer than the block.
    assertThrows(
        CodecException.class, () -> BloscLzDecoder.decode(new byte[] {31, 1, 2}, 0, 3, out, 0, 2));
    // A literal run longer than the stream.
    assertThrows(
        CodecException.class, () -> BloscLzDecoder.decode(new byte[] {5, 1, 2}, 0, 3, out, 0, 64));
    // Match length bytes that never end.
    byte[] endless = new byte[40];
    Arrays.fill(endless, (byte) 255);
    endless[0] = 0;
    endless[2] = (byte) 0xE0;
    assertThrows(CodecException.class, () -> BloscLzDecoder.decode(endless, 0, 40, out, 0, 64));
    assertThrows(CodecException.class, () -> BloscLzDecoder.decode(new byte[0], 0, 0, out, 0, 64));
  }

  /** Random damage to every vector: each decode succeeds or throws CodecException. */
  @Test
  void fuzzedVectorsNeverThrowAnythingElse() {
    Random random = new Random(7);
    for (var v : BloscVectors.all()) {
      for (int round = 0; round < 6; round++) {
        byte[] f = v.frame().clone();
        if (round == 0) {
          f = Arrays.copyOf(f, random.nextInt(f.length + 1));
        } else {
          for (int k = 0; k <= round; k++) {
            int at = round < 3 ? random.nextInt(Math.min(f.length, 40)) : random.nextInt(f.length);
            f[at] = (byte) random.nextInt();
          }
        }
        try {
          byte[] out = BloscDecoder.decode(f, v.raw().length);
          if (Arrays.equals(f, v.frame())) {
            assertArrayEquals(v.raw(), out);
          }
        } catch (CodecException expected) {
          // the point of the test
        } catch (RuntimeException e) {
          throw new AssertionError("round " + round + " of " + v + " threw " + e, e);
        }
      }
    }
  }
}
