package io.github.sparkzarr.spark.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.SparkTestBase;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rows reach a write task in any order (nothing sorts them): chunks are assembled in a bounded
 * buffer, and chunks staged early to keep it bounded are resumed when more of their rows come.
 * A one-byte buffer stages every chunk but the current one at each change of chunk.
 */
class WriteOrderTest extends SparkTestBase {
  @TempDir Path tmp;

  /** A 37 x 23 grid (edge chunks on both dimensions), v = 1000 t + y, w = t - y, in range order. */
  static Dataset<Row> grid() {
    return spark().sql("SELECT t, y, CAST(1000 * t + y AS DOUBLE) AS v, CAST(t - y AS INT) AS w "
        + "FROM range(37) a(t) CROSS JOIN range(23) b(y)");
  }

  /** Fails unless {@code rows} are the whole grid, every value exact. */
  static void checkGrid(List<Row> rows) {
    assertEquals(37 * 23, rows.size());
    for (Row r : rows) {
      long t = r.getLong(r.fieldIndex("t"));
      long y = r.getLong(r.fieldIndex("y"));
      assertEquals(1000.0 * t + y, r.getDouble(r.fieldIndex("v")), r.toString());
      assertEquals((int) (t - y), r.getInt(r.fieldIndex("w")), r.toString());
    }
  }

  /** The grid ordered by (y, t), or shuffled. */
  private static Dataset<Row> grid(boolean shuffled) {
    Dataset<Row> df = grid();
    return shuffled ? df.orderBy(org.apache.spark.sql.functions.rand(7)) : df.orderBy("y", "t");
  }

  private static void save(Dataset<Row> df, String path, SaveMode mode, String format, String buffer,
      String... options) {
    var w = df.write().format("zarr").mode(mode).option("zarr_format", format)
        .option("dimensions", "t,y").option("chunks", "5,4").option("fs.zarr.write.buffer.bytes", buffer);
    for (int i = 0; i < options.length; i += 2) {
      w = w.option(options[i], options[i + 1]);
    }
    w.save(path);
  }

  private static List<Row> read(String path) {
    return spark().read().format("zarr").load(path).orderBy("t", "y").collectAsList();
  }

  @ParameterizedTest
  @ValueSource(strings = {"2:1", "3:1", "2:1000000000", "3:1000000000"})
  void rowsInAnyOrderWriteExactChunks(String formatAndBuffer) {
    String[] fb = formatAndBuffer.split(":");
    for (boolean shuffled : new boolean[] {true, false}) {
      String out = tmp.resolve("g" + fb[0] + fb[1] + shuffled + ".zarr").toString();
      save(grid(shuffled), out, SaveMode.ErrorIfExists, fb[0], fb[1]);
      checkGrid(read(out));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "1000000000"})
  void aDuplicatePositionFailsWhenItsChunkWasAlreadyStaged(String buffer) {
    // (0, 0) twice, far apart in a shuffled order: its chunk is staged, maybe complete, in between.
    Dataset<Row> df = grid(true).union(spark().sql("SELECT 0L AS t, 0L AS y, 1.0D AS v, 1 AS w"))
        .orderBy(org.apache.spark.sql.functions.rand(3));
    String out = tmp.resolve("dup" + buffer + ".zarr").toString();
    Exception e = assertThrows(Exception.class, () -> save(df, out, SaveMode.ErrorIfExists, "3", buffer));
    assertTrue(String.valueOf(rootMessage(e)).contains("duplicate position (t=0, y=0)"), rootMessage(e));
  }

  @ParameterizedTest
  @ValueSource(strings = {"1", "1000000000"})
  void anAppendMergesStagedChunksWithTheOldOnes(String buffer) {
    String out = tmp.resolve("merge" + buffer + ".zarr").toString();
    save(grid(false), out, SaveMode.ErrorIfExists, "2", buffer);
    // Every other element again, shuffled, with new values: chunks are only partly covered.
    Dataset<Row> half = spark().sql("SELECT t, y, CAST(-1000 * t - y AS DOUBLE) AS v, CAST(0 AS INT) AS w "
        + "FROM range(37) a(t) CROSS JOIN range(23) b(y) WHERE (t + y) % 2 = 0")
        .orderBy(org.apache.spark.sql.functions.rand(5));
    save(half, out, SaveMode.Append, "2", buffer);
    for (Row r : read(out)) {
      long t = r.getLong(r.fieldIndex("t"));
      long y = r.getLong(r.fieldIndex("y"));
      boolean rewritten = (t + y) % 2 == 0;
      assertEquals((double) (rewritten ? -1000 * t - y : 1000 * t + y), r.getDouble(r.fieldIndex("v")), r.toString());
      assertEquals(rewritten ? 0 : (int) (t - y), r.getInt(r.fieldIndex("w")), r.toString());
    }
  }

  private static String rootMessage(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getMessage()).append(" | ");
    }
    return b.toString();
  }
}
