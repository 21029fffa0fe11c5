package io.github.sparkzarr.spark.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Everything below a local directory: each file's relative path with the SHA-256 of its bytes,
 * and each directory; null fields when the directory does not exist. Two snapshots are equal
 * when the trees are byte for byte the same.
 */
record StoreSnapshot(Map<String, String> files, Set<String> dirs) {

  static StoreSnapshot of(Path root) {
    if (!Files.exists(root)) {
      return new StoreSnapshot(null, null);
    }
    Map<String, String> files = new TreeMap<>();
    Set<String> dirs = new TreeSet<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        String rel = root.relativize(p).toString();
        if (Files.isDirectory(p)) {
          dirs.add(rel);
        } else {
          files.put(rel, sha256(Files.readAllBytes(p)));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new StoreSnapshot(files, dirs);
  }

  boolean exists() {
    return files != null;
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether any staging directory (a hidden sibling named .<name>.spark-zarr-staging-*) is below {@code dir}. */
  static boolean stagingBelow(Path dir) {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.anyMatch(p -> p.getFileName().toString().contains(WritePlanner.STAGING_MARKER));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
