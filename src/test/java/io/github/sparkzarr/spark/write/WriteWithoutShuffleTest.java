package io.github.sparkzarr.spark.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.SparkTestBase;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.util.QueryExecutionListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writes that skip Spark's shuffle: a DataFrame read from Zarr keeps its chunks and is written
 * back without one (shuffle=auto), and with shuffle=false chunks split across tasks are merged by
 * the job commit. Every value is checked, and the write's physical plan is checked for an Exchange.
 */
class WriteWithoutShuffleTest extends SparkTestBase {
  @TempDir Path tmp;
  private final List<String> plans = new ArrayList<>();
  private final QueryExecutionListener listener = new QueryExecutionListener() {
    @Override
    public void onSuccess(String funcName, QueryExecution qe, long durationNs) {
      synchronized (plans) {
        plans.add(qe.executedPlan().toString());
      }
    }

    @Override
    public void onFailure(String funcName, QueryExecution qe, Exception exception) {}
  };

  @BeforeEach
  void listen() {
    spark().listenerManager().register(listener);
  }

  @AfterEach
  void stopListening() {
    spark().listenerManager().unregister(listener);
  }

  private static Dataset<Row> grid() {
    return WriteOrderTest.grid();
  }

  private static void checkGrid(String path) {
    WriteOrderTest.checkGrid(spark().read().format("zarr").load(path).collectAsList());
  }

  /** A store of the grid with chunks {@code chunks}, written with Spark's shuffle. */
  private String source(String format, String chunks) {
    String src = tmp.resolve("src-" + format + "-" + chunks.replace(',', 'x') + ".zarr").toString();
    grid().write().format("zarr").option("dimensions", "t,y").option("chunks", chunks)
        .option("zarr_format", format).save(src);
    return src;
  }

  /**
   * The physical plan of the last write node (a path write is a CTAS whose plan holds the write of
   * the rows as a separate execution).
   */
  private String lastWritePlan() throws java.util.concurrent.TimeoutException {
    spark().sparkContext().listenerBus().waitUntilEmpty(30_000);
    synchronized (plans) {
      for (int i = plans.size() - 1; i >= 0; i--) {
        if (plans.get(i).contains(ZarrWrite.class.getName() + "@")) {
          return plans.get(i);
        }
      }
    }
    throw new AssertionError("no write was seen: " + plans);
  }

  private static int[] chunksOf(String path, String array) throws Exception {
    HadoopStore store = new HadoopStore(path, new Configuration());
    return ZarrHierarchy.open(store).openArray(array).metadata().chunkShape();
  }

  @ParameterizedTest
  @ValueSource(strings = {"2", "3"})
  void aZarrReadIsWrittenBackWithItsChunksAndNoShuffle(String format) throws Exception {
    String src = source(format, "5,4");
    String out = tmp.resolve("copy" + format + ".zarr").toString();
    spark().read().format("zarr").load(src).write().format("zarr").save(out);
    String plan = lastWritePlan();
    assertFalse(plan.contains("Exchange"), plan);
    assertArrayEquals(new int[] {5, 4}, chunksOf(out, "v"));
    checkGrid(out);

    // The same write asked to shuffle has an Exchange, so the check above can fail.
    String shuffled = tmp.resolve("shuffled" + format + ".zarr").toString();
    spark().read().format("zarr").load(src).write().format("zarr").option("shuffle", "true").save(shuffled);
    assertTrue(lastWritePlan().contains("Exchange"), lastWritePlan());
    checkGrid(shuffled);
  }

  @Test
  void chunksThatTileTheReadChunksNeedNoShuffleAndOthersDo() throws Exception {
    String src = source("3", "10,8");
    String smaller = tmp.resolve("smaller.zarr").toString();
    spark().read().format("zarr").load(src).write().format("zarr").option("chunks", "5,4").save(smaller);
    assertFalse(lastWritePlan().contains("Exchange"), lastWritePlan());
    assertArrayEquals(new int[] {5, 4}, chunksOf(smaller, "v"));
    checkGrid(smaller);

    String larger = tmp.resolve("larger.zarr").toString();
    spark().read().format("zarr").load(src).write().format("zarr").option("chunks", "20,8").save(larger);
    assertTrue(lastWritePlan().contains("Exchange"), lastWritePlan());
    checkGrid(larger);
  }

  @ParameterizedTest
  @ValueSource(strings = {"2", "3"})
  void withShuffleFalseChunksSplitAcrossTasksAreMerged(String format) throws Exception {
    String out = tmp.resolve("split" + format + ".zarr").toString();
    // Round-robin over 3 tasks: every chunk has rows in every task.
    grid().repartition(3).write().format("zarr").option("dimensions", "t,y").option("chunks", "5,4")
        .option("zarr_format", format).option("shuffle", "false").save(out);
    assertFalse(lastWritePlan().contains("ZarrChunkFunction"), lastWritePlan());
    checkGrid(out);
    assertTrue(Files.list(tmp).noneMatch(p -> p.getFileName().toString().contains("staging")),
        "the staging directory is gone");

    // An append of every other element, split across tasks, merges with the old elements too.
    spark().sql("SELECT t, y, CAST(-1000 * t - y AS DOUBLE) AS v, CAST(0 AS INT) AS w "
        + "FROM range(37) a(t) CROSS JOIN range(23) b(y) WHERE (t + y) % 2 = 0").repartition(3)
        .write().format("zarr").mode(SaveMode.Append).option("shuffle", "false").save(out);
    for (Row r : spark().read().format("zarr").load(out).collectAsList()) {
      long t = r.getLong(r.fieldIndex("t"));
      long y = r.getLong(r.fieldIndex("y"));
      boolean rewritten = (t + y) % 2 == 0;
      assertEquals((double) (rewritten ? -1000 * t - y : 1000 * t + y), r.getDouble(r.fieldIndex("v")), r.toString());
      assertEquals(rewritten ? 0 : (int) (t - y), r.getInt(r.fieldIndex("w")), r.toString());
    }
  }

  @Test
  void aPositionWrittenByTwoTasksFailsAndLeavesNothing() {
    String out = tmp.resolve("dup.zarr").toString();
    Dataset<Row> df = grid().repartition(2)
        .union(spark().sql("SELECT 3L AS t, 2L AS y, 1.0D AS v, 1 AS w").repartition(1));
    Exception e = assertThrows(Exception.class, () -> df.write().format("zarr")
        .option("dimensions", "t,y").option("chunks", "5,4").option("shuffle", "false").save(out));
    String message = WriteModesTest.rootMessage(e);
    assertTrue(message.contains("duplicate position") && message.contains("[3, 2]")
        && message.contains("v/c/0/0"), message);
    assertFalse(Files.exists(Path.of(out)), "nothing is published");
  }

  @Test
  void regroupedReadRowsFailWithAdviceAndShuffleTrueWrites() {
    String src = source("3", "2,2");  // 19 x 12 = 228 chunks: two tasks leave most of them partial
    Dataset<Row> regrouped = spark().read().format("zarr").load(src).repartition(2);
    String out = tmp.resolve("regrouped.zarr").toString();
    Exception e = assertThrows(Exception.class, () -> regrouped.write().format("zarr").save(out));
    assertTrue(WriteModesTest.rootMessage(e).contains("shuffle=true"), WriteModesTest.rootMessage(e));
    assertFalse(Files.exists(Path.of(out)), "nothing is published");

    regrouped.write().format("zarr").option("shuffle", "true").save(out);
    checkGrid(out);
  }

  @Test
  void aBadShuffleValueIsRejected() throws Exception {
    Exception e = assertThrows(Exception.class, () -> grid().write().format("zarr")
        .option("dimensions", "t,y").option("shuffle", "sometimes").save(tmp.resolve("bad.zarr").toString()));
    assertTrue(WriteModesTest.rootMessage(e).contains("option 'shuffle' must be auto, true or false"), WriteModesTest.rootMessage(e));
  }
}
