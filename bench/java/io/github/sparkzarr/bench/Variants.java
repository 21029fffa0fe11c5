package io.github.sparkzarr.bench;

import java.io.FileReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.spark.sql.SparkSession;

/**
 * The suite's queries on the layouts of bench/generate_variants.py, in one local[2] session:
 * {@code Variants DATA REPS WARMUP XARRAY.properties RESULTS.md NAME...}. Per store: the full-scan
 * sum (computed in the scan, and with pushDownAggregate=false, as queries that need rows see the
 * scan), min and max, a group-by over lat, a small box, the time-mean map (GROUP BY lat, lon,
 * written to Spark's no-op sink); WARMUP untimed rounds of everything first, then the median of
 * REPS; and the ratios to xarray+dask's sum and time mean on the same store. The sum computed in
 * the scan is checked against the one Spark computes from the rows and against xarray's.
 */
public final class Variants {
  private static final List<String> QUERIES = List.of(
      "SELECT sum(value) FROM %s",
      "SELECT sum(value) FROM %s_rows",
      "SELECT min(value), max(value) FROM %s",
      "SELECT lat, avg(value) FROM %s GROUP BY lat",
      "SELECT sum(value), count(*) FROM %s WHERE time < 16 AND lat < 10 AND lon < 100",
      "SELECT lat, lon, avg(value) FROM %s GROUP BY lat, lon");
  private static final List<String> LABELS = List.of("sum", "sum, rows to Spark", "min, max", "group by lat",
      "small box", "time-mean map");
  /**
   * With -Dfiltered=true, also queries that filter on the values (the masked kernels), each store's
   * mean standing for {@code %2$s}: about half of every chunk passes.
   */
  private static final List<String> FILTERED = List.of(
      "SELECT sum(value), count(value) FROM %1$s WHERE value > %2$s",
      "SELECT min(value), max(value) FROM %1$s WHERE lat < 300 AND value < %2$s",
      "SELECT lat, avg(value) FROM %1$s WHERE value > %2$s GROUP BY lat",
      "SELECT lat, lon, max(value) FROM %1$s WHERE value < %2$s GROUP BY lat, lon");
  private static final List<String> FILTERED_LABELS = List.of("sum where value > mean",
      "min, max where lat, value", "group by lat where value", "max map where value");
  /** Queries of many result rows run to Spark's no-op sink: xarray's answer is an array, not rows on the driver. */
  private static final String MANY_ROWS = "time-mean map";
  private static final String FILTERED_MAP = FILTERED_LABELS.get(3);

  public static void main(String[] args) throws Exception {
    String data = args[0];
    int reps = Integer.parseInt(args[1]);
    int warmup = Integer.parseInt(args[2]);
    Properties xarray = new Properties();
    try (FileReader r = new FileReader(args[3])) {
      xarray.load(r);
    }
    List<String> names = List.of(args).subList(5, args.length);
    boolean filtered = Boolean.getBoolean("filtered");
    List<String> queries = filtered ? concat(QUERIES, FILTERED) : QUERIES;
    List<String> labels = filtered ? concat(LABELS, FILTERED_LABELS) : LABELS;
    SparkSession spark = BenchSession.local("spark-zarr variants");
    try {
      Map<String, String> means = new LinkedHashMap<>();
      for (String name : names) {
        String path = data + "/" + name + ".zarr";
        spark.read().format("zarr").load(path).createOrReplaceTempView(name);
        spark.read().format("zarr").option("pushDownAggregate", "false").load(path).createOrReplaceTempView(name + "_rows");
        means.put(name, filtered ? spark.sql("SELECT avg(value) FROM " + name).first().get(0).toString() : "");
      }
      for (int w = 0; w < warmup; w++) {
        for (String name : names) {
          for (int q = 0; q < queries.size(); q++) {
            run(spark, String.format(Locale.ROOT, queries.get(q), name, means.get(name)), labels.get(q));
          }
        }
      }
      StringBuilder md = new StringBuilder("| store | stored MiB |");
      for (String label : labels) {
        md.append(' ').append(label).append(" |");
      }
      md.append(" xarray+dask sum | Spark ÷ xarray (sum) | xarray+dask time mean | Spark ÷ xarray (map) |"
          + " sum agrees with Spark's rows, xarray's |\n|---|---|");
      md.append("---|".repeat(labels.size() + 5)).append('\n');
      for (String name : names) {
        profile(name, true);
        Map<String, Double> seconds = new LinkedHashMap<>();
        for (int q = 0; q < queries.size(); q++) {
          String sql = String.format(Locale.ROOT, queries.get(q), name, means.get(name));
          List<Double> runs = new ArrayList<>();
          for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            run(spark, sql, labels.get(q));
            runs.add((System.nanoTime() - t0) / 1e9);
          }
          seconds.put(labels.get(q), Suite.median(runs));
          // Each run, with the JVM's uptime, so that a slow query can be matched with a JIT or GC log.
          Suite.log(String.format(Locale.ROOT, "%s %s at %.1f s: %s", name, labels.get(q),
              java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() / 1e3, runs));
        }
        profile(name, false);
        double x = Double.parseDouble(xarray.getProperty(name, "NaN"));
        md.append(String.format(Locale.ROOT, "| %s | %.0f |", name, storedMiB(Path.of(data, name + ".zarr"))));
        for (double s : seconds.values()) {
          md.append(String.format(Locale.ROOT, " %.3f |", s));
        }
        double xm = Double.parseDouble(xarray.getProperty(name + ".map", "NaN"));
        md.append(String.format(Locale.ROOT, " %.3f | %.2f | %.3f | %.2f |", x, seconds.get("sum") / x,
            xm, seconds.get(MANY_ROWS) / xm));
        double sum = sum(spark, name);
        md.append(String.format(Locale.ROOT, " %s, %s |%n", agreement(sum, sum(spark, name + "_rows")),
            agreement(sum, Double.parseDouble(xarray.getProperty(name + ".value", "NaN")))));
        Suite.log(name + " " + seconds + " xarray " + x + " xarray map " + xm);
      }
      profile("*", false);
      System.out.println(md);
      Files.writeString(Path.of(args[4]), md.toString());
    } finally {
      spark.stop();
    }
  }

  /**
   * -DasyncProfile=FILE -DprofileStore=NAME: async-profiler over that store's timed queries only,
   * after every store's warm-up, or with NAME {@code *} over all of them (-DasyncEvent as for
   * ProfileScan; {@code alloc} finds Vector API code that C2 left as objects, as in session 41).
   */
  private static void profile(String name, boolean start) throws Exception {
    String store = System.getProperty("profileStore", "");
    boolean all = store.equals("*");
    if (start && (name.equals(store) || all && !profiling)) {
      ProfileScan.asyncProfiler("start,event=" + System.getProperty("asyncEvent", "cpu,interval=1ms") + ",threads");
      profiling = true;
    } else if (!start && profiling && (all ? name.equals("*") : name.equals(store))) {
      ProfileScan.asyncProfiler("stop,collapsed,file=" + System.getProperty("asyncProfile"));
      profiling = false;
    }
  }

  private static boolean profiling;

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }

  private static void run(SparkSession spark, String sql, String label) {
    if (label.equals(MANY_ROWS) || label.equals(FILTERED_MAP)) {
      spark.sql(sql).write().format("noop").mode("overwrite").save();
    } else {
      spark.sql(sql).collectAsList();
    }
  }

  private static double sum(SparkSession spark, String table) {
    return ((Number) spark.sql("SELECT sum(value) FROM " + table).first().get(0)).doubleValue();
  }

  /**
   * "yes" when two sums agree to 1e-5 of their size (xarray adds float32 in float32; a chunk
   * read wrong moves a sum of 512 chunks by far more), else both; "—" with nothing to compare.
   */
  static String agreement(double sum, double other) {
    if (Double.isNaN(other)) {
      return "—";
    }
    return Math.abs(sum - other) <= 1e-5 * Math.max(Math.abs(sum), Math.abs(other)) ? "yes"
        : String.format(Locale.ROOT, "NO (%.9g against %.9g)", sum, other);
  }

  static double storedMiB(Path store) throws Exception {
    try (var files = Files.walk(store)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum() / 1048576.0;
    }
  }
}
