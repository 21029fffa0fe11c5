package io.github.sparkzarr.zarr.faults;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.Path;

/**
 * The local file system under the scheme "flaky:", whose open() fails for chosen files: a set
 * number of times (a transient fault) or always. Faults are global to the JVM so Spark tasks in
 * local mode see them; tests reset them.
 */
public final class FlakyFileSystem extends SchemedLocalFileSystem {
  public static final String SCHEME = "flaky";
  /** Path suffix -> failures left (negative: fail forever). */
  private static final Map<String, AtomicInteger> FAULTS = new ConcurrentHashMap<>();
  /** Path suffix -> opens attempted. */
  private static final Map<String, AtomicInteger> OPENS = new ConcurrentHashMap<>();

  /** A configuration that maps "flaky:" to this class. */
  public static Configuration configure(Configuration conf) {
    conf.set("fs." + SCHEME + ".impl", FlakyFileSystem.class.getName());
    conf.setBoolean("fs." + SCHEME + ".impl.disable.cache", true);
    conf.setLong("fs.zarr.read.backoff.ms", 1);
    return conf;
  }

  /** Files whose path ends with {@code suffix} fail to open {@code times} times (-1: always). */
  public static void failOpen(String suffix, int times) {
    FAULTS.put(suffix, new AtomicInteger(times));
    OPENS.put(suffix, new AtomicInteger());
  }

  public static int opens(String suffix) {
    return OPENS.get(suffix).get();
  }

  public static void reset() {
    FAULTS.clear();
    OPENS.clear();
  }

  public FlakyFileSystem() {
    super(SCHEME);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    String path = f.toUri().getPath();
    for (Map.Entry<String, AtomicInteger> fault : FAULTS.entrySet()) {
      if (path.endsWith(fault.getKey())) {
        OPENS.get(fault.getKey()).incrementAndGet();
        if (fault.getValue().getAndUpdate(left -> left > 0 ? left - 1 : left) != 0) {
          throw new IOException("injected fault: connection reset reading " + path);
        }
      }
    }
    return super.open(f, bufferSize);
  }
}
