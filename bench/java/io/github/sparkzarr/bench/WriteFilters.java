package io.github.sparkzarr.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * What option "filters" costs a write and saves on disk: {@code WriteFilters DIR SOURCE ROUNDS
 * [FILTERS...]} reads the Zarr store SOURCE (the suite's {@code raw.zarr}: its chunks, so the write
 * needs no shuffle) and writes it as v2 with blosc lz4 into DIR, once without filters and once
 * with each FILTERS JSON list, in turns, after one warm-up round; prints the median wall time and
 * the stored bytes of each.
 */
public final class WriteFilters {
  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    String source = args[1];
    int rounds = Integer.parseInt(args[2]);
    List<String> variants = new ArrayList<>(List.of(""));
    variants.addAll(List.of(args).subList(3, args.length));
    SparkSession spark = BenchSession.local("spark-zarr write filters");
    Dataset<Row> field = spark.read().format("zarr").load(source);
    List<List<Double>> times = new ArrayList<>();
    variants.forEach(v -> times.add(new ArrayList<>()));
    long[] bytes = new long[variants.size()];
    for (int r = 0; r < rounds + 1; r++) {
      for (int v = 0; v < variants.size(); v++) {
        Path out = dir.resolve("w" + v + ".zarr");
        delete(out);
        var writer = field.write().format("zarr").option("zarr_format", "2").option("compressor", "blosc");
        if (!variants.get(v).isEmpty()) {
          writer = writer.option("filters", variants.get(v));
        }
        long t0 = System.nanoTime();
        writer.save(out.toString());
        if (r > 0) { // round 0 warms up
          times.get(v).add((System.nanoTime() - t0) / 1e9);
        }
        bytes[v] = size(out.resolve("value"));
      }
    }
    for (int v = 0; v < variants.size(); v++) {
      List<Double> s = new ArrayList<>(times.get(v));
      s.sort(null);
      System.out.printf(Locale.ROOT, "[write] %-45s median %.3f s of %s, value stored %.1f MiB%n",
          variants.get(v).isEmpty() ? "no filters" : variants.get(v), s.get(s.size() / 2), times.get(v), bytes[v] / 1048576.0);
    }
    spark.stop();
  }

  private static long size(Path p) throws IOException {
    try (Stream<Path> files = Files.walk(p)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
    }
  }

  private static void delete(Path p) throws IOException {
    if (Files.exists(p)) {
      try (Stream<Path> files = Files.walk(p)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
  }
}
