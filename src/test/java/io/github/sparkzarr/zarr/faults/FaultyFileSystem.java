package io.github.sparkzarr.zarr.faults;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.apache.spark.TaskContext;

/**
 * The local file system under the scheme "faulty:", which breaks writes as a dying task or
 * driver would. Faults are set in the Hadoop configuration (write options {@code fs.faulty.*}),
 * so they travel with the job to its tasks:
 *
 * <ul>
 *   <li>{@value #FAIL_WRITE} (a path suffix) and {@value #FAIL_WRITE_ATTEMPTS} (n): in task
 *       attempts numbered below n, creating a file whose path ends with the suffix writes half of
 *       the bytes, then fails;
 *   <li>{@value #FAIL_TASK_DELETE} (n): in task attempts numbered below n, delete fails, so an
 *       aborted task leaves its staged files behind, as a killed executor would;
 *   <li>{@value #FAIL_PUBLISH} (n): on the driver, the n-th rename into the target (a path
 *       outside any staging directory) fails, counted per file system instance;
 *   <li>{@value #FAIL_MOVE_ASIDE} (n): on the driver, the n-th rename from the target into a
 *       staging directory fails.
 * </ul>
 *
 * Tests can also watch every driver rename before it happens ({@link #beforeDriverRename}).
 * "Driver" is any thread outside a Spark task.
 */
public final class FaultyFileSystem extends SchemedLocalFileSystem {
  public static final String SCHEME = "faulty";
  public static final String FAIL_WRITE = "fs.faulty.fail-write";
  public static final String FAIL_WRITE_ATTEMPTS = "fs.faulty.fail-write-attempts";
  public static final String FAIL_TASK_DELETE = "fs.faulty.fail-task-delete";
  public static final String FAIL_PUBLISH = "fs.faulty.fail-publish";
  public static final String FAIL_MOVE_ASIDE = "fs.faulty.fail-move-aside";
  private static final String STAGING = ".spark-zarr-staging-";

  private static volatile BiConsumer<Path, Path> renameWatcher;
  private static final List<String> DRIVER_RENAMES = new ArrayList<>();
  private static final AtomicInteger INJECTED = new AtomicInteger();
  private static volatile String lastFault;

  private final AtomicInteger publishes = new AtomicInteger();
  private final AtomicInteger movesAside = new AtomicInteger();

  /** The options that map "faulty:" to this class, as key, value pairs. */
  public static String[] options() {
    return new String[] {"fs." + SCHEME + ".impl", FaultyFileSystem.class.getName(),
        "fs." + SCHEME + ".impl.disable.cache", "true"};
  }

  /** The "faulty:" URI of a local directory. */
  public static String uri(java.nio.file.Path dir) {
    return SCHEME + "://" + dir.toAbsolutePath().toUri().getPath();
  }

  /** Calls {@code watcher} with (from, to) before each rename outside a task; null stops. */
  public static void beforeDriverRename(BiConsumer<Path, Path> watcher) {
    renameWatcher = watcher;
  }

  /** "from -> to" (local paths) of every rename outside a task since the last reset. */
  public static synchronized List<String> driverRenames() {
    return new ArrayList<>(DRIVER_RENAMES);
  }

  /** How many faults were injected since the last reset (tasks run in this JVM in local mode). */
  public static int injectedFaults() {
    return INJECTED.get();
  }

  /** The message of the last fault injected, or null. */
  public static String lastFault() {
    return lastFault;
  }

  public static synchronized void reset() {
    DRIVER_RENAMES.clear();
    INJECTED.set(0);
    lastFault = null;
    renameWatcher = null;
  }

  public FaultyFileSystem() {
    super(SCHEME);
  }

  /**
   * Statuses without the local file system's lazily loaded permissions, which refuse a scheme
   * other than "file:" (listFiles reads them).
   */
  @Override
  public FileStatus[] listStatus(Path f) throws IOException {
    FileStatus[] statuses = super.listStatus(f);
    for (int i = 0; i < statuses.length; i++) {
      statuses[i] = plain(statuses[i]);
    }
    return statuses;
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    return plain(super.getFileStatus(f));
  }

  private static FileStatus plain(FileStatus s) {
    return new FileStatus(s.getLen(), s.isDirectory(), s.getReplication(), s.getBlockSize(),
        s.getModificationTime(), s.getPath());
  }

  private static IOException injected(String message) {
    INJECTED.incrementAndGet();
    lastFault = message;
    return new IOException(message);
  }

  /** The attempt number of the running task, or -1 outside tasks (the driver). */
  private static int attempt() {
    TaskContext task = TaskContext.get();
    return task == null ? -1 : task.attemptNumber();
  }

  private boolean inFailingAttempt(String countKey) {
    int a = attempt();
    return a >= 0 && a < getConf().getInt(countKey, 0);
  }

  @Override
  public FSDataOutputStream create(Path f, boolean overwrite, int bufferSize, short replication,
      long blockSize, Progressable progress) throws IOException {
    return maybeHalf(f, super.create(f, overwrite, bufferSize, replication, blockSize, progress));
  }

  @Override
  public FSDataOutputStream create(Path f, FsPermission permission, boolean overwrite, int bufferSize,
      short replication, long blockSize, Progressable progress) throws IOException {
    return maybeHalf(f, super.create(f, permission, overwrite, bufferSize, replication, blockSize,
        progress));
  }

  private FSDataOutputStream maybeHalf(Path f, FSDataOutputStream out) throws IOException {
    String suffix = getConf().get(FAIL_WRITE);
    if (suffix == null || !f.toUri().getPath().endsWith(suffix) || !inFailingAttempt(FAIL_WRITE_ATTEMPTS)) {
      return out;
    }
    return new FSDataOutputStream(new HalfWrite(out, f.toUri().getPath(), attempt()), null);
  }

  /** Writes half of what it is given, then fails, as a task killed mid-write. */
  private static final class HalfWrite extends OutputStream {
    private final OutputStream out;
    private final String path;
    private final int attempt;

    HalfWrite(OutputStream out, String path, int attempt) {
      this.out = out;
      this.path = path;
      this.attempt = attempt;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len / 2);
      out.flush();
      throw injected("injected fault: task attempt " + attempt + " died writing " + path
          + " after " + len / 2 + " of " + len + " bytes");
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }

  @Override
  public boolean delete(Path p, boolean recursive) throws IOException {
    if (inFailingAttempt(FAIL_TASK_DELETE)) {
      throw injected("injected fault: task attempt " + attempt() + " died before deleting " + p);
    }
    return super.delete(p, recursive);
  }

  @Override
  public boolean rename(Path src, Path dst) throws IOException {
    if (attempt() < 0) {
      synchronized (FaultyFileSystem.class) {
        DRIVER_RENAMES.add(src.toUri().getPath() + " -> " + dst.toUri().getPath());
      }
      BiConsumer<Path, Path> watcher = renameWatcher;
      if (watcher != null) {
        watcher.accept(src, dst);
      }
      boolean intoStaging = dst.toUri().getPath().contains(STAGING);
      boolean fromStaging = src.toUri().getPath().contains(STAGING);
      if (!intoStaging && publishes.incrementAndGet() == getConf().getInt(FAIL_PUBLISH, 0)) {
        throw injected("injected fault: the driver died publishing " + dst.toUri().getPath());
      }
      if (intoStaging && !fromStaging
          && movesAside.incrementAndGet() == getConf().getInt(FAIL_MOVE_ASIDE, 0)) {
        throw injected("injected fault: the driver died moving aside " + src.toUri().getPath());
      }
    }
    return super.rename(src, dst);
  }
}
