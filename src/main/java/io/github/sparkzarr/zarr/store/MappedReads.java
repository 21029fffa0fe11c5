package io.github.sparkzarr.zarr.store;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Copies a local file into a byte array through a memory mapping, unmapped right after.
 *
 * <p>Why: a read() call costs more than the bytes it copies here. Reading the suite's 556 MiB of
 * blosc chunk files (1 MiB each, in the page cache) through {@code read} took 0.36–0.39 s of CPU,
 * into a direct buffer as much; mapping each file and copying it into the array took 0.11 s
 * (/tmp micro-benchmark, session 13). The array is what the decoders read, so nothing else changes.
 *
 * <p>Each mapping is released as soon as it is copied ({@code Unsafe.invokeCleaner}): left to the
 * garbage collector, a scan of many chunks would pile up mappings up to the kernel's limit on a
 * process's mappings ({@code vm.max_map_count}, 65,530 by default). Where the JVM does not offer
 * that call, files are read as before.
 */
final class MappedReads {
  /** Smaller files are read with read(): a mapping's own calls cost more than copying them. */
  static final long MIN_SIZE = 64 << 10;
  private static final Object UNSAFE;
  private static final Method INVOKE_CLEANER;

  static {
    Object unsafe = null;
    Method cleaner = null;
    try {
      Class<?> c = Class.forName("sun.misc.Unsafe");
      Field f = c.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      unsafe = f.get(null);
      cleaner = c.getMethod("invokeCleaner", ByteBuffer.class);
    } catch (ReflectiveOperationException | RuntimeException e) {
      unsafe = null;
      cleaner = null;
    }
    UNSAFE = unsafe;
    INVOKE_CLEANER = cleaner;
  }

  private MappedReads() {}

  /** Whether a file of {@code size} bytes is read through a mapping. */
  static boolean suits(long size) {
    return INVOKE_CLEANER != null && size >= MIN_SIZE && size <= Integer.MAX_VALUE - 8;
  }

  /**
   * Copies {@code size} bytes of {@code ch} from {@code offset} into {@code into[0, size)}.
   *
   * @throws IOException if the file is shorter than that now (cut while it was read)
   */
  static void copy(FileChannel ch, long offset, int size, byte[] into) throws IOException {
    MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, offset, size);
    try {
      map.get(0, into, 0, size);
    } catch (InternalError e) {
      // The JVM's answer to touching a mapped page past the file's end (SIGBUS).
      throw new IOException("the file was cut short while it was read", e);
    } finally {
      unmap(map);
    }
  }

  private static void unmap(MappedByteBuffer map) throws IOException {
    try {
      INVOKE_CLEANER.invoke(UNSAFE, map);
    } catch (ReflectiveOperationException e) {
      throw new IOException("could not release a file mapping", e);
    }
  }
}
