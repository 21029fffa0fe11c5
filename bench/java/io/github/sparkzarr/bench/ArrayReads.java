package io.github.sparkzarr.bench;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;

/**
 * What reading one small array costs a fresh JVM, read after read, as the driver reads a
 * coordinate once per query: {@code ArrayReads STORE ARRAY READS}. Prints the time of every
 * twentieth read and the total, so the first reads (class loading, interpreted code) show apart
 * from the compiled ones.
 */
public final class ArrayReads {
  public static void main(String[] args) throws Exception {
    int reads = Integer.parseInt(args[2]);
    try (HadoopStore store = new HadoopStore(args[0], new Configuration())) {
      ZarrArray array = ZarrArray.open(store, args[1]);
      long[] nanos = new long[reads];
      for (int i = 0; i < reads; i++) {
        long t0 = System.nanoTime();
        array.readAll();
        nanos[i] = System.nanoTime() - t0;
      }
      StringBuilder line = new StringBuilder("ms per read:");
      long total = 0;
      for (int i = 0; i < reads; i++) {
        total += nanos[i];
        if (i % Math.max(1, reads / 20) == 0) {
          line.append(String.format(Locale.ROOT, " #%d %.2f", i, nanos[i] / 1e6));
        }
      }
      System.out.println(line);
      System.out.printf(Locale.ROOT, "total %.1f ms for %d reads of %s%n", total / 1e6, reads, args[1]);
    }
  }
}
