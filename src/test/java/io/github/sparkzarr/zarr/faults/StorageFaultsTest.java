package io.github.sparkzarr.zarr.faults;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** I/O errors during a read are retried a bounded number of times, then fail: never fill values. */
class StorageFaultsTest {
  @TempDir Path dir;

  @AfterEach
  void clearFaults() {
    FlakyFileSystem.reset();
  }

  private static Configuration conf(int attempts) {
    Configuration conf = FlakyFileSystem.configure(new Configuration());
    conf.setInt("fs.zarr.read.attempts", attempts);
    return conf;
  }

  @Test
  void aChunkThatCannotBeReadFailsTheReadNamingStoreAndKey() throws IOException {
    try (HadoopStore store = new HadoopStore(FaultFixtures.writeArray(dir), conf(3))) {
      ZarrArray a = ZarrArray.open(store, "");
      FlakyFileSystem.failOpen("/1", -1);
      ZarrException e = assertThrows(ZarrException.class, a::readAll);
      assertTrue(e.getMessage().contains(store.location()) && e.getMessage().contains("key '1'")
          && e.getMessage().contains("injected fault"), e.getMessage());
      assertEquals(3, FlakyFileSystem.opens("/1"), "three attempts, then the error");
      assertThrows(ZarrException.class, () -> a.readChunkIfPresent(new long[] {1}));
    }
  }

  @Test
  void aTransientFaultIsRetriedAndTheDataIsExact() throws IOException {
    try (HadoopStore store = new HadoopStore(FaultFixtures.writeArray(dir), conf(3))) {
      ZarrArray a = ZarrArray.open(store, "");
      FlakyFileSystem.failOpen("/1", 2);
      assertArrayEquals(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, FaultFixtures.ints(a.readAll().bytes()));
      assertEquals(3, FlakyFileSystem.opens("/1"));
    }
  }

  @Test
  void withRetriesOffOneFaultFails() throws IOException {
    try (HadoopStore store = new HadoopStore(FaultFixtures.writeArray(dir), conf(1))) {
      ZarrArray a = ZarrArray.open(store, "");
      FlakyFileSystem.failOpen("/0", 1);
      assertThrows(ZarrException.class, a::readAll);
      assertEquals(1, FlakyFileSystem.opens("/0"));
    }
  }

  @Test
  void aMissingChunkIsNotRetriedAndReadsAsFill() throws IOException {
    String uri = FaultFixtures.writeArray(dir);
    Files.delete(dir.resolve("1"));
    try (HadoopStore store = new HadoopStore(uri, conf(3))) {
      ZarrArray a = ZarrArray.open(store, "");
      FlakyFileSystem.failOpen("/0", 0); // counts opens, injects nothing
      assertArrayEquals(new int[] {0, 1, 2, 3, -1, -1, -1, -1}, FaultFixtures.ints(a.readAll().bytes()));
      assertEquals(1, FlakyFileSystem.opens("/0"));
    }
  }

  @Test
  void failingMetadataFailsTheOpen() throws IOException {
    try (HadoopStore store = new HadoopStore(FaultFixtures.writeArray(dir), conf(2))) {
      FlakyFileSystem.failOpen("/.zarray", -1);
      ZarrException e = assertThrows(ZarrException.class, () -> ZarrArray.open(store, ""));
      assertTrue(e.getMessage().contains("key '.zarray'"), e.getMessage());
    }
  }

  /** A partial shard read uses ranged reads (index, then inner chunks): a fault there fails too. */
  @Test
  void aFailingRangedShardReadFails() throws IOException {
    Path sharded = Path.of("src/test/resources/corpus/v3-sharded/arrays/int32_blosc_lz4_end");
    try (HadoopStore store = new HadoopStore(FaultFixtures.flaky(sharded), conf(2))) {
      ZarrArray a = ZarrArray.open(store, "");
      FlakyFileSystem.failOpen("/c/0/0", -1);
      ZarrException e = assertThrows(ZarrException.class,
          () -> a.read(new long[] {0, 0}, new int[] {4, 5}));
      assertTrue(e.getMessage().contains("key 'c/0/0'"), e.getMessage());
      assertEquals(2, FlakyFileSystem.opens("/c/0/0"));
    }
  }
}
