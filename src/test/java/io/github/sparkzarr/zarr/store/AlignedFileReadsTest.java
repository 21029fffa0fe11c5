package io.github.sparkzarr.zarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Local reads through this thread's aligned buffer: every byte, at every offset and size. */
class AlignedFileReadsTest {
  private static final int PIECE = AlignedFileReads.PIECE;

  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    new Random(n).nextBytes(b);
    return b;
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 4095, 4097, PIECE - 1, PIECE, PIECE + 1, 3 * PIECE + 4099})
  void storeReadsEveryByteOfFilesOfAnySize(int size, @TempDir Path dir) throws IOException {
    byte[] data = bytes(size);
    Files.write(dir.resolve("c"), data);
    HadoopStore store = new HadoopStore(dir.toUri().toString(), new Configuration());
    ReadBuffer buffer = new ReadBuffer();
    assertTrue(store.read("c", Integer.MAX_VALUE - 8, buffer));
    assertArrayEquals(data, buffer.toArray());
    // The size limit still sees one byte past it.
    if (size > 0) {
      assertThrows(io.github.sparkzarr.zarr.ZarrException.class, () -> store.read("c", size - 1, buffer));
    }
  }

  /** Ranges that start anywhere in a page and span pieces, as inner chunks of a shard do. */
  @Test
  void rangesAtOddOffsetsReadExactly(@TempDir Path dir) throws IOException {
    byte[] data = bytes(3 * PIECE + 12345);
    Files.write(dir.resolve("shard"), data);
    HadoopStore store = new HadoopStore(dir.toUri().toString(), new Configuration());
    int[][] ranges = {{0, 1}, {1, 4095}, {4095, 2}, {4097, PIECE}, {PIECE - 3, PIECE + 7},
        {123, 2 * PIECE + 999}, {data.length - 5, 5}};
    for (int[] r : ranges) {
      assertArrayEquals(Arrays.copyOfRange(data, r[0], r[0] + r[1]),
          store.getRange("shard", r[0], r[1]).orElseThrow(), "range " + r[0] + "+" + r[1]);
    }
    assertThrows(EOFException.class, () -> store.getRange("shard", data.length - 5, 6));
  }

  /** The stream says how much is left, ends with -1, and reads no more than asked or than a piece. */
  @Test
  void streamTellsWhatIsLeftAndStopsAtTheEnd(@TempDir Path dir) throws IOException {
    byte[] data = bytes(PIECE + 10);
    Path f = dir.resolve("c");
    Files.write(f, data);
    try (InputStream in = AlignedFileReads.stream(FileChannel.open(f))) {
      assertEquals(data.length, in.available());
      byte[] got = new byte[data.length + 5];
      assertEquals(PIECE, in.read(got, 0, got.length), "at most one piece a call");
      assertEquals(10, in.available());
      int one = in.read();
      assertEquals(data[PIECE] & 0xff, one);
      got[PIECE] = (byte) one;
      assertEquals(9, in.read(got, PIECE + 1, 100));
      assertArrayEquals(data, Arrays.copyOf(got, data.length));
      assertEquals(0, in.available());
      assertEquals(-1, in.read(got, 0, 1));
      assertEquals(-1, in.read());
      assertEquals(0, in.read(got, 0, 0));
    }
  }

  /** Each thread reads through a buffer of its own: concurrent reads of different files stay apart. */
  @Test
  void threadsReadingAtOnceGetTheirOwnBytes(@TempDir Path dir) throws Exception {
    int files = 8;
    for (int i = 0; i < files; i++) {
      Files.write(dir.resolve("c" + i), bytes(PIECE * 2 + i * 1000 + 1));
    }
    HadoopStore store = new HadoopStore(dir.toUri().toString(), new Configuration());
    var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      var results = new java.util.ArrayList<java.util.concurrent.Future<Boolean>>();
      for (int t = 0; t < 4; t++) {
        results.add(pool.submit(() -> {
          ReadBuffer buffer = new ReadBuffer();
          for (int round = 0; round < 20; round++) {
            for (int i = 0; i < files; i++) {
              store.read("c" + i, Integer.MAX_VALUE - 8, buffer);
              if (!Arrays.equals(bytes(PIECE * 2 + i * 1000 + 1), buffer.toArray())) {
                return false;
              }
            }
          }
          return true;
        }));
      }
      for (var r : results) {
        assertTrue(r.get());
      }
    } finally {
      pool.shutdown();
    }
    assertFalse(store.read("absent", 10, new ReadBuffer()));
  }
}
