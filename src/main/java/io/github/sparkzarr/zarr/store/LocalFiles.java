package io.github.sparkzarr.zarr.store;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * Reads and writes the files of a store on Hadoop's raw local file system through java.nio.
 *
 * <p>Why: Hadoop's local streams cost more than the bytes of a small chunk. Its {@code create}
 * starts a {@code chmod} process for every file unless Hadoop's native library is loaded (about
 * 10 ms a chunk, most of a write of many small chunks), and its {@code open} stats the file
 * several times before opening it. java.nio also tells a missing file ({@link NoSuchFileException})
 * from one that cannot be read, where Hadoop's local open answers {@code FileNotFoundException}
 * for a refused permission too. A directory in place of a file reads as absent, as in
 * zarr-python's DirectoryStore. Hadoop's {@code mkdirs} starts a {@code chmod} process per
 * directory too, and its recursive listing an {@code ls} process per file to learn its
 * permissions; a listing here reads only the directories.
 *
 * <p>Bytes and operations are still counted in Hadoop's statistics for the file scheme, which
 * Spark reports as a task's input and output sizes.
 */
final class LocalFiles {
  private static final java.util.Set<StandardOpenOption> CREATE_OR_REPLACE = java.util.EnumSet.of(
      StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
  private final RawLocalFileSystem fs;
  private final FileSystem.Statistics statistics;

  private LocalFiles(RawLocalFileSystem fs) {
    this.fs = fs;
    this.statistics = statisticsOf(fs);
  }

  /** For Hadoop's raw local file system itself (not a subclass or another file system), or null. */
  static LocalFiles of(FileSystem fs) {
    return fs.getClass() == RawLocalFileSystem.class ? new LocalFiles((RawLocalFileSystem) fs) : null;
  }

  @SuppressWarnings("deprecation")
  private static FileSystem.Statistics statisticsOf(FileSystem fs) {
    // The object the file system counts in itself (FileSystem.initialize takes it the same way).
    return FileSystem.getStatistics(fs.getUri().getScheme(), fs.getClass());
  }

  private java.nio.file.Path file(Path p) {
    return fs.pathToFile(p).toPath();
  }

  /** As {@link HadoopStore#read}: false when there is no such file. */
  boolean read(Path p, int maxBytes, ReadBuffer into) throws IOException {
    java.nio.file.Path f = file(p);
    try (InputStream in = AlignedFileReads.stream(FileChannel.open(f, StandardOpenOption.READ))) {
      // The stream tells the bytes left (available()): the buffer is sized once.
      HadoopStore.readToEnd(in, maxBytes, into);
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      rethrowUnlessDirectory(f, e);
      return false;
    }
    counted(into.length());
    return true;
  }

  /** As {@link HadoopStore#getRange}: empty when there is no such file. */
  Optional<byte[]> readRange(Path p, long offset, int length) throws IOException {
    byte[] out = new byte[length];
    java.nio.file.Path f = file(p);
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
      for (int done = 0; done < length; ) {
        int n = AlignedFileReads.read(ch, offset + done, out, done, length - done);
        if (n < 0) {
          throw new EOFException("range " + offset + "+" + length + " reaches past the end of "
              + p.toUri());
        }
        done += n;
      }
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      rethrowUnlessDirectory(f, e);
      return Optional.empty();
    }
    counted(length);
    return Optional.of(out);
  }

  /**
   * The paths of all files below {@code base}, or of {@code base} itself if it is a file; none if it
   * does not exist. Symbolic links are followed, as Hadoop's listing does.
   */
  List<String> listFiles(Path base) throws IOException {
    try (Stream<java.nio.file.Path> files = Files.walk(file(base), FileVisitOption.FOLLOW_LINKS)) {
      return files.filter(Files::isRegularFile).map(java.nio.file.Path::toString).toList();
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Makes a directory and its missing parents. */
  void makeDirectories(Path dir) throws IOException {
    Files.createDirectories(file(dir));
  }

  /** Writes the whole file, replacing one that exists, and creates its directories. */
  void write(Path p, byte[] value) throws IOException {
    java.nio.file.Path f = file(p);
    FileChannel ch;
    try {
      ch = FileChannel.open(f, CREATE_OR_REPLACE);
    } catch (NoSuchFileException noParent) {
      // Directories are made only when missing: most chunks go where others already went.
      Files.createDirectories(f.getParent());
      ch = FileChannel.open(f, CREATE_OR_REPLACE);
    }
    try (var out = Channels.newOutputStream(ch)) {
      out.write(value);
    }
    statistics.incrementBytesWritten(value.length);
    statistics.incrementWriteOps(1);
  }

  /** A directory in place of a file reads as absent (it opens, then fails to read); else rethrows. */
  private static void rethrowUnlessDirectory(java.nio.file.Path f, IOException e) throws IOException {
    if (!Files.isDirectory(f)) {
      throw e;
    }
  }

  private void counted(long bytes) {
    statistics.incrementBytesRead(bytes);
    statistics.incrementReadOps(1);
  }
}
