package io.github.sparkzarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.read.metrics.ChunksPlannedMetric;
import io.github.sparkzarr.spark.read.metrics.ChunksReadMetric;
import io.github.sparkzarr.spark.read.metrics.ChunksSkippedMetric;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.HalfFloat;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Filters on dimension columns prune chunks (seen in the scan metrics) and never change results;
 * partitions pack whole chunks; LIMIT, COUNT/MIN/MAX and statistics come from metadata.
 *
 * <p>The store, written with our own writer: y (40, decreasing 100..61, chunks of 8) and x (100,
 * increasing 0, 0.5, ..., chunks of 10) coordinates; v(y, x) float64 on 8x10 chunks, its chunk
 * (0, 0) never written (fill -1, so null in the dataset view); w(y, x) int32 on 5x25 chunks.
 */
class ZarrPushdownTest extends SparkTestBase {
  private static String store;

  @BeforeAll
  static void write() throws Exception {
    Path dir = Files.createTempDirectory("zarr-pushdown").resolve("grid.zarr");
    store = dir.toString();
    HadoopStore s = new HadoopStore(store, new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    ZarrArray x = array(s, "x", "<f8", new long[] {100}, new int[] {10}, List.of("x"), 0);
    ZarrArray y = array(s, "y", "<f8", new long[] {40}, new int[] {8}, List.of("y"), 0);
    ZarrArray v = array(s, "v", "<f8", new long[] {40, 100}, new int[] {8, 10}, List.of("y", "x"), -1);
    ZarrArray w = array(s, "w", "<i4", new long[] {40, 100}, new int[] {5, 25}, List.of("y", "x"), -1);
    writeAll(x, (i, j) -> i * 0.5);
    writeAll(y, (i, j) -> 100.0 - i);
    writeAll(v, (i, j) -> i * 1000.0 + j);
    writeAll(w, (i, j) -> (double) (i + j));
    s.delete("v/0.0");
    ZarrHierarchy.consolidateV2(s);
    dir.toFile().deleteOnExit();
  }

  static ZarrArray array(HadoopStore s, String name, String dtype, long[] shape, int[] chunks,
      List<String> dims, int fill) throws Exception {
    return array(s, name, dtype, shape, chunks, dims, fill == 0 ? null : Json.nodes().numberNode(fill));
  }

  /** A v2 array without compression; {@code fill} is its JSON fill value, or null for none. */
  static ZarrArray array(HadoopStore s, String name, String dtype, long[] shape, int[] chunks,
      List<String> dims, com.fasterxml.jackson.databind.JsonNode fill) throws Exception {
    DataType t = NumpyDtype.parse(dtype);
    ArrayMetadata md = new ArrayMetadata(2, shape, chunks, t, FillValue.parseV2(fill, t),
        new V2ChunkCodec(t, false, List.of(), null), ChunkKeyEncoding.v2('.'), dims, Json.object());
    return ZarrHierarchy.writeArrayV2(s, name, md);
  }

  interface Value {
    double at(long i, long j);
  }

  /** Writes every chunk of a 1-D or 2-D array with value(i, j) at position (i, j). */
  static void writeAll(ZarrArray a, Value value) throws Exception {
    DataType t = a.metadata().dataType();
    writeEach(a, (b, i, j) -> {
      double val = value.at(i, j);
      if (t.kind() == DataType.Kind.FLOAT && t.size() == 4) {
        b.putFloat((float) val);
      } else if (t.kind() == DataType.Kind.FLOAT && t.size() == 2) {
        b.putShort(HalfFloat.fromDouble(val));
      } else if (t.size() == 4) {
        b.putInt((int) (long) val); // uint32 values above 2^31 keep their bits
      } else if (t.size() == 2) {
        b.putShort((short) (long) val);
      } else if (t.size() == 1) {
        b.put((byte) (long) val);
      } else if (t.kind() == DataType.Kind.INT) {
        b.putLong((long) val);
      } else {
        b.putDouble(val);
      }
    });
  }

  interface LongValue {
    long at(long i, long j);
  }

  /** {@link #writeAll} of an int64 array, every value exact (beyond 2^53 too). */
  static void writeAllLongs(ZarrArray a, LongValue value) throws Exception {
    writeEach(a, (b, i, j) -> b.putLong(value.at(i, j)));
  }

  private interface ElementWriter {
    void put(ByteBuffer chunk, long i, long j);
  }

  /** Every chunk of a 1-D or 2-D array, its elements put in order by {@code element}. */
  private static void writeEach(ZarrArray a, ElementWriter element) throws Exception {
    ArrayMetadata md = a.metadata();
    int[] c = md.chunkShape();
    long[] grid = md.gridShape();
    boolean twoD = md.rank() == 2;
    for (long gi = 0; gi < grid[0]; gi++) {
      for (long gj = 0; gj < (twoD ? grid[1] : 1); gj++) {
        int n = md.chunkElementCount();
        ByteBuffer b = ByteBuffer.allocate(n * md.dataType().size()).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < n; k++) {
          element.put(b, gi * c[0] + (twoD ? k / c[1] : k), twoD ? gj * c[1] + k % c[1] : 0);
        }
        a.writeChunk(twoD ? new long[] {gi, gj} : new long[] {gi}, ChunkData.ofBytes(a.memoryType(), c, b.array()));
      }
    }
  }

  private static Dataset<Row> grid() {
    return spark().read().format("zarr").load(store);
  }

  @Test
  void filtersOnCoordinatesPruneChunks() {
    Dataset<Row> df = grid().where("x BETWEEN 10 AND 14.5 AND y > 90");
    List<Row> rows = df.collectAsList();
    assertEquals(10 * 10, rows.size());
    Map<String, Long> m = scanMetrics(df);
    // x in [10, 14.5] is positions 20..29 (x chunk 2 of 10); y > 90 is positions 0..9 (y chunks 0-1 of 5).
    assertEquals(2, m.get(ChunksPlannedMetric.NAME));
    assertEquals(48, m.get(ChunksSkippedMetric.NAME));
    assertTrue(m.get(ChunksReadMetric.NAME) > 0);
  }

  @Test
  void withoutFiltersEveryChunkIsPlanned() {
    Dataset<Row> df = grid().select("v");
    assertEquals(4000, df.collectAsList().size());
    Map<String, Long> m = scanMetrics(df);
    assertEquals(50, m.get(ChunksPlannedMetric.NAME));
    assertEquals(0, m.get(ChunksSkippedMetric.NAME));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "x < 3", "x <= 3", "x = 12.5", "x IN (1.0, 40.0, 49.5)", "y BETWEEN 70 AND 80", "y > 99.5",
      "NOT (x < 20)", "x < 5 OR x > 45", "x < 5 OR y > 95", "NOT (x < 5 OR y > 95)", "x > 1000",
      "y_index >= 33", "x_index = 7 AND y < 65", "NOT (x_index IN (1, 2, 3))", "12.5 > x",
      "x <=> 0.5", "w > 100 AND x < 10", "v IS NULL", "x = 3.25",
      "x IS NOT NULL AND y_index < 3", "y IS NULL", "NOT (y IS NULL) AND x_index IN (0, 99)",
      "x_index IN (1, 2, 3) AND y_index BETWEEN 5 AND 20", "x >= 49.5", "y = 61.0", "NOT (y_index <= 3)",
      "y < 95.5 AND y >= 62 AND x > 0.25 AND x <= 30", "x_index > 97 OR x_index < 1", "x = 3", "y_index = 39.0",
      "x > 2.5D", "y < CAST(70 AS FLOAT)", "x_index < 2 AND x > 0.0 OR y_index = 4"})
  void pushdownNeverChangesResults(String filter) {
    Dataset<Row> all = grid().select("y_index", "x_index", "y", "x", "v", "w");
    Dataset<Row> unpushed = spark().createDataFrame(all.collectAsList(), all.schema());
    List<String> pushed = grid().select("y_index", "x_index", "y", "x", "v", "w").where(filter)
        .collectAsList().stream().map(Row::toString).sorted().toList();
    List<String> plain = unpushed.where(filter).collectAsList().stream().map(Row::toString).sorted().toList();
    assertEquals(plain, pushed, filter);
    // No column read: the scan counts the selected rows (in the scan, or as empty rows for Spark).
    assertEquals(plain.size(), grid().where(filter).count(), filter);
    assertEquals(plain.size(), spark().read().format("zarr").option("pushDownAggregate", "false").load(store)
        .select("y_index", "x_index", "y", "x", "v", "w").where(filter).count(), filter);
  }

  /**
   * Exact filters (comparisons of dimension or position columns with literals of their type, IN,
   * AND, NOT, IS [NOT] NULL) and filters on variables' values (ValueFilterPushdownTest) are
   * evaluated by the scan alone; the others are pruned on and left to Spark. Either way the rows are those of the unpushed query (above).
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "x BETWEEN 10 AND 14.5 AND y > 90|true", "x_index IN (1, 2, 3) AND NOT (y_index <= 3)|true",
      "x IS NOT NULL AND y = 61.0|true", "x < 5 OR x > 45|true",
      "x < 5 OR y > 95|false", "w > 100 AND x < 10|true", "v IS NULL|true", "abs(w) > 100|false",
      "w > 100 OR x < 10|false"})
  void exactFiltersAreNotEvaluatedAgain(String filterAndExact) {
    String filter = filterAndExact.split("\\|")[0];
    boolean exact = Boolean.parseBoolean(filterAndExact.split("\\|")[1]);
    Dataset<Row> df = grid().select("y_index", "x_index", "y", "x", "v", "w").where(filter);
    String plan = plan(df);
    assertTrue(!exact || plan.contains("pushedFilters="), plan);
    assertEquals(!exact, plan.contains(" Filter "), plan);
  }

  @Test
  void limitAfterAnExactFilterReadsOnlyTheChunksItNeeds() {
    Dataset<Row> df = spark().read().format("zarr").option("maxPartitionBytes", "1").load(store)
        .where("x_index >= 50 AND y_index > 10").select("x_index", "y_index", "v").limit(5);
    List<Row> rows = df.collectAsList();
    assertEquals(5, rows.size());
    for (Row r : rows) {
      assertTrue(r.getLong(0) >= 50 && r.getLong(1) > 10, r.toString());
    }
    assertEquals(1, df.rdd().getNumPartitions());
  }

  @Test
  void nullsForTheMissingChunkAndBroadcastOfOtherGrids() {
    assertEquals(8 * 10, grid().where("v IS NULL").count());
    Row r = grid().where("y_index = 13 AND x_index = 57").select("v", "w").first();
    assertEquals(13057.0, r.getDouble(0));
    assertEquals(70, r.getInt(1));
  }

  @Test
  void partitionsPackWholeChunksUpToTheTarget() {
    assertEquals(50, spark().read().format("zarr").option("maxPartitionBytes", "1").load(store)
        .rdd().getNumPartitions());
    assertEquals(1, grid().rdd().getNumPartitions());
    // one chunk of (y, x, v, w): 80 rows of 8 + 8 + 8 + 4 bytes = 2240 bytes; 5000 bytes hold two.
    assertEquals(25, spark().read().format("zarr").option("maxPartitionBytes", "5000").load(store)
        .rdd().getNumPartitions());
  }

  /**
   * As Spark's file sources: a selection smaller than maxPartitionBytes per core is split over
   * spark.sql.files.minPartitionNum partitions (else the default parallelism, 2 in local[2]), down
   * to openCostInBytes. The grid is 50 chunks of 2240 bytes (112,000 bytes).
   */
  @Test
  void smallSelectionsSpreadOverTheCoresAsSparkFileSourcesDo() {
    assertEquals(1, grid().rdd().getNumPartitions(), "below openCostInBytes (4 MiB): one partition");
    spark().conf().set("spark.sql.files.openCostInBytes", "1");
    try {
      assertEquals(2, grid().rdd().getNumPartitions(), "56,000 bytes per core: 25 chunks each");
      spark().conf().set("spark.sql.files.minPartitionNum", "4");
      assertEquals(8, grid().rdd().getNumPartitions(),
          "28,000 bytes per partition: 12 chunks each would make 5, two waves on 4 cores; 8 make two waves of 7");
      assertEquals(5, grid().where("y_index < 8").rdd().getNumPartitions(),
          "the selection counts, not the array: 10 chunks, 5,600 bytes per partition");
      Dataset<Row> sum = spark().read().format("zarr").load(store).selectExpr("sum(v)");
      String plan = plan(sum);
      assertTrue(plan.contains("partialAggregates=") && plan.contains(" complete"),
          "a small pushed aggregate stays one complete partition: " + plan);
      assertEquals(spark().read().format("zarr").option("pushDownAggregate", "false").load(store)
          .selectExpr("sum(v)").first().getDouble(0), sum.first().getDouble(0));
    } finally {
      spark().conf().unset("spark.sql.files.openCostInBytes");
      spark().conf().unset("spark.sql.files.minPartitionNum");
    }
  }

  /** Partitions are runs of chunks, in order, each chunk in exactly one, the last wave filled. */
  @Test
  void partitionsAreEvenRunsOfChunks() {
    spark().conf().set("spark.sql.files.openCostInBytes", "1");
    spark().conf().set("spark.sql.files.minPartitionNum", "4");
    try {
      Dataset<Row> df = spark().read().format("zarr").load(store);
      List<Long> sizes = new java.util.ArrayList<>();
      long next = 0;
      for (Object p : scanPartitions(df)) {
        io.github.sparkzarr.spark.read.ZarrInputPartition z = (io.github.sparkzarr.spark.read.ZarrInputPartition) p;
        assertEquals(next, z.start());
        sizes.add(z.end() - z.start());
        next = z.end();
      }
      assertEquals(50, next);
      assertEquals(List.of(7L, 7L, 7L, 7L, 7L, 7L, 7L, 1L), sizes);
      assertEquals(4000, df.count());
      assertEquals(4000 - 80, df.where("v IS NOT NULL").count(), "the missing chunk's 80 rows are null");
    } finally {
      spark().conf().unset("spark.sql.files.openCostInBytes");
      spark().conf().unset("spark.sql.files.minPartitionNum");
    }
  }

  @Test
  void limitReadsOnlyTheChunksItNeeds() {
    Dataset<Row> df = spark().read().format("zarr").option("maxPartitionBytes", "1").load(store)
        .select("v").limit(5);
    assertEquals(5, df.collectAsList().size());
    assertEquals(1, df.rdd().getNumPartitions());
  }

  @Test
  void countMinMaxOfDimensionsComeFromMetadata() {
    Dataset<Row> df = spark().sql("SELECT count(*), min(x), max(x), min(y), max(y), max(y_index) FROM zarr.`"
        + store + "`");
    Row r = df.first();
    assertEquals(4000L, r.getLong(0));
    assertEquals(0.0, r.getDouble(1));
    assertEquals(49.5, r.getDouble(2));
    assertEquals(61.0, r.getDouble(3));
    assertEquals(100.0, r.getDouble(4));
    assertEquals(39L, r.getLong(5));
    assertTrue(scanMetrics(df).isEmpty(), "no chunk scan was planned");
    Row filtered = spark().sql("SELECT count(*), max(x) FROM zarr.`" + store + "` WHERE y > 90").first();
    assertEquals(1000L, filtered.getLong(0));
    assertEquals(49.5, filtered.getDouble(1));
  }

  @Test
  void statisticsReportRowsOfTheSelection() {
    assertEquals(4000L, grid().queryExecution().optimizedPlan().stats().rowCount().get().longValue());
  }
}
