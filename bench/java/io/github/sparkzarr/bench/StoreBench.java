package io.github.sparkzarr.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.sum;

import io.github.sparkzarr.spark.ZarrTable;
import io.github.sparkzarr.spark.options.ZarrReadOptions;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.FileReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;

/**
 * The suite's queries and ratios on any Zarr stores, in one local[2] session: {@code StoreBench
 * OUT_DIR REPS WARMUP WRITE_REPS VAR|- STORE...} (bench/store.sh). Per store, on its variable (VAR,
 * else the one bench/xarray_store.py chose, else the dataset view's last): the full-scan sum (in
 * the scan, and with pushDownAggregate=false as queries that need rows see the scan), min and max,
 * a group-by over the second dimension, a box of about 1% of the chunks (by coordinate values where
 * the dimension has a coordinate), the mean over the first dimension grouped by the others (written
 * to Spark's no-op sink), the sum and count of the values above the variable's mean (a filter on
 * values, evaluated in the scan); WARMUP untimed rounds of everything first, then the median of REPS.
 * Unless WRITE_REPS is 0, also the other figures on the same variable: its decode limit
 * (one thread, stored bytes in memory), a Parquet copy of its rows (the sum and the box on it),
 * and the median of WRITE_REPS writes of the same DataFrame as Parquet and as Zarr. Reads
 * OUT_DIR/xarray.properties (xarray+dask's sum and mean on the same store) and
 * OUT_DIR/heap-I.properties (HeapProbe, if run); writes OUT_DIR/results.md: the figures, both sums
 * (so the answers can be seen to agree) and the ratios.
 */
public final class StoreBench {
  /**
   * One store's queries and writes, by label, and what describes them.
   *
   * @param limit the variable's decode limit, or null (see {@code noLimit})
   * @param noLimit why there is no decode limit, or null
   */
  record Store(String path, String variable, List<String> dims, String box, Map<String, Supplier<Object>> queries,
      Map<String, Runnable> writes, DecodeLimit.Result limit, String noLimit) {}

  private static final String SUM = "sum";
  private static final String BOX = "box";
  private static final String MAP = "mean over dim 0";
  private static final String FILTERED = "filtered sum";
  private static final String PARQUET_SUM = "Parquet sum";
  private static final String PARQUET_BOX = "Parquet box";
  private static final String PARQUET_WRITE = "Parquet write";
  private static final String ZARR_WRITE = "Zarr write";

  public static void main(String[] args) throws Exception {
    Path out = Path.of(args[0]).toAbsolutePath();
    Properties xarray = properties(out.resolve("xarray.properties"));
    int reps = Integer.parseInt(args[1]);
    int warmup = Integer.parseInt(args[2]);
    int writeReps = Integer.parseInt(args[3]);
    String var = args[4].equals("-") ? null : args[4];
    List<String> paths = List.of(args).subList(5, args.length);
    SparkSession spark = BenchSession.local("spark-zarr store bench");
    ProfileScan.TaskCpu cpu = new ProfileScan.TaskCpu();
    spark.sparkContext().addSparkListener(cpu);
    try {
      List<Store> stores = new ArrayList<>();
      for (int i = 0; i < paths.size(); i++) {
        String v = var != null ? var : xarray.getProperty(i + ".var");
        boolean group = "group".equals(xarray.getProperty(i + ".kind"))
            || (v != null && !"array".equals(xarray.getProperty(i + ".kind")));
        stores.add(describe(spark, "s" + i, paths.get(i), v, group, writeReps > 0 ? out.resolve("copies") : null,
            Math.max(3, reps)));
      }
      for (int w = 0; w < warmup; w++) {
        for (Store s : stores) {
          s.queries().values().forEach(Supplier::get);
        }
      }
      StringBuilder md = new StringBuilder(
          "| store | variable, dims | stored MiB | sum (task CPU) | sum, rows to Spark | min, max | group by dim 1 |"
              + " ~1% box | mean over dim 0 | xarray+dask sum | Spark ÷ xarray (sum) | xarray+dask mean |"
              + " Spark ÷ xarray (mean) | box ÷ sum | filtered sum | xarray+dask filtered sum | Spark ÷ xarray (filtered)"
              + " | sums: Spark, xarray; filtered |\n|" + "---|".repeat(18) + "\n");
      StringBuilder ratios = new StringBuilder("| store | Zarr ÷ Parquet, sum (task CPU) | ~1% box ÷ sum (task CPU)"
          + " | scan ÷ (decode limit × 2), wall (per CPU-second); the same, the limit reading the files too"
          + " | Spark ÷ xarray+dask, sum | Zarr write ÷ Parquet write"
          + " (task CPU) | heap per task, MiB (-Xmx) |\n|" + "---|".repeat(7) + "\n"
          + "| *target* | ≤ 1.0, aim 0.7 | ≤ 0.05 | ≥ 0.7 | ≤ 0.5 | ≤ 1.2 | a few chunks |\n");
      StringBuilder others = new StringBuilder("| store | Parquet sum | Parquet box | decode limit, 1 thread: s per pass"
          + " (MiB/s); files read too | Parquet write | Zarr write |\n|" + "---|".repeat(6) + "\n");
      for (int i = 0; i < stores.size(); i++) {
        Store s = stores.get(i);
        Map<String, Double> seconds = new LinkedHashMap<>();
        Map<String, Double> cpuSeconds = new LinkedHashMap<>();
        Map<String, Object> answers = new HashMap<>();
        for (Map.Entry<String, Supplier<Object>> q : s.queries().entrySet()) {
          Runs runs = Runs.time(spark, cpu, reps, () -> answers.put(q.getKey(), q.getValue().get()));
          seconds.put(q.getKey(), runs.seconds());
          cpuSeconds.put(q.getKey(), runs.cpuSeconds());
        }
        for (Map.Entry<String, Runnable> w : s.writes().entrySet()) {
          w.getValue().run(); // untimed: the first write of each kind warms it up
          Runs runs = Runs.time(spark, cpu, writeReps, w.getValue());
          seconds.put(w.getKey(), runs.seconds());
          cpuSeconds.put(w.getKey(), runs.cpuSeconds());
        }
        double xs = number(xarray.getProperty(i + ".sum"));
        double xm = number(xarray.getProperty(i + ".map"));
        double xf = number(xarray.getProperty(i + ".filtered"));
        String name = shortPath(s.path());
        md.append(String.format(Locale.ROOT, "| %s | %s (%s) | %.0f | %.3f (%.3f) |", name, s.variable(),
            String.join(", ", s.dims()), Variants.storedMiB(Path.of(s.path())), seconds.get(SUM), cpuSeconds.get(SUM)));
        for (String label : List.of("sum, rows to Spark", "min, max", "group by dim 1", BOX, MAP)) {
          md.append(cell("%.3f", seconds.getOrDefault(label, Double.NaN)));
        }
        md.append(cell("%.3f", xs)).append(cell("%.2f", seconds.get(SUM) / xs)).append(cell("%.3f", xm))
            .append(cell("%.2f", seconds.getOrDefault(MAP, Double.NaN) / xm))
            .append(cell("%.2f", seconds.get(BOX) / seconds.get(SUM)))
            .append(cell("%.3f", seconds.get(FILTERED))).append(cell("%.3f", xf))
            .append(cell("%.2f", seconds.get(FILTERED) / xf))
            .append(String.format(Locale.ROOT, " %s, %s; %s, %s |%n", answers.get(SUM), xarray.getProperty(i + ".value", "—"),
                answers.get(FILTERED), xarray.getProperty(i + ".filteredValue", "—")));

        Properties heap = properties(out.resolve("heap-" + i + ".properties"));
        ratios.append("| ").append(name).append(" |")
            .append(pair(seconds.get(SUM) / seconds.getOrDefault(PARQUET_SUM, Double.NaN),
                cpuSeconds.get(SUM) / cpuSeconds.getOrDefault(PARQUET_SUM, Double.NaN)))
            .append(cpuSeconds.get(BOX) == 0 // no task: computed on the driver (session 32)
                ? String.format(Locale.ROOT, " %.2f (no task) |", seconds.get(BOX) / seconds.get(SUM))
                : pair(seconds.get(BOX) / seconds.get(SUM), cpuSeconds.get(BOX) / cpuSeconds.get(SUM)));
        if (s.limit() != null) {
          ratios.append(String.format(Locale.ROOT, " %.2f (%.2f); %.2f (%.2f) |",
              s.limit().seconds() / (BenchSession.CORES * seconds.get(SUM)),
              s.limit().cpuSeconds() / cpuSeconds.get(SUM),
              s.limit().readSeconds() / (BenchSession.CORES * seconds.get(SUM)),
              s.limit().readCpuSeconds() / cpuSeconds.get(SUM)));
        } else {
          ratios.append(" n/a: ").append(s.noLimit()).append(" |");
        }
        ratios.append(cell("%.2f", seconds.get(SUM) / xs))
            .append(pair(seconds.getOrDefault(ZARR_WRITE, Double.NaN) / seconds.getOrDefault(PARQUET_WRITE, Double.NaN),
                cpuSeconds.getOrDefault(ZARR_WRITE, Double.NaN) / cpuSeconds.getOrDefault(PARQUET_WRITE, Double.NaN)))
            .append(heap.isEmpty() ? " — |" : " " + heap.getProperty("heap: per task = (peak - idle) / 2 (MiB)") + " ("
                + heap.getProperty("heap: scan ok with -Xmx (MiB)") + ") |")
            .append('\n');
        others.append("| ").append(name).append(" |").append(cell("%.3f", seconds.getOrDefault(PARQUET_SUM, Double.NaN)))
            .append(cell("%.3f", seconds.getOrDefault(PARQUET_BOX, Double.NaN)))
            .append(s.limit() == null ? " — |" : String.format(Locale.ROOT, " %.3f (%.0f); %.3f |", s.limit().seconds(),
                s.limit().mibPerSecond(), s.limit().readSeconds()))
            .append(cell("%.3f", seconds.getOrDefault(PARQUET_WRITE, Double.NaN)))
            .append(cell("%.3f", seconds.getOrDefault(ZARR_WRITE, Double.NaN))).append('\n');
        Suite.log(s.path() + " " + s.variable() + " box " + s.box() + " = " + answers.get(BOX) + ", Parquet box = "
            + answers.get(PARQUET_BOX) + ", " + seconds + ", task CPU " + cpuSeconds + ", limit " + s.limit()
            + ", xarray " + xs + ", xarray mean " + xm);
      }
      String text = md + "\nThe issue's ratios, wall time (task CPU):\n\n" + ratios
          + "\nThe other figures (seconds):\n\n" + others;
      System.out.println(text);
      Files.writeString(out.resolve("results.md"), text);
    } finally {
      spark.stop();
      deleteTree(out.resolve("copies"));
    }
  }

  /** The median wall and task CPU seconds of some runs of an action. */
  record Runs(double seconds, double cpuSeconds) {
    static Runs time(SparkSession spark, ProfileScan.TaskCpu cpu, int reps, Runnable action) {
      List<Double> wall = new ArrayList<>();
      List<Double> cpuRuns = new ArrayList<>();
      for (int r = 0; r < reps; r++) {
        ProfileScan.TaskCpu.waitIdle(spark);
        cpu.nanos.set(0);
        long t0 = System.nanoTime();
        action.run();
        wall.add((System.nanoTime() - t0) / 1e9);
        ProfileScan.TaskCpu.waitIdle(spark);
        cpuRuns.add(cpu.nanos.get() / 1e9);
      }
      return new Runs(Suite.median(wall), Suite.median(cpuRuns));
    }
  }

  /**
   * Registers the store's views and builds its queries; with {@code copies}, also the variable's
   * decode limit, a Parquet copy of its rows (with the sum and the box on it) and its writes.
   */
  static Store describe(SparkSession spark, String name, String path, String var, boolean group, Path copies,
      int limitPasses) throws Exception {
    Map<String, String> options = new HashMap<>();
    options.put("path", path);
    if (var != null && group) {
      options.put("variables", var);
    }
    Map<String, String> props = ZarrTable.open(ZarrReadOptions.parse(options)).properties();
    Dataset<Row> df = spark.read().format("zarr").options(options).load();
    df.createOrReplaceTempView(name);
    spark.read().format("zarr").options(options).option("pushDownAggregate", "false").load()
        .createOrReplaceTempView(name + "_rows");
    StructField[] fields = df.schema().fields();
    int rank = props.get("dimensions").split(",").length;
    List<String> dims = new ArrayList<>();
    for (int d = 0; d < rank; d++) {
      dims.add(fields[d].name());
    }
    String v = fields[fields.length - 1].name();
    Column box = box(spark, path, group, props, df);
    String q = "`" + v + "`";
    Map<String, Supplier<Object>> queries = new LinkedHashMap<>();
    queries.put(SUM, () -> collect(spark.sql("SELECT sum(" + q + ") FROM " + name)));
    queries.put("sum, rows to Spark", () -> collect(spark.sql("SELECT sum(" + q + ") FROM " + name + "_rows")));
    queries.put("min, max", () -> collect(spark.sql("SELECT min(" + q + "), max(" + q + ") FROM " + name)));
    if (rank >= 2) {
      String d1 = "`" + dims.get(1) + "`";
      queries.put("group by dim 1", () -> collect(spark.sql("SELECT " + d1 + ", avg(" + q + ") FROM " + name + " GROUP BY " + d1)));
    }
    queries.put(BOX, () -> collect(spark.table(name).filter(box).agg(sum(col(q)), count(lit(1)))));
    // Above the mean, in the column's own type (as bench/xarray_store.py casts it), so Spark compares without a cast.
    Object mean = spark.sql("SELECT avg(" + q + ") FROM " + name).first().get(0);
    String above = q + " > CAST(" + mean + " AS " + fields[fields.length - 1].dataType().sql() + ")";
    queries.put(FILTERED, () -> collect(spark.sql("SELECT sum(" + q + "), count(*) FROM " + name + " WHERE " + above)));
    if (rank >= 2) {
      String others = "`" + String.join("`, `", dims.subList(1, rank)) + "`";
      queries.put(MAP, () -> {
        spark.sql("SELECT " + others + ", avg(" + q + ") FROM " + name + " GROUP BY " + others)
            .write().format("noop").mode("overwrite").save();
        return null;
      });
    }
    Map<String, Runnable> writes = new LinkedHashMap<>();
    DecodeLimit.Result limit = null;
    String noLimit = "not measured (WRITE_REPS 0)";
    if (copies != null) {
      try (HadoopStore store = new HadoopStore(Path.of(path).toUri().toString(), new Configuration())) {
        ZarrHierarchy hierarchy = ZarrHierarchy.open(store);
        boolean rootIsArray = hierarchy.nodeType("").orElse(null) == ZarrHierarchy.NodeType.ARRAY;
        ZarrArray array = hierarchy.openArray(rootIsArray ? "" : v);
        noLimit = DecodeLimit.notApplicable(array);
        if (noLimit == null) {
          limit = DecodeLimit.measure(array, limitPasses);
        }
      }
      String parquet = copies.resolve(name + ".parquet").toString();
      df.write().mode("overwrite").parquet(parquet);
      spark.read().parquet(parquet).createOrReplaceTempView(name + "_parquet");
      queries.put(PARQUET_SUM, () -> collect(spark.sql("SELECT sum(" + q + ") FROM " + name + "_parquet")));
      queries.put(PARQUET_BOX, () -> collect(spark.table(name + "_parquet").filter(box).agg(sum(col(q)), count(lit(1)))));
      Dataset<Row> rows = withPositions(df, rank);
      String written = copies.resolve(name + "-written").toString();
      writes.put(PARQUET_WRITE, () -> rows.write().mode("overwrite").parquet(written + ".parquet"));
      writes.put(ZARR_WRITE, () -> rows.write().format("zarr").mode("overwrite").save(written + ".zarr"));
    }
    return new Store(path, v, dims, box.toString(), queries, writes, limit, noLimit);
  }

  /**
   * The rows a write takes: a dimension column that holds coordinate values (not positions) needs
   * its positions beside it, which reads give as the hidden column {@code <dim>_index}
   * (docs/writing.md).
   */
  static Dataset<Row> withPositions(Dataset<Row> df, int rank) {
    List<Column> columns = new ArrayList<>(List.of(col("*")));
    for (int d = 0; d < rank; d++) {
      StructField f = df.schema().fields()[d];
      if (!List.of(DataTypes.ByteType, DataTypes.ShortType, DataTypes.IntegerType, DataTypes.LongType)
          .contains(f.dataType())) {
        columns.add(col(f.name() + "_index"));
      }
    }
    return df.select(columns.toArray(new Column[0]));
  }

  /**
   * About 1% of the chunks: the first chunk along every dimension but the first, and along the
   * first as many chunks as make 1% of all (at least one). A dimension with a coordinate is cut by
   * its values, as users write boxes; one without, by position.
   */
  static Column box(SparkSession spark, String path, boolean group, Map<String, String> props, Dataset<Row> df) {
    long[] shape = longs(props.get("shape"));
    long[] chunks = longs(props.get("chunks"));
    long total = 1;
    long[] grid = new long[shape.length];
    for (int d = 0; d < shape.length; d++) {
      grid[d] = Math.max(1, (shape[d] + chunks[d] - 1) / chunks[d]);
      total *= grid[d];
    }
    long first = Math.max(1, Math.min(grid[0], Math.round(total * 0.01 / (total / grid[0]))));
    Column box = lit(true);
    String[] names = props.get("dimensions").split(",");
    for (int d = 0; d < shape.length; d++) {
      long end = Math.min(shape[d], (d == 0 ? first : 1) * chunks[d]);
      String column = df.schema().fields()[d].name();
      Dataset<Row> coordinate = group ? coordinate(spark, path, names[d]) : null;
      if (coordinate == null) {
        box = box.and(col(column).lt(end));
      } else if (!coordinate.schema().apply(names[d]).dataType().equals(df.schema().fields()[d].dataType())) {
        box = box.and(col(names[d] + "_index").lt(end));
      } else {
        Row bounds = coordinate.filter(col(names[d] + "_index").lt(end)).agg(min(names[d]), max(names[d])).first();
        box = box.and(col(column).between(bounds.get(0), bounds.get(1)));
      }
    }
    return box;
  }

  /** The dimension's coordinate array read alone (columns {@code <dim>_index}, {@code <dim>}), or null if none. */
  static Dataset<Row> coordinate(SparkSession spark, String path, String dim) {
    try {
      return spark.read().format("zarr").option("array", dim).load(path);
    } catch (Exception e) {
      return null;
    }
  }

  private static Object collect(Dataset<Row> df) {
    List<Row> rows = df.collectAsList();
    return rows.size() == 1 ? rows.get(0).mkString(", ") : rows.size() + " rows";
  }

  /** A cell of two ratios, "a (b)". */
  private static String pair(double a, double b) {
    return Double.isNaN(a) ? " — |" : String.format(Locale.ROOT, " %.2f (%.2f) |", a, b);
  }

  /** A properties file, empty if there is none. */
  private static Properties properties(Path file) throws java.io.IOException {
    Properties p = new Properties();
    if (Files.exists(file)) {
      try (FileReader r = new FileReader(file.toFile())) {
        p.load(r);
      }
    }
    return p;
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** A table cell; a dash for a figure there is none of (no such query, or xarray cannot read the store). */
  private static String cell(String format, double x) {
    return Double.isNaN(x) ? " — |" : String.format(Locale.ROOT, " " + format + " |", x);
  }

  /** The path relative to the working directory when it lies below it. */
  private static String shortPath(String path) {
    Path cwd = Path.of("").toAbsolutePath();
    Path p = Path.of(path).toAbsolutePath();
    return p.startsWith(cwd) ? cwd.relativize(p).toString() : path;
  }

  private static long[] longs(String csv) {
    String[] parts = csv.split(",");
    long[] out = new long[parts.length];
    for (int i = 0; i < parts.length; i++) {
      out[i] = Long.parseLong(parts[i].trim());
    }
    return out;
  }

  private static double number(String s) {
    if (s == null) {
      return Double.NaN;
    }
    return s.equalsIgnoreCase("nan") ? Double.NaN : Double.parseDouble(s);
  }
}
