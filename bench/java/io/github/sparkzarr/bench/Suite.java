package io.github.sparkzarr.bench;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;

/**
 * The Spark side of bench/run.sh: in one local[2] session, times queries on the three Zarr stores
 * zarr-python wrote and on the same values in Parquet, the writes, the single-threaded decode
 * limit and the planning of a 1,000,000-chunk array; then prints every figure and the ratios the
 * issue asks for, reading the xarray+dask and small-heap figures other steps left in
 * {@code --work}. Every figure is a median of {@code --reps} warm runs: one untimed run first, and
 * before the queries {@code --warmup} untimed rounds of all of them.
 *
 * <p>Usage: {@code Suite --data DIR --work DIR [--reps N] [--write-reps N] [--warmup N]}
 */
public final class Suite {
  static final String[] STORES = {"raw", "zstd", "blosc"};
  /** Cores of the local[2] session, for the decode-limit ratio. */
  static final int CORES = BenchSession.CORES;

  final Path data;
  final Path work;
  final int reps;
  final int writeReps;
  final int warmupRounds;
  static final java.lang.management.CompilationMXBean JIT =
      java.lang.management.ManagementFactory.getCompilationMXBean();
  /** Every figure, in print order: name → value (seconds unless the name says otherwise). */
  final Map<String, Double> figures = new LinkedHashMap<>();
  final Map<String, String> notes = new LinkedHashMap<>();
  SparkSession spark;
  final ProfileScan.TaskCpu taskCpu = new ProfileScan.TaskCpu();
  long[] shape;
  int[] chunks;

  Suite(Map<String, String> args) {
    data = Path.of(args.get("--data")).toAbsolutePath();
    work = Path.of(args.get("--work")).toAbsolutePath();
    reps = Integer.parseInt(args.getOrDefault("--reps", "5"));
    writeReps = Integer.parseInt(args.getOrDefault("--write-reps", "2"));
    warmupRounds = Integer.parseInt(args.getOrDefault("--warmup", "5"));
  }

  public static void main(String[] argv) throws Exception {
    Map<String, String> args = new LinkedHashMap<>();
    for (int i = 0; i + 1 < argv.length; i += 2) {
      args.put(argv[i], argv[i + 1]);
    }
    new Suite(args).run();
  }

  void run() throws Exception {
    ZarrArray raw = open("raw");
    shape = raw.metadata().shape();
    chunks = raw.metadata().chunkShape();
    log("array " + Arrays.toString(shape) + " float32, chunks " + Arrays.toString(chunks) + ", "
        + String.format(Locale.ROOT, "%.3f", decodedBytes() / Math.pow(2, 30)) + " GiB decoded");

    for (String s : STORES) {
      decodeLimit(s);
    }

    spark = BenchSession.local("spark-zarr bench");
    spark.sparkContext().addSparkListener(taskCpu);
    try {
      for (String s : STORES) {
        spark.read().format("zarr").load(store(s).toString()).createOrReplaceTempView("zarr_" + s);
        // The same store with Spark aggregating the rows itself, for comparison.
        spark.read().format("zarr").option("pushDownAggregate", "false").load(store(s).toString())
            .createOrReplaceTempView("zarr_" + s + "_rows");
      }
      writeParquet();
      spark.read().parquet(work.resolve("parquet").toString()).createOrReplaceTempView("parquet");
      queries();
      if (writeReps > 0) {
        writes();
      } else {
        log("writes not timed (--write-reps 0)");
      }
      planning();
    } finally {
      spark.stop();
    }
    readSideFigures();
    report();
  }

  // ---- the decode limit ----------------------------------------------------------------------

  /** The store's decode limit (see {@link DecodeLimit}): the median of max(3, reps) passes. */
  void decodeLimit(String name) throws IOException {
    DecodeLimit.Result limit = DecodeLimit.measure(open(name), Math.max(3, reps));
    String label = "decode limit " + name;
    figures.put(label + " (1 thread)", limit.seconds());
    figures.put(label + " MiB/s", limit.mibPerSecond());
    figures.put(label + " MiB/s [thread CPU]", limit.mibPerCpuSecond());
    double mib = limit.decodedBytes() / (double) (1 << 20);
    figures.put(label + ", files read too (1 thread)", limit.readSeconds());
    figures.put(label + ", files read too MiB/s", mib / limit.readSeconds());
    figures.put(label + ", files read too MiB/s [thread CPU]", mib / limit.readCpuSeconds());
    // The ratios compare times: the limit and the scan decode the same whole chunks, edge
    // chunks' padding included, which the array's size leaves out.
    figures.put(label + " (1 thread) [thread CPU]", limit.cpuSeconds());
    figures.put(label + ", files read too (1 thread) [thread CPU]", limit.readCpuSeconds());
  }

  // ---- Spark queries -------------------------------------------------------------------------

  /** The Parquet copy the query figures compare with: the same rows, Spark's default codec. */
  void writeParquet() {
    long t0 = System.nanoTime();
    spark.table("zarr_raw").write().mode("overwrite").parquet(work.resolve("parquet").toString());
    log(String.format(Locale.ROOT, "wrote the Parquet copy in %.1f s (untimed warm-up write)",
        (System.nanoTime() - t0) / 1e9));
  }

  void queries() throws Exception {
    // The box: the first lat and lon chunk and the first k time chunks, about 1% of all chunks.
    long[] grid = open("raw").metadata().gridShape();
    long total = grid[0] * grid[1] * grid[2];
    long k = Math.max(1, Math.round(0.01 * total));
    k = Math.min(grid[0], k);
    String box = "WHERE time < " + k * chunks[0] + " AND lat < " + chunks[1] + " AND lon < " + chunks[2];
    notes.put("box", box + " (" + k + " of " + total + " chunks = "
        + String.format(Locale.ROOT, "%.2f%%", 100.0 * k / total) + ")");
    List<String> tables = new ArrayList<>();
    for (String s : STORES) {
      tables.add("zarr_" + s);
    }
    tables.add("parquet");
    Map<String, Action> timed = new LinkedHashMap<>();
    for (String s : STORES) {
      String t = "zarr_" + s + "_rows";
      timed.put("full scan sum(value), no aggregate pushdown, " + t,
          () -> spark.sql("SELECT sum(value) FROM " + t).collectAsList());
    }
    for (String t : tables) {
      timed.put("full scan sum(value) " + t, () -> spark.sql("SELECT sum(value) FROM " + t).collectAsList());
      timed.put("1% box " + t, () -> spark.sql("SELECT sum(value), count(*) FROM " + t + " " + box)
          .collectAsList());
      timed.put("group by lat " + t, () -> spark.sql("SELECT lat, avg(value) FROM " + t + " GROUP BY lat")
          .collectAsList());
      timed.put("min and max " + t, () -> spark.sql("SELECT min(value), max(value) FROM " + t)
          .collectAsList());
    }
    // What any query costs in this session: the floor under the box's wall time.
    timed.put("trivial query (SELECT count(*) FROM range(1000))",
        () -> spark.sql("SELECT count(*) FROM range(1000)").collectAsList());
    warmUp(timed);
    timed.forEach(this::time);
  }

  /**
   * Untimed rounds of every query before any is timed. Spark runs a great deal of Scala code per
   * query, and the JIT keeps compiling it for dozens of queries: one untimed run per query left
   * each timed run sharing the two cores with the compiler (0.1-1 s of compilation per run). The
   * JIT time during each query's timed runs is reported next to it.
   */
  void warmUp(Map<String, Action> queries) throws Exception {
    long t0 = System.nanoTime();
    long jit0 = JIT.getTotalCompilationTime();
    for (int round = 0; round < warmupRounds; round++) {
      for (Action query : queries.values()) {
        query.run();
      }
    }
    notes.put("warm-up", String.format(Locale.ROOT, "%d untimed rounds of every query first: %.1f s, "
        + "%.1f s of JIT compilation", warmupRounds, (System.nanoTime() - t0) / 1e9,
        (JIT.getTotalCompilationTime() - jit0) / 1e3));
    log(notes.get("warm-up"));
  }

  // ---- writes --------------------------------------------------------------------------------

  void writes() throws Exception {
    Dataset<Row> df = spark.table("zarr_raw");
    // Warm already: writing the Parquet copy was the same write.
    timeWrites("Parquet write (Spark, snappy)", () -> df.write().mode("overwrite")
        .parquet(work.resolve("parquet-write").toString()), true);
    String zarrOut = work.resolve("zarr-write.zarr").toString();
    try {
      df.write().format("zarr").mode("overwrite").save(zarrOut);
      notes.put("Zarr write", "df.write.format(\"zarr\") (Spark write path), default options: "
          + "Zarr v3, zstd level 1, the read's chunks, no shuffle (shuffle=auto: rows come chunk by chunk)");
      timeWrites("Zarr write", () -> df.write().format("zarr").mode("overwrite").save(zarrOut), true);
      // What a write of rows not from a Zarr read pays: Spark repartitions them by chunk.
      notes.put("Zarr write, shuffle=true", "the same write with option shuffle=true (one run)");
      timeRuns("Zarr write, shuffle=true", () -> df.write().format("zarr").option("shuffle", "true")
          .mode("overwrite").save(zarrOut), 1, true);
    } catch (Exception e) {
      // No Spark write path yet: the core writes the same array, chunk by chunk, in CORES threads.
      log("df.write.format(\"zarr\") is not available (" + firstLine(e) + "); timing the core instead");
      notes.put("Zarr write", "CORE, not Spark: " + CORES + " threads read each chunk of raw.zarr, "
          + "encode it (blosc lz4 shuffle) and store it with ZarrArray.writeChunk; "
          + "df.write.format(\"zarr\") did not exist yet");
      timeWrites("Zarr write", this::coreWrite, false);
    }
  }

  void coreWrite() {
    try {
      ZarrArray source = open("raw");
      ZarrArray blosc = open("blosc");
      Path out = work.resolve("core-write.zarr");
      try (HadoopStore store = new HadoopStore(out.toUri().toString(), new Configuration())) {
        store.deletePrefix("");
        ZarrHierarchy.writeGroupV2(store, "", null);
        ZarrArray target = ZarrHierarchy.writeArrayV2(store, "value", blosc.metadata());
        List<long[]> all = DecodeLimit.allChunks(source);
        AtomicLong next = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(CORES);
        try {
          List<Future<?>> tasks = new ArrayList<>();
          for (int t = 0; t < CORES; t++) {
            tasks.add(pool.submit(() -> {
              for (long i; (i = next.getAndIncrement()) < all.size(); ) {
                long[] c = all.get((int) i);
                target.writeChunk(c, source.readChunk(c));
              }
              return null;
            }));
          }
          for (Future<?> f : tasks) {
            f.get();
          }
        } finally {
          pool.shutdown();
        }
        ZarrHierarchy.consolidateV2(store);
      }
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  // ---- planning ------------------------------------------------------------------------------

  /**
   * Plans a scan of an array of 1,000,000 chunks whose store holds only metadata: planning must
   * come from the metadata alone, without touching or listing chunk keys.
   */
  void planning() throws IOException {
    Path dir = work.resolve("million-chunks.zarr");
    try (HadoopStore store = new HadoopStore(dir.toUri().toString(), new Configuration())) {
      store.deletePrefix("");
      ZarrHierarchy.writeGroupV2(store, "", null);
      String zarray = "{\"zarr_format\":2,\"shape\":[1000,10000,10000],\"chunks\":[10,100,100],"
          + "\"dtype\":\"<f4\",\"compressor\":{\"id\":\"zstd\",\"level\":1},\"fill_value\":\"NaN\","
          + "\"order\":\"C\",\"filters\":null}";
      var attrs = Json.object();
      attrs.putArray(V2Metadata.DIMENSIONS_ATTR).add("time").add("lat").add("lon");
      ZarrHierarchy.writeArrayV2(store, "value", V2Metadata.readArray(
          Json.parseObject(zarray.getBytes(StandardCharsets.UTF_8), store.location(), "value"),
          attrs, store.location(), "value/.zarray"));
      ZarrHierarchy.consolidateV2(store);
    }
    long[] partitions = new long[1];
    time("plan 1,000,000 chunks (executedPlan + input partitions)", () -> {
      Dataset<Row> df = spark.read().format("zarr").load(dir.toString()).selectExpr("sum(value)");
      SparkPlan plan = df.queryExecution().executedPlan();
      if (plan instanceof AdaptiveSparkPlanExec a) {
        plan = a.initialPlan();
      }
      partitions[0] = 0;
      for (SparkPlan leaf : scala.jdk.javaapi.CollectionConverters.asJava(plan.collectLeaves())) {
        if (leaf instanceof BatchScanExec scan) {
          partitions[0] += scan.inputPartitions().size(); // what the executors would be sent
        }
      }
    });
    notes.put("planning", "1000x10000x10000 float32 in 10x100x100 chunks (1,000,000 chunks, no chunk "
        + "files): " + partitions[0] + " input partitions");
  }

  // ---- figures from the other steps, and the report ------------------------------------------

  /** xarray+dask (bench/xarray_dask.py) and the small-heap scan (HeapProbe) wrote properties files. */
  void readSideFigures() throws IOException {
    for (String file : List.of("xarray.properties", "heap.properties")) {
      Path p = work.resolve(file);
      if (!Files.exists(p)) {
        log(p + " is missing: its figures are left out");
        continue;
      }
      Properties props = new Properties();
      try (var in = Files.newInputStream(p)) {
        props.load(in);
      }
      for (String name : new java.util.TreeSet<>(props.stringPropertyNames())) {
        String v = props.getProperty(name);
        try {
          figures.put(name, Double.parseDouble(v));
        } catch (NumberFormatException e) {
          notes.put(name, v);
        }
      }
    }
  }

  void report() throws IOException {
    StringBuilder out = new StringBuilder();
    out.append("| figure | value |\n|---|---|\n");
    figures.forEach((k, v) -> out.append("| ").append(k).append(" | ")
        .append(String.format(Locale.ROOT, k.contains("MiB") ? "%.0f" : "%.3f", v)).append(" |\n"));
    out.append("\n| ratio | value | target |\n|---|---|---|\n");
    for (String s : STORES) {
      double scan = get("full scan sum(value) zarr_" + s);
      ratio(out, "full scan Zarr " + s + " / Parquet", scan / get("full scan sum(value) parquet"), "<= 1.0");
      ratio(out, "same, from task CPU, " + s, get("full scan sum(value) zarr_" + s + " [task CPU]")
          / get("full scan sum(value) parquet [task CPU]"), "<= 1.0");
      ratio(out, "1% box / full scan, " + s, get("1% box zarr_" + s) / scan, "<= 0.05");
      // n/a when the box ran no task: since session 32 the driver computes so small an aggregate.
      ratio(out, "same, from task CPU (n/a: no task, the box computed on the driver), " + s,
          get("1% box zarr_" + s + " [task CPU]") / get("full scan sum(value) zarr_" + s + " [task CPU]"), "<= 0.05");
      ratio(out, "1% box / trivial query (Spark's floor per query), " + s,
          get("1% box zarr_" + s) / get("trivial query (SELECT count(*) FROM range(1000))"), "");
      // Uncompressed chunks are handed over in place: there is no decoding to compare with.
      boolean codec = !s.equals("raw");
      // Throughput ratios as times: limit time / (cores x scan time), the same chunks decoded.
      double scanCpu = get("full scan sum(value) zarr_" + s + " [task CPU]");
      String limit = "decode limit " + s + " (1 thread)";
      ratio(out, "scan MiB/s / (decode limit x " + CORES + "), " + s,
          codec ? get(limit) / (CORES * scan) : Double.NaN, ">= 0.7");
      ratio(out, "same, from CPU time: MiB per task-CPU-second / decode limit per CPU-second, " + s,
          codec ? get(limit + " [thread CPU]") / scanCpu : Double.NaN, ">= 0.7");
      // The limit of a loop that reads each chunk's file too, as the scan must (raw: reading alone).
      String read = "decode limit " + s + ", files read too (1 thread)";
      ratio(out, "scan MiB/s / (read-and-decode limit x " + CORES + "), " + s,
          get(read) / (CORES * scan), "(>= 0.7, the limit reading the files too)");
      ratio(out, "same, from CPU time, " + s, get(read + " [thread CPU]") / scanCpu,
          "(>= 0.7, the limit reading the files too)");
      ratio(out, "Spark on Zarr / xarray+dask, " + s, scan / get("xarray+dask sum(value) " + s), "<= 0.5");
      double rows = get("full scan sum(value), no aggregate pushdown, zarr_" + s + "_rows");
      ratio(out, "without aggregate pushdown: full scan Zarr " + s + " / Parquet",
          rows / get("full scan sum(value) parquet"), "<= 1.0");
      ratio(out, "without aggregate pushdown: Spark on Zarr / xarray+dask, " + s,
          rows / get("xarray+dask sum(value) " + s), "<= 0.5");
    }
    ratio(out, "Zarr write / Parquet write", get("Zarr write") / get("Parquet write (Spark, snappy)"), "<= 1.2");
    ratio(out, "same, from task CPU", get("Zarr write [task CPU]") / get("Parquet write (Spark, snappy) [task CPU]"), "<= 1.2");
    ratio(out, "Zarr write with shuffle=true / Parquet write",
        get("Zarr write, shuffle=true") / get("Parquet write (Spark, snappy)"), "(rows not from a read)");
    ratio(out, "plan 1,000,000 chunks (s)", get("plan 1,000,000 chunks (executedPlan + input partitions)"), "<= 2");
    out.append("\n");
    notes.forEach((k, v) -> out.append("- ").append(k).append(": ").append(v).append('\n'));
    System.out.println();
    System.out.println(out);
    Files.writeString(work.resolve("results.md"), out.toString());
  }

  void ratio(StringBuilder out, String name, double value, String target) {
    out.append("| ").append(name).append(" | ")
        .append(Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.3f", value))
        .append(" | ").append(target).append(" |\n");
  }

  double get(String name) {
    return figures.getOrDefault(name, Double.NaN);
  }

  // ---- helpers -------------------------------------------------------------------------------

  interface Action {
    void run() throws Exception;
  }

  /** One untimed run, then the median of {@code reps} timed runs. */
  void time(String name, Action action) {
    timeRuns(name, action, reps, false);
  }

  void timeWrites(String name, Action action, boolean warm) {
    timeRuns(name, action, writeReps, warm);
  }

  void drainListeners() {
    if (spark != null && !spark.sparkContext().isStopped()) {
      ProfileScan.TaskCpu.waitIdle(spark);
    }
  }

  /**
   * One untimed run (unless {@code warm} says the action already ran), then the median of
   * {@code runs} timed runs. Spark actions also get the median CPU time of their tasks: on a
   * shared machine it moves much less with other people's load than wall time.
   */
  void timeRuns(String name, Action action, int runs, boolean warm) {
    try {
      if (!warm) {
        action.run();
      }
      List<Double> seconds = new ArrayList<>();
      List<Double> cpu = new ArrayList<>();
      long jit0 = JIT.getTotalCompilationTime();
      for (int i = 0; i < runs; i++) {
        drainListeners();
        taskCpu.nanos.set(0);
        long t0 = System.nanoTime();
        action.run();
        seconds.add((System.nanoTime() - t0) / 1e9);
        drainListeners();
        cpu.add(taskCpu.nanos.get() / 1e9);
      }
      long jitMillis = (JIT.getTotalCompilationTime() - jit0) / Math.max(1, runs);
      figures.put(name, median(seconds));
      if (median(cpu) > 0) {
        figures.put(name + " [task CPU]", median(cpu));
      }
      figures.put(name + " [JIT compilation per run]", jitMillis / 1e3);
      log(String.format(Locale.ROOT, "%-60s median %.3f s (task CPU %.3f s, JIT %d ms per run) of %s",
          name, median(seconds), median(cpu), jitMillis, seconds));
    } catch (Exception e) {
      throw new IllegalStateException(name + " failed", e);
    }
  }

  static double median(List<Double> xs) {
    List<Double> s = new ArrayList<>(xs);
    s.sort(null);
    int n = s.size();
    return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
  }

  long decodedBytes() {
    return shape[0] * shape[1] * shape[2] * 4;
  }

  Path store(String name) {
    return data.resolve(name + ".zarr");
  }

  ZarrArray open(String name) {
    try {
      return ZarrArray.open(new HadoopStore(store(name).toUri().toString(), new Configuration()), "value");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  static void log(String s) {
    System.out.println("[bench] " + s);
  }
}
