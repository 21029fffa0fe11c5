package io.github.sparkzarr.bench;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Executor memory of a scan: run by bench/run.sh and bench/store.sh in its own JVM with a small
 * -Xmx (less than the decoded store), it sums a whole variable (VAR of a group, else the last
 * column: the suite's {@code value}, an array's values) in local[2] and records the live heap
 * after every garbage collection. The peak live heap during the scan, minus the live heap of the idle
 * session, bounds what the two running tasks hold; a reader that buffered a partition or the
 * array would fail here with OutOfMemoryError.
 *
 * <p>Usage: {@code HeapProbe STORE OUT.properties [VAR]}
 */
public final class HeapProbe {
  public static void main(String[] args) throws Exception {
    String store = args[0];
    Path out = Path.of(args[1]);
    java.util.Map<String, String> options = new java.util.HashMap<>();
    options.put("path", store);
    if (args.length > 2) {
      options.put("variables", args[2]);
    }
    SparkSession spark = SparkSession.builder()
        .master("local[2]")
        .appName("spark-zarr heap probe")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    AtomicLong peakAfterGc = new AtomicLong();
    try {
      var df = spark.read().format("zarr").options(options).load();
      String sum = "sum(`" + df.columns()[df.columns().length - 1] + "`)";
      // Warm: the same query once, so classes and codegen are loaded before the baseline.
      df.selectExpr(sum).collectAsList();
      long idle = liveHeap();
      listenToCollections(peakAfterGc);
      Row r = df.selectExpr(sum).collectAsList().get(0);
      long peak = Math.max(peakAfterGc.get(), liveHeap());
      long maxHeap = Runtime.getRuntime().maxMemory();
      java.util.Properties props = new java.util.Properties();
      props.setProperty("heap: scan ok with -Xmx (MiB)", String.valueOf(maxHeap >> 20));
      props.setProperty("heap: live, idle session (MiB)", mib(idle));
      props.setProperty("heap: live peak during scan (MiB)", mib(peak));
      props.setProperty("heap: per task = (peak - idle) / 2 (MiB)", mib(Math.max(0, peak - idle) / 2));
      props.setProperty("heap: probe sum(value)", String.valueOf(r.get(0)));
      try (var w = Files.newBufferedWriter(out)) {
        props.store(w, "bench HeapProbe " + store);
      }
      String text = props.toString() + System.lineSeparator();
      System.out.print(text);
    } finally {
      spark.stop();
    }
  }

  static String mib(long bytes) {
    return String.format(Locale.ROOT, "%.1f", bytes / 1048576.0);
  }

  /** Heap in use right after a full collection: the live set. */
  static long liveHeap() {
    System.gc();
    MemoryUsage u = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    return u.getUsed();
  }

  /** Records the largest heap-in-use after any collection (young or full) from now on. */
  static void listenToCollections(AtomicLong peak) {
    java.util.Set<String> heapPools = new java.util.HashSet<>();
    for (var pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == java.lang.management.MemoryType.HEAP) {
        heapPools.add(pool.getName());
      }
    }
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      ((NotificationEmitter) gc).addNotificationListener((n, handback) -> {
        if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
          return;
        }
        var info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        // Heap pools only (the map also holds metaspace and code cache). After a young
        // collection the old generation may still hold garbage: this is an upper bound.
        long used = info.getGcInfo().getMemoryUsageAfterGc().entrySet().stream()
            .filter(e -> heapPools.contains(e.getKey())).mapToLong(e -> e.getValue().getUsed()).sum();
        peak.accumulateAndGet(used, Math::max);
      }, null, null);
    }
  }

  private HeapProbe() {}
}
