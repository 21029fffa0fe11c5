package io.github.sparkzarr.bench;

import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.ReadBuffer;
import java.io.FileInputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;

/**
 * What reading every file of a local store costs one thread, three ways, in turns:
 * {@code StoreReads STORE_DIR [ROUNDS]}. "store" is {@link HadoopStore#read} (java.nio for local
 * files), "hadoop" opens each file through Hadoop's raw local file system as the store did before
 * session 7, "java.io" is a plain {@link FileInputStream} for scale (each file read whole in one
 * call, its size from available()). Prints wall and thread CPU.
 */
public final class StoreReads {
  /** -Dmodes=store,direct,...: which ways to read (all by default). */
  static final List<String> MODES = List.of(System.getProperty("modes",
      "store,hadoop,java.io,direct,direct-only,mmap-copy,mmap-touch").split(","));
  /** -Dthreads=N: files read by N threads at once, each every N-th file (1 by default). */
  static final int THREADS = Integer.getInteger("threads", 1);
  static final ThreadLocal<java.nio.ByteBuffer> DIRECT =
      ThreadLocal.withInitial(() -> java.nio.ByteBuffer.allocateDirect(64 << 20));
  static final sun.misc.Unsafe UNSAFE = unsafe();

  static sun.misc.Unsafe unsafe() {
    try {
      java.lang.reflect.Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  public static void main(String[] args) throws Exception {
    Path root = Path.of(args[0]).toAbsolutePath();
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    List<String> keys;
    try (var files = Files.walk(root)) {
      keys = files.filter(Files::isRegularFile).map(p -> root.relativize(p).toString()).toList();
    }
    HadoopStore store = new HadoopStore(root.toUri().toString(), new Configuration());
    FileSystem hadoop = store.fileSystem();
    ReadBuffer reused = new ReadBuffer();
    byte[] buf = new byte[64 << 20];
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (int r = 0; r < rounds; r++) {
      for (String mode : MODES) {
        long cpu0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        long bytes = 0;
        long cpu = 0;
        if (THREADS == 1) {
          for (String key : keys) {
            bytes += read(mode, key, store, hadoop, reused, buf, root);
          }
          cpu = threads.getCurrentThreadCpuTime() - cpu0;
        } else {
          // Each thread reads every THREADS-th file, with buffers of its own, as tasks do.
          var pool = java.util.concurrent.Executors.newFixedThreadPool(THREADS);
          var parts = new java.util.ArrayList<java.util.concurrent.Future<long[]>>();
          for (int t = 0; t < THREADS; t++) {
            int first = t;
            parts.add(pool.submit(() -> {
              long c0 = threads.getCurrentThreadCpuTime();
              ReadBuffer own = new ReadBuffer();
              byte[] ownBuf = new byte[64 << 20];
              long b = 0;
              for (int i = first; i < keys.size(); i += THREADS) {
                b += read(mode, keys.get(i), store, hadoop, own, ownBuf, root);
              }
              return new long[] {b, threads.getCurrentThreadCpuTime() - c0};
            }));
          }
          for (var f : parts) {
            long[] got = f.get();
            bytes += got[0];
            cpu += got[1];
          }
          pool.shutdown();
        }
        System.out.printf(Locale.ROOT, "[reads] %-8s %d files, %.0f MiB, %d threads: wall %.3f s, threads' CPU %.3f s%n",
            mode, keys.size(), bytes / 1048576.0, THREADS, (System.nanoTime() - t0) / 1e9, cpu / 1e9);
      }
    }
  }

  private static long read(String mode, String key, HadoopStore store, FileSystem hadoop,
      ReadBuffer reused, byte[] buf, Path root) throws IOException {
    if (mode.equals("store")) {
      return store.read(key, Integer.MAX_VALUE - 8, reused) ? reused.length() : 0;
    }
    if (mode.equals("hadoop")) {
      try (FSDataInputStream in = hadoop.open(new org.apache.hadoop.fs.Path(store.root(), key))) {
        return in.readNBytes(buf, 0, in.available());
      }
    }
    if (mode.equals("java.io")) {
      return readAll(root.resolve(key), buf);
    }
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(root.resolve(key))) {
      int size = (int) ch.size();
      if (mode.startsWith("direct")) {
        java.nio.ByteBuffer direct = DIRECT.get();
        direct.clear().limit(size);
        while (direct.hasRemaining() && ch.read(direct) >= 0) {
        }
        direct.flip();
        if (mode.equals("direct")) {
          direct.get(buf, 0, size);
        }
        return size;
      }
      java.nio.MappedByteBuffer map = ch.map(java.nio.channels.FileChannel.MapMode.READ_ONLY, 0, size);
      try {
        if (mode.equals("mmap-copy")) {
          map.get(buf, 0, size);
        } else {
          long sum = 0;
          for (int i = 0; i < size; i += 4096) {
            sum += map.get(i);
          }
          if (sum == 42) {
            System.out.print("");
          }
        }
      } finally {
        UNSAFE.invokeCleaner(map);
      }
      return size;
    }
  }

  private static int readAll(Path file, byte[] buf) throws IOException {
    try (FileInputStream in = new FileInputStream(file.toFile())) {
      return in.readNBytes(buf, 0, in.available());
    }
  }
}
