package io.github.sparkzarr.spark.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.SparkTestBase;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Save modes, append and append_dim, bad positions, and failed jobs. */
class WriteModesTest extends SparkTestBase {
  @TempDir Path tmp;

  private static Dataset<Row> grid(int times, double base) {
    return spark().sql("SELECT t, y, CAST(" + base + " + t * 10 + y AS DOUBLE) AS v "
        + "FROM range(" + times + ") a(t) CROSS JOIN range(3) b(y)");
  }

  private static void save(Dataset<Row> df, String path, SaveMode mode, String... options) {
    var w = df.write().format("zarr").option("zarr_format", "2").mode(mode).option("dimensions", "t,y").option("chunks", "2,2");
    for (int i = 0; i < options.length; i += 2) {
      w = w.option(options[i], options[i + 1]);
    }
    w.save(path);
  }

  private static List<Row> read(String path) {
    return spark().read().format("zarr").load(path).orderBy("t", "y").collectAsList();
  }

  private boolean noStagingLeft() throws Exception {
    try (var files = Files.walk(tmp)) {
      return files.noneMatch(p -> p.getFileName().toString().contains("spark-zarr-staging"));
    }
  }

  @Test
  void errorIfExistsIsTheDefaultAndIgnoreLeavesTheTarget() throws Exception {
    String out = tmp.resolve("a.zarr").toString();
    grid(4, 0).write().format("zarr").option("zarr_format", "2").option("dimensions", "t,y").save(out);
    Exception e = assertThrows(Exception.class,
        () -> grid(4, 100).write().format("zarr").option("zarr_format", "2").option("dimensions", "t,y").save(out));
    assertTrue(e.getMessage().contains("already exists"), e.getMessage());
    save(grid(2, 100), out, SaveMode.Ignore);
    assertEquals(12, read(out).size());
    assertEquals(0.0, read(out).get(0).getDouble(2));
  }

  @Test
  void overwriteReplacesEverything() throws Exception {
    String out = tmp.resolve("o.zarr").toString();
    save(grid(4, 0).withColumn("w", org.apache.spark.sql.functions.lit(1.0)), out, SaveMode.Overwrite);
    save(grid(3, 100), out, SaveMode.Overwrite);
    List<Row> rows = read(out);
    assertEquals(9, rows.size());
    assertEquals(List.of("t", "y", "v"), List.of(spark().read().format("zarr").load(out).columns()));
    assertEquals(100.0, rows.get(0).getDouble(2));
    assertFalse(new File(out, "w").exists(), "the old array is gone");
    assertTrue(noStagingLeft());
  }

  @Test
  void appendAddsArraysToTheGroup() throws Exception {
    String out = tmp.resolve("g.zarr").toString();
    save(grid(4, 0), out, SaveMode.ErrorIfExists);
    save(grid(4, 0).selectExpr("t", "y", "v * 2 AS w"), out, SaveMode.Append);
    List<Row> rows = spark().read().format("zarr").load(out).selectExpr("t", "y", "v", "w")
        .orderBy("t", "y").collectAsList();
    assertEquals(12, rows.size());
    assertEquals(rows.get(5).getDouble(2) * 2, rows.get(5).getDouble(3));
  }

  @Test
  void appendDimExtendsArraysAlongADimension() throws Exception {
    String out = tmp.resolve("ad.zarr").toString();
    save(grid(3, 0), out, SaveMode.ErrorIfExists);
    // new rows count positions from 0 along append_dim, as xarray's to_zarr(append_dim=...) does
    save(grid(2, 1000), out, SaveMode.Append, "append_dim", "t");
    List<Row> rows = read(out);
    assertEquals(15, rows.size());
    assertEquals(21.0, rows.get(7).getDouble(2), "old chunk (partly rewritten) keeps t=2");
    assertEquals(1000.0, rows.get(9).getDouble(2), "t=3 is the appended t=0");
    assertEquals(1012.0, rows.get(14).getDouble(2));
  }

  @Test
  void duplicatePositionsFailNamingThem() throws Exception {
    String out = tmp.resolve("dup.zarr").toString();
    Dataset<Row> df = grid(3, 0).union(spark().sql("SELECT 1L AS t, 2L AS y, 5.0D AS v"));
    Exception e = assertThrows(Exception.class, () -> save(df, out, SaveMode.ErrorIfExists));
    assertTrue(rootMessage(e).contains("duplicate position (t=1, y=2)"), rootMessage(e));
    assertFalse(new File(out).exists());
    assertTrue(noStagingLeft());
  }

  @Test
  void positionsOutsideTheShapeFailNamingThem() throws Exception {
    String out = tmp.resolve("oob.zarr").toString();
    Exception e = assertThrows(Exception.class,
        () -> save(grid(3, 0), out, SaveMode.ErrorIfExists, "shape", "2,3"));
    assertTrue(rootMessage(e).contains("position 2 in column 't' is outside the array"), rootMessage(e));
    Dataset<Row> negative = spark().sql("SELECT -1L AS t, 0L AS y, 1.0D AS v");
    e = assertThrows(Exception.class, () -> save(negative, out, SaveMode.ErrorIfExists));
    assertTrue(rootMessage(e).contains("position -1 in column 't'"), rootMessage(e));
    assertFalse(new File(out).exists());
  }

  /**
   * Fails inside the write task holding t = failT (its int column is null there and ints have no
   * fill value), after the tasks of other chunks have staged theirs.
   */
  private static Dataset<Row> failingAt(int times, long failT) {
    return grid(times, 500).selectExpr("t", "y",
        "CAST(IF(t = " + failT + ", NULL, v) AS INT) AS v");
  }

  @Test
  void aFailedJobLeavesNoArrayAndNoStagingDebris() throws Exception {
    String out = tmp.resolve("fail.zarr").toString();
    Exception e = assertThrows(Exception.class, () -> save(failingAt(8, 5), out, SaveMode.ErrorIfExists));
    assertTrue(rootMessage(e).contains("column 'v' is null at (t=5, y=0)"), rootMessage(e));
    assertFalse(new File(out).exists(), "no visible array");
    assertTrue(noStagingLeft(), "no staging debris");
  }

  @Test
  void aFailedOverwriteLeavesTheOldArrayReadable() throws Exception {
    String out = tmp.resolve("keep.zarr").toString();
    save(grid(4, 0), out, SaveMode.ErrorIfExists);
    assertThrows(Exception.class, () -> save(failingAt(8, 6), out, SaveMode.Overwrite));
    List<Row> rows = read(out);
    assertEquals(12, rows.size());
    assertEquals(0.0, rows.get(0).getDouble(2));
    assertTrue(noStagingLeft());
  }

  @Test
  void eachChunkIsWrittenByOneTask() throws Exception {
    String out = tmp.resolve("m.zarr").toString();
    // 9 x 3 positions in 2 x 2 chunks: 5 x 2 chunks per array
    save(grid(9, 0).repartition(4), out, SaveMode.ErrorIfExists);
    try (var files = Files.list(Path.of(out, "v"))) {
      List<String> chunks = files.map(p -> p.getFileName().toString())
          .filter(n -> !n.startsWith(".")).sorted().collect(Collectors.toList());
      assertEquals(10, chunks.size(), chunks.toString());
    }
    Dataset<Row> sql = spark().sql("SELECT zarr.zarr_chunk(t, 2) AS c, count(*) AS n FROM "
        + "zarr.`" + out + "` GROUP BY 1 ORDER BY 1");
    assertEquals(List.of(6L, 6L, 6L, 6L, 3L),
        sql.collectAsList().stream().map(r -> r.getLong(1)).collect(Collectors.toList()));
  }

  static String rootMessage(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append(" | ");
    }
    return b.toString();
  }
}
