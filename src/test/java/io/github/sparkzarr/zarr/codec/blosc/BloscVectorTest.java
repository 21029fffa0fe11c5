package io.github.sparkzarr.zarr.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Our codec against frames libblosc 1.21.3 wrote (see integration-tests/gen_blosc_vectors.py). */
class BloscVectorTest {

  @Test
  void vectorsCoverEveryCompressorShuffleAndSplitMode() {
    var vectors = BloscVectors.all();
    assertTrue(vectors.size() >= 900, "vectors: " + vectors.size());
    java.util.Set<Integer> flagCombos = new java.util.TreeSet<>();
    for (var v : vectors) {
      flagCombos.add(v.frame().length >= 16 ? v.frame()[2] & 0xFF : -1);
    }
    for (int format = 0; format <= 4; format++) {
      for (int split : new int[] {0, BloscHeader.FLAG_DONT_SPLIT}) {
        for (int shuffle : new int[] {0, 1, 4}) {
          int flags = format << 5 | split | shuffle;
          if (format == 4 && split == 0) {
            continue; // libblosc never splits zstd
          }
          assertTrue(flagCombos.contains(flags), "no vector with flags 0x" + Integer.toHexString(flags));
        }
      }
      assertTrue(flagCombos.contains(format << 5 | BloscHeader.FLAG_MEMCPYED | BloscHeader.FLAG_DONT_SPLIT)
          || flagCombos.contains(format << 5 | BloscHeader.FLAG_MEMCPYED), "no stored frame");
    }
  }

  @TestFactory
  Stream<DynamicTest> decodesEveryLibbloscFrame() {
    return BloscVectors.all().stream()
        .map(
            v ->
                DynamicTest.dynamicTest(
                    v.toString(),
                    () -> {
                      BloscCodec codec = v.codec();
                      assertArrayEquals(v.raw(), codec.decode(v.frame(), v.raw().length));
                      assertArrayEquals(v.raw(), codec.decode(v.frame(), -1));
                    }));
  }

  /**
   * Our encoder makes libblosc's choices: same header except the stored flag (our compressors
   * differ, so one may give up where the other does not), and identical bytes when both store.
   */
  @TestFactory
  Stream<DynamicTest> encodesWithLibbloscHeaderAndRoundTrips() {
    return BloscVectors.all().stream()
        .map(
            v ->
                DynamicTest.dynamicTest(
                    v.toString(),
                    () -> {
                      BloscCodec codec = v.codec();
                      byte[] ours = codec.encode(v.raw(), v.typeSize());
                      assertArrayEquals(v.raw(), codec.decode(ours, v.raw().length));
                      byte[] theirs = v.frame();
                      int stored = BloscHeader.FLAG_MEMCPYED;
                      assertEquals(theirs[0], ours[0], "version");
                      assertEquals(theirs[1], ours[1], "versionlz");
                      assertEquals(theirs[2] & ~stored, ours[2] & ~stored, "flags");
                      assertEquals(theirs[3], ours[3], "typesize");
                      assertEquals(
                          LittleEndian.readInt(theirs, 4), LittleEndian.readInt(ours, 4), "nbytes");
                      assertEquals(
                          LittleEndian.readInt(theirs, 8),
                          LittleEndian.readInt(ours, 8),
                          "blocksize");
                      if ((theirs[2] & stored) != 0 && (ours[2] & stored) != 0) {
                        assertArrayEquals(theirs, ours);
                      }
                    }));
  }
}
