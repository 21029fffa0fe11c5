package io.github.sparkzarr.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.SparkListenerStageSubmitted;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Where a small query's wall time goes, warm, in one JVM: {@code QueryPhases STORE RUNS QUERY...}
 * registers the store as view {@code t} (and {@code t_rows}, with pushDownAggregate=false), runs each query twice untimed ({@code -Dwarmup=N}: N times), then RUNS times and prints
 * the medians of: analysis ({@code spark.sql}), optimisation (where the connector's pushdown and
 * scan building run), physical planning, execution (collect), and from a listener the jobs,
 * stages and tasks (summed run time, deserialisation, scheduler delay), the CPU time of the
 * driver's thread, the process's CPU beyond the driver's thread and the tasks (the JIT, GC,
 * Spark's other threads), and the collectors' reported time.
 */
public final class QueryPhases {
  static final class Events extends SparkListener {
    final List<String> log = java.util.Collections.synchronizedList(new ArrayList<>());
    volatile long jobs;
    volatile long stages;
    volatile long tasks;
    volatile long taskRunMs;
    volatile long taskCpuMs;
    volatile long taskDeserMs;
    volatile long taskWallMs;
    volatile long firstLaunch = Long.MAX_VALUE;
    volatile long lastFinish;
    volatile long jobStart = Long.MAX_VALUE;
    volatile long jobEnd;

    void reset() {
      jobs = stages = tasks = taskRunMs = taskCpuMs = taskDeserMs = taskWallMs = lastFinish = jobEnd = 0;
      firstLaunch = jobStart = Long.MAX_VALUE;
      log.clear();
    }

    @Override public void onJobStart(SparkListenerJobStart e) { jobs++; jobStart = Math.min(jobStart, e.time()); }
    @Override public void onJobEnd(SparkListenerJobEnd e) { jobEnd = Math.max(jobEnd, e.time()); }
    @Override public void onStageSubmitted(SparkListenerStageSubmitted e) { stages++; }
    @Override public void onStageCompleted(SparkListenerStageCompleted e) {
      var i = e.stageInfo();
      log.add("stage " + i.stageId() + " tasks=" + i.numTasks() + " "
          + ((Long) i.completionTime().get() - (Long) i.submissionTime().get()) + "ms");
    }
    @Override public synchronized void onTaskEnd(SparkListenerTaskEnd e) {
      tasks++;
      taskRunMs += e.taskMetrics().executorRunTime();
      taskCpuMs += e.taskMetrics().executorCpuTime() / 1_000_000;
      taskDeserMs += e.taskMetrics().executorDeserializeTime();
      taskWallMs += e.taskInfo().finishTime() - e.taskInfo().launchTime();
      firstLaunch = Math.min(firstLaunch, e.taskInfo().launchTime());
      lastFinish = Math.max(lastFinish, e.taskInfo().finishTime());
    }
  }

  public static void main(String[] args) throws Exception {
    String store = args[0];
    int runs = Integer.parseInt(args[1]);
    SparkSession spark = SparkSession.builder().master("local[2]").appName("phases")
        .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.catalog.zarr", "io.github.sparkzarr.spark.ZarrCatalog")
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    Events ev = new Events();
    spark.sparkContext().addSparkListener(ev);
    try {
      spark.read().format("zarr").load(store).createOrReplaceTempView("t");
      spark.read().format("zarr").option("pushDownAggregate", "false").load(store).createOrReplaceTempView("t_rows");
      if (System.getProperty("open") != null) {
        // Opening the table (metadata read on the driver): what each query pays when it loads the
        // store anew (zarr.`path` SQL, spark.read().load() per query), not a view.
        double[] o = new double[50];
        for (int i = 0; i < 50; i++) {
          long t0 = System.nanoTime();
          io.github.sparkzarr.spark.ZarrTable.open(io.github.sparkzarr.spark.options.ZarrReadOptions.parse(
              java.util.Map.of("path", store)));
          o[i] = (System.nanoTime() - t0) / 1e6;
        }
        java.util.Arrays.sort(o);
        System.out.printf(Locale.ROOT, "ZarrTable.open: median %.2f ms min %.2f max %.2f%n", o[25], o[0], o[49]);
      }
      if (System.getProperty("bcast") != null) {
        org.apache.spark.api.java.JavaSparkContext jsc = org.apache.spark.api.java.JavaSparkContext.fromSparkContext(spark.sparkContext());
        double[] b = new double[50];
        for (int i = 0; i < 50; i++) {
          long t0 = System.nanoTime();
          org.apache.hadoop.conf.Configuration c = io.github.sparkzarr.spark.SessionHadoopConf.create();
          long t1 = System.nanoTime();
          jsc.broadcast(new org.apache.spark.util.SerializableConfiguration(c));
          b[i] = (System.nanoTime() - t1) / 1e6;
          if (i == 49) System.out.printf(Locale.ROOT, "conf create %.2f ms, %d entries%n", (t1 - t0) / 1e6, c.size());
        }
        java.util.Arrays.sort(b);
        System.out.printf(Locale.ROOT, "broadcast of the Hadoop conf: median %.2f ms min %.2f max %.2f%n", b[25], b[0], b[49]);
      }
      int nq = args.length - 2;
      String[] queries = new String[nq];
      for (int q = 0; q < nq; q++) {
        queries[q] = args[q + 2].replace("STORE", store);
      }
      for (int w = 0; w < Integer.getInteger("warmup", 2); w++) {
        for (String query : queries) {
          spark.sql(query).collectAsList();
        }
      }
      // Queries take turns, so a shared machine's changing load falls on all alike.
      double[][][] m = new double[nq][16][runs];
      java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
      com.sun.management.OperatingSystemMXBean os =
          (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
      String[] plans = new String[nq];
      List<List<String>> stagesLog = new ArrayList<>();
      for (int q = 0; q < nq; q++) {
        stagesLog.add(null);
      }
      jdk.jfr.Recording rec = null;
      if (System.getProperty("jfr") != null) {
        rec = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
        rec.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(1));
        rec.start();
      }
      Map<String, Long> threadCpu0 = threadCpu();
      // A mark for logs with the JVM's uptime (-XX:+PrintCompilation): what happens in the timed runs.
      System.out.println("timed runs start at uptime ms "
          + java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime());
      for (int r = 0; r < runs; r++) {
        for (int q = 0; q < nq; q++) {
          String query = queries[q];
          ProfileScan.TaskCpu.waitIdle(spark);
          ev.reset();
          long cpu0 = threads.getCurrentThreadCpuTime();
          long proc0 = os.getProcessCpuTime();
          long gc0 = gcMillis();
          long t0 = System.nanoTime();
          Dataset<Row> df = spark.sql(query);
          long t1 = System.nanoTime();
          df.queryExecution().optimizedPlan();
          long t2 = System.nanoTime();
          df.queryExecution().executedPlan();
          long t3 = System.nanoTime();
          long wall0 = System.currentTimeMillis();
          df.collectAsList();
          long t4 = System.nanoTime();
          long wall4 = System.currentTimeMillis();
          long cpu4 = threads.getCurrentThreadCpuTime();
          long proc4 = os.getProcessCpuTime();
          long gc4 = gcMillis();
          ProfileScan.TaskCpu.waitIdle(spark);
          m[q][0][r] = (t1 - t0) / 1e6;
          m[q][1][r] = (t2 - t1) / 1e6;
          m[q][2][r] = (t3 - t2) / 1e6;
          m[q][3][r] = (t4 - t3) / 1e6;
          m[q][4][r] = (t4 - t0) / 1e6;
          boolean job = ev.jobs > 0; // else the timings of jobs are NaN: a query answered on the driver
          m[q][5][r] = job ? ev.jobStart - wall0 : Double.NaN;           // collect start -> first job start
          m[q][6][r] = job ? ev.firstLaunch - ev.jobStart : Double.NaN;  // first job start -> first task launch
          m[q][7][r] = ev.taskRunMs;
          m[q][8][r] = ev.jobs * 100 + ev.stages * 10 + ev.tasks; // jobs/stages/tasks code
          m[q][9][r] = ev.taskDeserMs;
          m[q][10][r] = ev.taskCpuMs;
          m[q][11][r] = job ? ev.lastFinish - ev.firstLaunch : Double.NaN; // first task launch -> last task end
          m[q][12][r] = job ? wall4 - ev.lastFinish : Double.NaN;          // last task end -> collect returns
          m[q][13][r] = (cpu4 - cpu0) / 1e6;
          m[q][14][r] = (proc4 - proc0) / 1e6 - (cpu4 - cpu0) / 1e6 - ev.taskCpuMs;
          m[q][15][r] = gc4 - gc0;
          plans[q] = df.queryExecution().executedPlan().toString();
          stagesLog.set(q, new ArrayList<>(ev.log));
        }
      }
      printThreadCpu(threadCpu0, threadCpu(), runs * nq);
      if (rec != null) {
        rec.stop();
        java.nio.file.Path f = java.nio.file.Path.of(System.getProperty("jfr") + ".jfr");
        rec.dump(f);
        inclusive(f, System.getProperty("jfr.thread", "main"));
      }
      String[] names = {"analysis (spark.sql)", "optimize (incl. pushdown, build)", "physical plan",
          "execute (collect)", "TOTAL", "collect->job start", "job start->1st task", "task run ms (sum)",
          "jobs*100+stages*10+tasks", "task deserialise ms (sum)", "task CPU ms (sum)",
          "1st task->last task end", "last task end->collect returns",
          "driver thread CPU ms", "other CPU ms (process-driver-tasks)", "GC ms (collector beans)"};
      for (int q = 0; q < nq; q++) {
        System.out.println("== " + queries[q]);
        for (int i = 0; i < names.length; i++) {
          double[] a = m[q][i].clone();
          java.util.Arrays.sort(a);
          System.out.printf(Locale.ROOT, "  %-36s median %8.1f  min %8.1f  max %8.1f%n", names[i], a[runs / 2], a[0], a[runs - 1]);
        }
        System.out.println("  stages (last run): " + stagesLog.get(q));
        System.out.println("  plan: " + plans[q].replace("\n", "\n        "));
      }
    } finally {
      spark.stop();
    }
  }

  /** CPU ms of each of the process's threads by name (digits folded), from /proc: the JIT's and GC's too. */
  static Map<String, Long> threadCpu() throws java.io.IOException {
    Map<String, Long> cpu = new java.util.TreeMap<>();
    long tick = 10; // ms per clock tick (USER_HZ = 100 on Linux)
    try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/task"))) {
      for (java.nio.file.Path t : (Iterable<java.nio.file.Path>) tasks::iterator) {
        try {
          String stat = java.nio.file.Files.readString(t.resolve("stat"));
          String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[0-9]+", "N");
          String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
          cpu.merge(name, (Long.parseLong(f[11]) + Long.parseLong(f[12])) * tick, Long::sum);
        } catch (java.io.IOException | RuntimeException gone) {
          // a thread that ended between the listing and the read
        }
      }
    }
    return cpu;
  }

  static void printThreadCpu(Map<String, Long> before, Map<String, Long> after, int queries) {
    System.out.println("CPU ms per query by thread (all timed queries, /proc):");
    after.entrySet().stream().map(e -> Map.entry(e.getKey(), e.getValue() - before.getOrDefault(e.getKey(), 0L)))
        .filter(e -> e.getValue() > 0).sorted((a, b) -> Long.compare(b.getValue(), a.getValue())).limit(15)
        .forEach(e -> System.out.printf(Locale.ROOT, "  %8.1f  %s%n", (double) e.getValue() / queries, e.getKey()));
  }

  /** Time the collectors report (pauses and, for G1's concurrent cycles, their phases), in ms. */
  static long gcMillis() {
    long t = 0;
    for (java.lang.management.GarbageCollectorMXBean b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
      t += Math.max(0, b.getCollectionTime());
    }
    return t;
  }

  /** Inclusive sample counts per method on one thread: each method counted once per stack. */
  static void inclusive(java.nio.file.Path f, String thread) throws Exception {
    java.util.Map<String, Integer> counts = new java.util.HashMap<>();
    int total = 0;
    for (jdk.jfr.consumer.RecordedEvent e : jdk.jfr.consumer.RecordingFile.readAllEvents(f)) {
      if (!e.getEventType().getName().equals("jdk.ExecutionSample") || e.getStackTrace() == null) {
        continue;
      }
      jdk.jfr.consumer.RecordedThread t = e.getThread("sampledThread");
      if (t == null || !thread.equals(t.getJavaName())) {
        continue;
      }
      total++;
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (jdk.jfr.consumer.RecordedFrame fr : e.getStackTrace().getFrames()) {
        String m = fr.getMethod().getType().getName() + "." + fr.getMethod().getName();
        if (seen.add(m)) {
          counts.merge(m, 1, Integer::sum);
        }
      }
    }
    System.out.println("  JFR samples on thread " + thread + ": " + total);
    final int tot = total;
    counts.entrySet().stream().filter(en -> en.getKey().contains("sparkzarr") || en.getKey().matches(
        ".*(RuleExecutor.execute|QueryExecution.*|DAGScheduler.*submit.*|SparkContext.runJob|AdaptiveSparkPlanExec.*|"
        + "Broadcast.*|BatchScanExec.*|DataSourceV2.*|V2ScanRelationPushDown.*|CodeGenerator.*compile.*|WholeStageCodegenExec.*|"
        + "Analyzer.*|Optimizer.*|SparkPlanner.*|ClosureCleaner.*|JavaSerializer.*|.*Serializ.*write.*)"))
        .sorted((a, b) -> b.getValue() - a.getValue()).limit(60)
        .forEach(en -> System.out.printf(Locale.ROOT, "    %5.1f%% %s%n", 100.0 * en.getValue() / tot, en.getKey()));
  }

  private QueryPhases() {}
}
