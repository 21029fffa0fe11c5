package io.github.sparkzarr.bench;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;
import org.apache.spark.sql.SparkSession;

/**
 * Where a full scan's time goes. {@code scan STORE RUNS FILE.jfr} runs the suite's full-scan aggregate
 * RUNS times under Java Flight Recorder, after two warm-up scans, and writes FILE.jfr; {@code summary FILE.jfr} reads the
 * jdk.ExecutionSample events and attributes each sample to the first stage found walking its
 * stack from the top: codec decode, fetching bytes, copying into column vectors, other
 * connector code, or Spark (generated aggregation code and the rest).
 */
public final class ProfileScan {
  public static void main(String[] args) throws Exception {
    if (args[0].equals("time")) {
      time(args[1], Integer.parseInt(args[2]), args[3]);
    } else if (args[0].equals("scan")) {
      scan(args[1], Integer.parseInt(args[2]), Path.of(args[3]));
    } else {
      summary(Path.of(args[1]));
    }
  }

  /**
   * Two untimed warm-up scans, then RUNS scans recorded by JFR (profile settings: 10 ms samples).
   * {@code -DpushDownAggregate=false} profiles the scan as a query that needs rows sees it;
   * {@code -Dcolumn=NAME} sums another variable than {@code value} (of a group's dataset view).
   */
  private static final String PUSH_DOWN = System.getProperty("pushDownAggregate", "true");
  private static final String SUM = "sum(" + System.getProperty("column", "value") + ")";

  static void scan(String store, int runs, Path jfr) throws Exception {
    SparkSession spark = SparkSession.builder().master("local[2]").appName("spark-zarr profile")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    try {
      for (int i = 0; i < 2; i++) {
        spark.read().format("zarr").option("pushDownAggregate", PUSH_DOWN).load(store).selectExpr(SUM).collectAsList();
      }
      Recording recording = new Recording(Configuration.getConfiguration("profile"));
      recording.start();
      for (int i = 0; i < runs; i++) {
        long t0 = System.nanoTime();
        Object sum = spark.read().format("zarr").option("pushDownAggregate", PUSH_DOWN).load(store).selectExpr(SUM).collectAsList().get(0).get(0);
        System.out.printf(Locale.ROOT, "[profile] run %d: %.3f s (sum %s)%n", i, (System.nanoTime() - t0) / 1e9, sum);
      }
      recording.stop();
      recording.dump(jfr);
    } finally {
      spark.stop();
    }
  }

  /**
   * {@code time STORE RUNS QUERY}: the median of RUNS warm runs of a query on the store (table
   * {@code t}, {@code t_rows} without aggregate pushdown, {@code t_spark} with no filter on values
   * evaluated in the scan either), for bench/compare.sh to run against two builds of the connector.
   */
  static final int WARMUP = Integer.getInteger("warmup", 30);

  /** -Dnoop=true: write the answer to Spark's noop sink instead of collecting it (answers too big to collect). */
  static final boolean NOOP = Boolean.getBoolean("noop");

  static void run(SparkSession spark, String query) {
    if (NOOP) {
      spark.sql(query).write().format("noop").mode("overwrite").save();
    } else {
      spark.sql(query).collectAsList();
    }
  }

  /**
   * -DasyncProfile=FILE (with async-profiler's jar on the class path and its library in
   * /tmp/ap, see docs/benchmarks.md): CPU samples of the timed runs only, after the warm-up.
   */
  static void asyncProfiler(String command) throws Exception {
    if (System.getProperty("asyncProfile") == null) {
      return;
    }
    Class<?> c = Class.forName("one.profiler.AsyncProfiler");
    Object profiler = c.getMethod("getInstance", String.class).invoke(null, "/tmp/ap/linux-x64/libasyncProfiler.so");
    c.getMethod("execute", String.class).invoke(profiler, command);
  }
  static final com.sun.management.OperatingSystemMXBean PROCESS =
      (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

  /** A Zarr reader with every -Dread.NAME=VALUE property as a read option (e.g. -Dread.driverAggregateMaxBytes=0). */
  static org.apache.spark.sql.DataFrameReader reader(SparkSession spark) {
    org.apache.spark.sql.DataFrameReader reader = spark.read().format("zarr");
    for (String name : System.getProperties().stringPropertyNames()) {
      if (name.startsWith("read.")) {
        reader = reader.option(name.substring("read.".length()), System.getProperty(name));
      }
    }
    return reader;
  }

  static void time(String store, int runs, String query) throws Exception {
    SparkSession spark = BenchSession.local("spark-zarr compare");
    // -Dconf=key=value,key=value: session settings to try (e.g. spark.sql.files.maxPartitionBytes=64m).
    for (String kv : System.getProperty("conf", "").split(",")) {
      if (!kv.isEmpty()) {
        spark.conf().set(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      }
    }
    try {
      reader(spark).load(store).createOrReplaceTempView("t");
      reader(spark).option("pushDownAggregate", "false").load(store).createOrReplaceTempView("t_rows");
      reader(spark).option("pushDownAggregate", "false").option("pushDownValueFilters", "false")
          .load(store).createOrReplaceTempView("t_spark");
      TaskCpu cpu = new TaskCpu();
      spark.sparkContext().addSparkListener(cpu);
      // Warm-up: the JIT compiles Spark's code for dozens of queries (see Suite.warmUp).
      for (int i = 0; i < WARMUP; i++) {
        run(spark, query);
      }
      if (Boolean.getBoolean("explain")) {
        spark.sql(query).explain();
      }
      // The answer (first rows), so that before and after can be seen to agree.
      System.out.println("[compare] answer " + spark.sql(query).limit(3).collectAsList());
      System.out.println("[compare] warm-up done");
      // -DasyncEvent=alloc: where the timed runs allocate (e.g. Vector API objects of code C2 did not intrinsify).
      asyncProfiler("start,event=" + System.getProperty("asyncEvent", "cpu,interval=1ms") + ",threads");
      java.util.List<Double> seconds = new java.util.ArrayList<>();
      java.util.List<Double> cpuSeconds = new java.util.ArrayList<>();
      java.util.List<Long> jitMillis = new java.util.ArrayList<>();
      java.util.List<Double> processSeconds = new java.util.ArrayList<>();
      java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
      for (int i = 0; i < runs; i++) {
        TaskCpu.waitIdle(spark);
        cpu.nanos.set(0);
        long jit0 = jit.getTotalCompilationTime();
        long process0 = PROCESS.getProcessCpuTime();
        long t0 = System.nanoTime();
        run(spark, query);
        seconds.add((System.nanoTime() - t0) / 1e9);
        processSeconds.add((PROCESS.getProcessCpuTime() - process0) / 1e9);
        TaskCpu.waitIdle(spark);
        cpuSeconds.add(cpu.nanos.get() / 1e9);
        jitMillis.add(jit.getTotalCompilationTime() - jit0);
      }
      asyncProfiler("stop,collapsed,file=" + System.getProperty("asyncProfile", ""));
      System.out.printf(Locale.ROOT, "[compare] wall %.3f s, task CPU %.3f s (medians of %d; wall %s)%n",
          Suite.median(seconds), Suite.median(cpuSeconds), runs, seconds);
      System.out.printf(Locale.ROOT, "[compare] JIT compilation ms per run %s%n", jitMillis);
      System.out.printf(Locale.ROOT, "[compare] process CPU %.3f s (median; all threads, the kernel's work for them included)%n",
          Suite.median(processSeconds));
    } finally {
      spark.stop();
    }
  }

  /**
   * Sums the executor CPU time of finished tasks: on a shared machine, the CPU a query's tasks
   * used varies much less with other people's load than its wall time does.
   */
  static final class TaskCpu extends org.apache.spark.scheduler.SparkListener {
    final java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();

    @Override
    public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd end) {
      if (end.taskMetrics() != null) {
        nanos.addAndGet(end.taskMetrics().executorCpuTime());
      }
    }

    /** Task-end events arrive asynchronously: wait until the listener bus has delivered them. */
    static void waitIdle(SparkSession spark) {
      // private[spark] in Scala, public in bytecode: the one way to drain the bus.
      try {
        spark.sparkContext().listenerBus().waitUntilEmpty();
      } catch (java.util.concurrent.TimeoutException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** Stage of a sample: the innermost frame that belongs to a known stage wins. */
  static String stage(List<RecordedFrame> frames) {
    for (RecordedFrame f : frames) { // frames[0] is the top of the stack
      String c = f.getMethod().getType().getName();
      String m = f.getMethod().getName();
      if (c.startsWith("io.github.sparkzarr.zarr.codec")) {
        return "decode (codec)";
      }
      if (c.startsWith("io.github.sparkzarr.zarr.store") || c.startsWith("org.apache.hadoop")) {
        return "fetch (store, Hadoop FS)";
      }
      if (c.endsWith("FixedWriter") || c.contains("FixedWriter$") || c.contains("ValueWriters")
          || (c.contains("OnHeapColumnVector") && (m.startsWith("put") || m.equals("<init>") || m.startsWith("reserve")))) {
        return "copy into column vectors";
      }
      if (c.startsWith("io.github.sparkzarr")) {
        return "other connector code";
      }
      if (c.contains("GeneratedClass") || c.contains("OnHeapColumnVector") || c.contains("ColumnarBatch")
          || c.contains("GatherColumnVector")) {
        return "Spark: generated aggregation over the batches";
      }
    }
    return "Spark and JVM: other (scheduling, planning, GC threads excluded)";
  }

  static void summary(Path file) throws Exception {
    Map<String, Integer> stages = new HashMap<>();
    Map<String, Integer> tops = new HashMap<>();
    int total = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
        continue;
      }
      List<RecordedFrame> frames = e.getStackTrace().getFrames();
      if (frames.isEmpty()) {
        continue;
      }
      total++;
      stages.merge(stage(frames), 1, Integer::sum);
      RecordedFrame top = frames.get(0);
      tops.merge(top.getMethod().getType().getName() + "." + top.getMethod().getName(), 1, Integer::sum);
    }
    System.out.println("| stage | samples | share |\n|---|---|---|");
    print(stages, total, 10);
    System.out.println("\nTop frames (the method on CPU):\n\n| method | samples | share |\n|---|---|---|");
    print(tops, total, 15);
    System.out.println("\n" + total + " execution samples");
  }

  static void print(Map<String, Integer> counts, int total, int limit) {
    counts.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(limit)
        .forEach(en -> System.out.printf(Locale.ROOT, "| %s | %d | %.1f%% |%n", en.getKey(), en.getValue(),
            100.0 * en.getValue() / total));
  }

  private ProfileScan() {}
}
