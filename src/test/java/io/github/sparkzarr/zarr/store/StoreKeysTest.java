package io.github.sparkzarr.zarr.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreKeysTest {

  @Test
  void rejectsEscapingKeys() {
    for (String k : new String[] {"/abs", "a/../b", "..", "a//b", "./a", "a\\b", "a\u0000b"}) {
      assertThrows(IllegalArgumentException.class, () -> StoreKeys.validate(k), k);
    }
    assertEquals("a/b/.zarray", StoreKeys.validate("a/b/.zarray"));
  }

  @Test
  void normalizesPathsAsTheV2SpecSays() {
    assertEquals("a/b", StoreKeys.normalizePath("/a//b/"));
    assertEquals("a/b", StoreKeys.normalizePath("a\\b"));
    assertEquals("", StoreKeys.normalizePath("/"));
    assertThrows(IllegalArgumentException.class, () -> StoreKeys.normalizePath("a/./b"));
    assertThrows(IllegalArgumentException.class, () -> StoreKeys.normalizePath("a/../b"));
  }

  @Test
  void hadoopStoreKeepsAbsentAndFailedApart(@TempDir Path dir) throws Exception {
    try (HadoopStore store = new HadoopStore(dir.toUri().toString(), new Configuration())) {
      assertTrue(store.get("a/0.0").isEmpty());
      store.set("a/0.0", new byte[] {1, 2, 3});
      assertEquals(3, store.get("a/0.0").orElseThrow().length);
      assertEquals(2, store.getRange("a/0.0", 1, 2).orElseThrow()[0]);
      assertEquals(List.of("a/"), store.listDir(""));
      assertEquals(List.of("a/0.0"), store.list(""));
      // A directory where a chunk file should be reads as absent, as in zarr-python's DirectoryStore.
      Files.createDirectories(dir.resolve("b/0.0"));
      assertTrue(store.get("b/0.0").isEmpty());
      assertFalse(store.exists("b/0.0"));
      store.deletePrefix("a/");
      assertTrue(store.get("a/0.0").isEmpty());
    }
  }

  /** A local file system whose reads fail, as a broken network store would. */
  public static class FailingFileSystem extends org.apache.hadoop.fs.RawLocalFileSystem {
    @Override
    public org.apache.hadoop.fs.FSDataInputStream open(org.apache.hadoop.fs.Path f, int bufferSize)
        throws java.io.IOException {
      throw new java.io.IOException("simulated read failure");
    }
  }

  @Test
  void anIoFailureIsNeverAMissingKey(@TempDir Path dir) throws Exception {
    Configuration conf = new Configuration();
    conf.set("fs.file.impl", FailingFileSystem.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    try (HadoopStore store = new HadoopStore(dir.toUri().toString(), conf)) {
      Files.write(dir.resolve("0.0"), new byte[] {1});
      java.io.IOException e = assertThrows(java.io.IOException.class, () -> store.get("0.0"));
      assertTrue(e.getMessage().contains("simulated"));
      assertThrows(java.io.IOException.class, () -> store.get("absent-too"));
    }
  }

  @Test
  void locationsHideCredentials() throws Exception {
    assertEquals("s3a://bucket/x",
        HadoopStore.withoutUserInfo(new java.net.URI("s3a://AKIA:secret@bucket/x")));
  }
}
