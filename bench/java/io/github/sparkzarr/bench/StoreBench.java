package io.github.sparkzarr.bench;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;
import static org.apache.spark.sql.functions.sum;

import io.github.sparkzarr.spark.ZarrTable;
import io.github.sparkzarr.spark.options.ZarrReadOptions;
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
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructField;

/**
 * The suite's queries on any Zarr stores, in one local[2] session: {@code StoreBench
 * XARRAY.properties RESULTS.md REPS WARMUP VAR|- STORE...} (bench/store.sh). Per store, on its
 * variable (VAR, else the one bench/xarray_store.py chose, else the dataset view's last): the
 * full-scan sum (in the scan, and with pushDownAggregate=false as queries that need rows see the
 * scan), min and max, a group-by over the second dimension, a box of about 1% of the chunks (by
 * coordinate values where the dimension has a coordinate), the mean over the first dimension
 * grouped by the others (written to Spark's no-op sink); WARMUP untimed rounds of everything first,
 * then the median of REPS; the ratios to xarray+dask's sum and mean on the same store, and both
 * sums, so the answers can be seen to agree.
 */
public final class StoreBench {
  /** One store's queries, by label, and what describes them. */
  record Store(String path, String variable, List<String> dims, String box, Map<String, Supplier<Object>> queries) {}

  private static final String SUM = "sum";
  private static final String MAP = "mean over dim 0";

  public static void main(String[] args) throws Exception {
    Properties xarray = new Properties();
    try (FileReader r = new FileReader(args[0])) {
      xarray.load(r);
    }
    int reps = Integer.parseInt(args[2]);
    int warmup = Integer.parseInt(args[3]);
    String var = args[4].equals("-") ? null : args[4];
    List<String> paths = List.of(args).subList(5, args.length);
    SparkSession spark = BenchSession.local("spark-zarr store bench");
    ProfileScan.TaskCpu cpu = new ProfileScan.TaskCpu();
    spark.sparkContext().addSparkListener(cpu);
    try {
      List<Store> stores = new ArrayList<>();
      for (int i = 0; i < paths.size(); i++) {
        String v = var != null ? var : xarray.getProperty(i + ".var");
        stores.add(describe(spark, "s" + i, paths.get(i), v, "group".equals(xarray.getProperty(i + ".kind"))
            || (v != null && !"array".equals(xarray.getProperty(i + ".kind")))));
      }
      for (int w = 0; w < warmup; w++) {
        for (Store s : stores) {
          s.queries().values().forEach(Supplier::get);
        }
      }
      StringBuilder md = new StringBuilder(
          "| store | variable, dims | stored MiB | sum (task CPU) | sum, rows to Spark | min, max | group by dim 1 |"
              + " ~1% box | mean over dim 0 | xarray+dask sum | Spark ÷ xarray (sum) | xarray+dask mean |"
              + " Spark ÷ xarray (mean) | box ÷ sum | sums: Spark, xarray |\n|" + "---|".repeat(15) + "\n");
      for (int i = 0; i < stores.size(); i++) {
        Store s = stores.get(i);
        Map<String, Double> seconds = new LinkedHashMap<>();
        Map<String, Object> answers = new HashMap<>();
        double sumCpu = 0;
        for (Map.Entry<String, Supplier<Object>> q : s.queries().entrySet()) {
          List<Double> runs = new ArrayList<>();
          List<Double> cpuRuns = new ArrayList<>();
          for (int r = 0; r < reps; r++) {
            ProfileScan.TaskCpu.waitIdle(spark);
            cpu.nanos.set(0);
            long t0 = System.nanoTime();
            answers.put(q.getKey(), q.getValue().get());
            runs.add((System.nanoTime() - t0) / 1e9);
            ProfileScan.TaskCpu.waitIdle(spark);
            cpuRuns.add(cpu.nanos.get() / 1e9);
          }
          seconds.put(q.getKey(), Suite.median(runs));
          if (q.getKey().equals(SUM)) {
            sumCpu = Suite.median(cpuRuns);
          }
        }
        double xs = number(xarray.getProperty(i + ".sum"));
        double xm = number(xarray.getProperty(i + ".map"));
        md.append(String.format(Locale.ROOT, "| %s | %s (%s) | %.0f | %.3f (%.3f) |", shortPath(s.path()), s.variable(),
            String.join(", ", s.dims()), Variants.storedMiB(Path.of(s.path())), seconds.get(SUM), sumCpu));
        for (String label : List.of("sum, rows to Spark", "min, max", "group by dim 1", "box", MAP)) {
          md.append(cell("%.3f", seconds.getOrDefault(label, Double.NaN)));
        }
        md.append(cell("%.3f", xs)).append(cell("%.2f", seconds.get(SUM) / xs)).append(cell("%.3f", xm))
            .append(cell("%.2f", seconds.getOrDefault(MAP, Double.NaN) / xm))
            .append(cell("%.2f", seconds.get("box") / seconds.get(SUM)))
            .append(String.format(Locale.ROOT, " %s, %s |%n", answers.get(SUM), xarray.getProperty(i + ".value", "—")));
        Suite.log(s.path() + " " + s.variable() + " box " + s.box() + " = " + answers.get("box") + ", " + seconds
            + ", sum task CPU " + sumCpu + ", xarray " + xs + ", xarray mean " + xm);
      }
      System.out.println(md);
      Files.writeString(Path.of(args[1]), md.toString());
    } finally {
      spark.stop();
    }
  }

  /** Registers the store's views and builds its queries. */
  static Store describe(SparkSession spark, String name, String path, String var, boolean group) {
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
    queries.put("box", () -> collect(spark.table(name).filter(box).agg(sum(col(q)), count(lit(1)))));
    if (rank >= 2) {
      String others = "`" + String.join("`, `", dims.subList(1, rank)) + "`";
      queries.put(MAP, () -> {
        spark.sql("SELECT " + others + ", avg(" + q + ") FROM " + name + " GROUP BY " + others)
            .write().format("noop").mode("overwrite").save();
        return null;
      });
    }
    return new Store(path, v, dims, box.toString(), queries);
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
