package io.github.sparkzarr.zarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 999, 1000, 1001, 5000, -1})
  void readsEveryByteWhateverAvailableSays(int claimed) throws IOException {
    byte[] data = bytes(1000);
    assertArrayEquals(data, HadoopStore.readToEnd(claiming(data, claimed), Integer.MAX_VALUE - 8));
  }

  @Test
  void readsNoMoreThanOnePastTheLimit() throws IOException {
    byte[] data = bytes(1000);
    assertEquals(101, HadoopStore.readToEnd(claiming(data, 50), 100).length);
    assertEquals(101, HadoopStore.readToEnd(claiming(data, 1000), 100).length);
    assertEquals(1000, HadoopStore.readToEnd(claiming(data, 1000), 1000).length);
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
}
