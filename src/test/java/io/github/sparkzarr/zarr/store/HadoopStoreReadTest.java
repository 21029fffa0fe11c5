package io.github.sparkzarr.zarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.ZarrException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Whole-value reads: exact bytes whatever a stream's available() claims, and the size limit. */
class HadoopStoreReadTest {
  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    new Random(n).nextBytes(b);
    return b;
  }

  /** A stream whose available() says {@code claimed}, right or wrong. */
  private static InputStream claiming(byte[] data, int claimed) {
    return new ByteArrayInputStream(data) {
      @Override
      public synchronized int available() {
        return claimed;
      }
    };
  }

  private static byte[] readToEnd(InputStream in, int maxBytes) throws IOException {
    ReadBuffer value = new ReadBuffer();
    HadoopStore.readToEnd(in, maxBytes, value);
    return value.toArray();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 999, 1000, 1001, 5000, -1})
  void readsEveryByteWhateverAvailableSays(int claimed) throws IOException {
    byte[] data = bytes(1000);
    assertArrayEquals(data, readToEnd(claiming(data, claimed), Integer.MAX_VALUE - 8));
  }

  /**
   * Values over one read piece come whole, and no read asks for more than a piece, whatever each
   * read returns (streams may return less than asked).
   */
  @ParameterizedTest
  @ValueSource(ints = {1 << 20, (1 << 20) + 1, 3 * (1 << 20) + 7})
  void readsLargeValuesInPieces(int size) throws IOException {
    byte[] data = bytes(size);
    int[] largest = new int[1];
    InputStream shortReads = new ByteArrayInputStream(data) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        largest[0] = Math.max(largest[0], len);
        return super.read(b, off, Math.min(len, 300_000));
      }
    };
    assertArrayEquals(data, readToEnd(shortReads, Integer.MAX_VALUE - 8));
    assertTrue(largest[0] <= HadoopStore.READ_PIECE, "asked for " + largest[0]);
  }

  @Test
  void readsNoMoreThanOnePastTheLimit() throws IOException {
    byte[] data = bytes(1000);
    assertEquals(101, readToEnd(claiming(data, 50), 100).length);
    assertEquals(101, readToEnd(claiming(data, 1000), 100).length);
    assertEquals(1000, readToEnd(claiming(data, 1000), 1000).length);
  }

  /** One buffer through values of growing and shrinking sizes, each claim right or wrong. */
  @Test
  void aReusedBufferHoldsExactlyTheLastValue() throws IOException {
    ReadBuffer buffer = new ReadBuffer();
    int[][] sizesAndClaims = {{1000, 1000}, {10, 10}, {2000, 1500}, {300, 5000}, {700, 0}, {50, 49}};
    for (int[] c : sizesAndClaims) {
      byte[] data = bytes(c[0]);
      HadoopStore.readToEnd(claiming(data, c[1]), Integer.MAX_VALUE - 8, buffer);
      assertEquals(data.length, buffer.length(), "size " + c[0] + " claimed " + c[1]);
      assertArrayEquals(data, java.util.Arrays.copyOf(buffer.array(), buffer.length()));
      assertArrayEquals(data, buffer.toArray());
    }
  }

  @Test
  void storeReadsIntoOneArrayOnceItIsLargeEnough(@TempDir Path dir) throws IOException {
    byte[] big = bytes(3 << 20);
    byte[] small = bytes(1 << 20);
    Files.write(dir.resolve("big"), big);
    Files.write(dir.resolve("small"), small);
    HadoopStore store = new HadoopStore(dir.toUri().toString(), new Configuration());
    ReadBuffer buffer = new ReadBuffer();
    assertTrue(store.read("big", big.length, buffer));
    byte[] array = buffer.array();
    assertArrayEquals(big, buffer.toArray());
    assertTrue(store.read("small", big.length, buffer));
    assertSame(array, buffer.array(), "the second read reuses the array");
    assertEquals(small.length, buffer.length());
    assertArrayEquals(small, buffer.toArray());
    assertFalse(store.read("absent", big.length, buffer));
    assertArrayEquals(small, buffer.toArray(), "a missing key leaves the buffer as it was");
    ZarrException e = assertThrows(ZarrException.class, () -> store.read("big", big.length - 1, buffer));
    assertTrue(e.getMessage().contains("big") && e.getMessage().contains(store.location()), e.getMessage());
  }

  /**
   * Local stores hold the Zarr files alone (no Hadoop .crc beside each), and a chunk another tool
   * rewrote afterwards (zarr-python appending, say) reads as it now is, not as a checksum error.
   */
  @Test
  void localStoresWriteNoChecksumFilesAndReadWhatOthersRewrote(@TempDir Path dir) throws IOException {
    HadoopStore store = new HadoopStore(dir.toUri().toString(), new Configuration());
    store.set("a/.zarray", bytes(20));
    store.set("a/0.0", bytes(100));
    try (var files = Files.walk(dir)) {
      assertEquals(java.util.List.of("a", "a/.zarray", "a/0.0"), files.filter(f -> !f.equals(dir))
          .map(f -> dir.relativize(f).toString()).sorted().toList());
    }
    byte[] rewritten = bytes(150);
    Files.write(dir.resolve("a/0.0"), rewritten);
    assertArrayEquals(rewritten, store.get("a/0.0").orElseThrow());
    // Checksum files that Hadoop (or this store before) wrote are no keys: listings leave them out.
    Files.write(dir.resolve("a/.0.0.crc"), bytes(12));
    Files.write(dir.resolve("a/..zarray.crc"), bytes(12));
    assertEquals(java.util.List.of(".zarray", "0.0"), store.listDir("a"));
    assertEquals(java.util.List.of("a/.zarray", "a/0.0"), store.list("").stream().sorted().toList());
  }

  @Test
  void storeReadsLocalFilesExactlyAndRefusesOversizedOnes(@TempDir Path dir) throws IOException {
    byte[] data = bytes(3 << 20);
    Files.write(dir.resolve("c"), data);
    Files.write(dir.resolve("empty"), new byte[0]);
    HadoopStore store = new HadoopStore(dir.toUri().toString(), new Configuration());
    assertArrayEquals(data, store.get("c").orElseThrow());
    assertArrayEquals(data, store.get("c", data.length).orElseThrow());
    assertEquals(0, store.get("empty").orElseThrow().length);
    assertTrue(store.get("absent").isEmpty());
    ZarrException e = assertThrows(ZarrException.class, () -> store.get("c", data.length - 1));
    assertTrue(e.getMessage().contains("c"), e.getMessage());
  }

  /** A store that fails at once instead of retrying, so errors are quick to check. */
  private static HadoopStore noRetries(Path dir) throws IOException {
    Configuration conf = new Configuration();
    conf.setInt(ReadRetry.ATTEMPTS, 1);
    return new HadoopStore(dir.toUri().toString(), conf);
  }

  /**
   * Local paths (Hadoop opens them with its checksummed file system, unwrapped to the raw one) take
   * the java.nio path; a file system of another class (here a subclass of the raw one, as tests
   * use to inject faults) keeps Hadoop's streams.
   */
  @Test
  void onlyHadoopsOwnLocalFileSystemIsReadDirectly(@TempDir Path dir) throws IOException {
    assertTrue(noRetries(dir).readsLocalFilesDirectly());
    Configuration conf = new Configuration();
    conf.set("fs.file.impl", StoreKeysTest.FailingFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    assertFalse(new HadoopStore(dir.toUri().toString(), conf).readsLocalFilesDirectly());
  }

  /** As in zarr-python's DirectoryStore, a directory where a chunk file should be is absent. */
  @Test
  void aDirectoryInPlaceOfAChunkReadsAsAbsent(@TempDir Path dir) throws IOException {
    Files.createDirectories(dir.resolve("a/0.0"));
    HadoopStore store = noRetries(dir);
    assertTrue(store.get("a/0.0").isEmpty());
    assertTrue(store.getRange("a/0.0", 0, 4).isEmpty());
    assertFalse(store.read("a/0.0", 100, new ReadBuffer()));
  }

  @Test
  void localRangesReadExactlyAndRefuseToReachPastTheEnd(@TempDir Path dir) throws IOException {
    byte[] data = bytes(1000);
    Files.write(dir.resolve("s"), data);
    HadoopStore store = noRetries(dir);
    assertArrayEquals(java.util.Arrays.copyOfRange(data, 990, 1000), store.getRange("s", 990, 10).orElseThrow());
    assertArrayEquals(java.util.Arrays.copyOfRange(data, 0, 3), store.getRange("s", 0, 3).orElseThrow());
    assertTrue(store.getRange("absent", 0, 3).isEmpty());
    assertThrows(java.io.EOFException.class, () -> store.getRange("s", 995, 10));
  }

  /** Writes create the key's directories and replace a longer value whole. */
  @Test
  void localWritesCreateDirectoriesAndReplaceValues(@TempDir Path dir) throws IOException {
    HadoopStore store = noRetries(dir);
    store.set("g/v/c/0/0", bytes(500));
    store.set("g/v/c/0/0", bytes(7));
    assertArrayEquals(bytes(7), Files.readAllBytes(dir.resolve("g/v/c/0/0")));
  }

  /** Spark reports a task's input and output sizes from Hadoop's statistics; local files count. */
  @Test
  void localReadsAndWritesCountInHadoopStatistics(@TempDir Path dir) throws IOException {
    HadoopStore store = noRetries(dir);
    long read0 = threadStatistic(true);
    long written0 = threadStatistic(false);
    store.set("k", bytes(1234));
    store.get("k");
    store.getRange("k", 4, 10);
    assertEquals(1234, threadStatistic(false) - written0);
    assertEquals(1234 + 10, threadStatistic(true) - read0);
  }

  private static long threadStatistic(boolean read) {
    long sum = 0;
    for (org.apache.hadoop.fs.FileSystem.Statistics s : org.apache.hadoop.fs.FileSystem.getAllStatistics()) {
      sum += read ? s.getThreadStatistics().getBytesRead() : s.getThreadStatistics().getBytesWritten();
    }
    return sum;
  }
}
