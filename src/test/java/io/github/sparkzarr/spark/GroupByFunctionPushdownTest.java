package io.github.sparkzarr.spark;

import static io.github.sparkzarr.spark.AggregatePushdownTest.assertRowsEqual;
import static io.github.sparkzarr.spark.AggregatePushdownTest.pushed;
import static io.github.sparkzarr.spark.AggregatePushdownTest.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.HadoopStore;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GROUP BY a function of a dimension ({@code month(time)}, {@code floor(lat / 20)}): the scan
 * computes the aggregate per key, with Spark's own functions, and answers what Spark computes from
 * the rows.
 *
 * <p>The store: time (int64 hours since 2020-01-30 in CF form, every 13 hours across three months,
 * position 45 missing), lat (float64 with repeated values: 10, 10, 20, 20, ...), v(time, lat)
 * float32 (fill NaN, some NaN values), in chunks 7 x 5 with edge chunks.
 */
class GroupByFunctionPushdownTest extends SparkTestBase {
  private static String store;
  private static String ansi;

  @BeforeAll
  static void write() throws Exception {
    Path dir = Files.createTempDirectory("zarr-group-functions").resolve("g.zarr");
    store = dir.toString();
    HadoopStore s = new HadoopStore(store, new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    ObjectNode timeAttrs = Json.object();
    timeAttrs.put("units", "hours since 2020-01-30 00:00:00");
    timeAttrs.put("calendar", "proleptic_gregorian");
    timeAttrs.put("_FillValue", -9999);
    ZarrArray time = array(s, "time", "<i8", new long[] {50}, new int[] {7}, List.of("time"), timeAttrs);
    ZarrArray lat = array(s, "lat", "<f8", new long[] {12}, new int[] {5}, List.of("lat"), Json.object());
    ZarrArray v = array(s, "v", "<f4", new long[] {50, 12}, new int[] {7, 5}, List.of("time", "lat"), Json.object());
    ZarrPushdownTest.writeAll(time, (i, j) -> i == 45 ? -9999 : i * 13);
    ZarrPushdownTest.writeAll(lat, (i, j) -> 10.0 * (i / 2 + 1));
    ZarrPushdownTest.writeAll(v, (i, j) -> (i * j) % 9 == 4 ? Double.NaN : i * 0.5 - j * 1.25);
    ZarrHierarchy.consolidateV2(s);
    dir.toFile().deleteOnExit();
    ansi = spark().conf().get("spark.sql.ansi.enabled");
    // Spark translates casts and arithmetic for the scan only under ANSI rules (Spark 4's default).
    spark().conf().set("spark.sql.ansi.enabled", "true");
  }

  @AfterAll
  static void restore() {
    spark().conf().set("spark.sql.ansi.enabled", ansi);
  }

  private static ZarrArray array(HadoopStore s, String name, String dtype, long[] shape, int[] chunks,
      List<String> dims, ObjectNode attrs) throws Exception {
    DataType t = NumpyDtype.parse(dtype);
    FillValue fill = FillValue.parseV2(t.kind() == DataType.Kind.FLOAT ? Json.nodes().textNode("NaN") : null, t);
    ArrayMetadata md = new ArrayMetadata(2, shape, chunks, t, fill, new V2ChunkCodec(t, false, List.of(), null),
        ChunkKeyEncoding.v2('.'), dims, attrs);
    return ZarrHierarchy.writeArrayV2(s, name, md);
  }

  private static Dataset<Row> query(String sql, boolean pushDown, String maxPartitionBytes) {
    spark().read().format("zarr").option("pushDownAggregate", pushDown).option("maxPartitionBytes", maxPartitionBytes)
        .load(store).select("*", "time_index", "lat_index").createOrReplaceTempView("t");
    return spark().sql(sql);
  }

  /** In one partition (complete in the scan) and in one partition per chunk (merged by Spark). */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT year(time), month(time), sum(v), count(v), count(*), min(v), max(v) FROM t GROUP BY year(time), month(time)",
      "SELECT trunc(time, 'MM') m, avg(v) FROM t GROUP BY m",
      "SELECT hour(time), dayofweek(time), count(v) FROM t GROUP BY 1, 2",
      "SELECT CAST(time AS DATE) d, max(v), min(v) FROM t GROUP BY d",
      "SELECT quarter(time), day(time), dayofyear(time), weekofyear(time), count(*) FROM t GROUP BY 1, 2, 3, 4",
      "SELECT floor(lat / 20) b, month(time), avg(v) FROM t GROUP BY 1, 2",
      "SELECT lat, sum(v), count(*) FROM t GROUP BY lat",
      "SELECT time_index % 5, lat_index * 2 - 1, sum(v) FROM t GROUP BY 1, 2",
      "SELECT (lat_index - 5) * 0.0D z, count(*) FROM t GROUP BY z", // -0.0 and 0.0 are one key in Spark
      "SELECT ceil(lat / 15.0) + 1, round(lat / 7, 1), max(v) FROM t GROUP BY 1, 2",
      "SELECT month(time), avg(v) FROM t WHERE lat >= 20 AND time_index < 30 GROUP BY 1",
      "SELECT month(time), count(*) FROM t WHERE time_index > 3 AND lat < 40 GROUP BY 1",
  })
  void functionsOfADimensionAreComputedInTheScan(String sql) {
    assertPushedAndAsSpark(sql, true);
  }

  /**
   * Grouped aggregates over several partitions: partitions are whole tiles (all chunks sharing the
   * grouped dimensions' chunk indices; v's chunks are 35 float32 values, 140 bytes, on a grid of
   * 8 x 3), so keys no two positions share are complete in the scan, with Spark's rows. Not
   * complete when a tile is larger than a partition, or when a key can repeat along its dimension
   * (lat's values, a function, time with a missing value).
   */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "SELECT time_index, sum(v), count(*), min(v) FROM t GROUP BY time_index | 500 | true",
      "SELECT lat_index, avg(v), max(v), count(v) FROM t GROUP BY lat_index | 1200 | true",
      "SELECT lat_index, time_index, sum(v) FROM t GROUP BY 1, 2 | 1 | true",
      "SELECT lat_index, avg(v) FROM t WHERE time_index >= 10 GROUP BY lat_index | 1000 | true",
      "SELECT lat_index, avg(v) FROM t GROUP BY lat_index | 1 | false",
      "SELECT lat, sum(v) FROM t GROUP BY lat | 1200 | false",
      "SELECT month(time), sum(v) FROM t GROUP BY 1 | 500 | false",
      "SELECT time, sum(v) FROM t GROUP BY time | 500 | false",
  })
  void partitionsOfWholeTilesAreCompleteInTheScan(String sql, String maxPartitionBytes, boolean complete) {
    Dataset<Row> on = query(sql, true, maxPartitionBytes);
    String plan = plan(on);
    assertTrue(pushed(on), () -> "not pushed: " + plan);
    assertEquals(complete, plan.contains(" complete"), plan);
    if (complete) {
      assertTrue(on.rdd().getNumPartitions() > 1, plan);
    }
    Dataset<Row> off = query(sql, false, maxPartitionBytes);
    assertEquals(off.schema(), on.schema(), sql);
    assertRowsEqual(sorted(off), sorted(on), sql + " maxPartitionBytes=" + maxPartitionBytes);
  }

  /**
   * A tile larger than a split (here every chunk: the grouped dimension x is one chunk, like a
   * map over one time step per chunk) is still read whole when each group cell has at most 1,024
   * elements and the tile is at most twice maxPartitionBytes: then the scan is complete, where two
   * partitions would each return a partial row per cell for Spark to merge. With more elements per
   * cell the tile is split as before. v(t, x) float32 in chunks 50 x 4 (800 bytes), the tile
   * 20 or 22 chunks (16,000 or 17,600 bytes) against maxPartitionBytes 10,000.
   */
  @ParameterizedTest
  @CsvSource({"1000, true", "1100, false"})
  void tilesLargerThanASplitAreReadWholeWhenTheirCellsHaveFewElements(int steps, boolean whole) throws Exception {
    Path dir = Files.createTempDirectory("zarr-tiles").resolve("p.zarr");
    HadoopStore s = new HadoopStore(dir.toString(), new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    ZarrArray v = array(s, "v", "<f4", new long[] {steps, 4}, new int[] {50, 4}, List.of("t", "x"), Json.object());
    ZarrPushdownTest.writeAll(v, (i, j) -> i % 7 == 3 && j == 2 ? Double.NaN : i * 0.25 - j);
    dir.toFile().deleteOnExit();
    String sql = "SELECT x, avg(v), max(v), count(*) FROM p GROUP BY x"; // x: positions, no coordinate
    Dataset<Row>[] results = new Dataset[2];
    for (boolean pushDown : new boolean[] {true, false}) {
      // In tasks: this is about how tiles are split into partitions.
      spark().read().format("zarr").option("pushDownAggregate", pushDown).option("maxPartitionBytes", "10000")
          .option("driverAggregateMaxBytes", "0").load(dir.toString()).createOrReplaceTempView("p");
      results[pushDown ? 0 : 1] = spark().sql(sql);
    }
    String plan = plan(results[0]);
    assertTrue(pushed(results[0]), plan);
    assertEquals(whole, plan.contains(" complete"), plan);
    if (whole) {
      assertEquals(1, results[0].rdd().getNumPartitions(), plan);
    } // else: not complete, which one partition would be: the tile was split

    assertRowsEqual(sorted(results[1]), sorted(results[0]), sql + " over " + steps + " steps");
  }

  /**
   * A partition keeps a slot per group cell it meets, so partitions of many small-celled tiles hold
   * at most ZarrScan.MAX_GROUP_CELLS (2^20) cells, however few bytes they read: here every element
   * is its own group (v(x, y), 2 Mi float32 in chunks of 256 x 256, 65,536 cells per tile), 8 MiB
   * that would otherwise be one partition, and the scan makes two of 16 tiles each. The groups'
   * count, sum, minimum and maximum are Spark's.
   */
  @Test
  void partitionsHoldAtMostAMillionGroupCells() throws Exception {
    Path dir = Files.createTempDirectory("zarr-cells").resolve("c.zarr");
    HadoopStore s = new HadoopStore(dir.toString(), new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    ZarrArray v = array(s, "v", "<f4", new long[] {2048, 1024}, new int[] {256, 256}, List.of("x", "y"), Json.object());
    ZarrPushdownTest.writeAll(v, (i, j) -> (i * 7 + j * 3) % 1000 * 0.5);
    dir.toFile().deleteOnExit();
    String grouped = "SELECT x, y, avg(v) AS a FROM c GROUP BY x, y";
    String summary = "SELECT count(*), sum(a), min(a), max(a), count(DISTINCT x, y) FROM (" + grouped + ")";
    Dataset<Row>[] results = new Dataset[2];
    for (boolean pushDown : new boolean[] {true, false}) {
      spark().read().format("zarr").option("pushDownAggregate", pushDown).load(dir.toString())
          .createOrReplaceTempView("c");
      Dataset<Row> on = spark().sql(grouped);
      assertEquals(pushDown, pushed(on));
      if (pushDown) {
        String plan = plan(on);
        assertTrue(plan.contains(" complete"), plan);
        assertEquals(2, on.rdd().getNumPartitions(), plan);
      }
      results[pushDown ? 0 : 1] = spark().sql(summary);
    }
    assertRowsEqual(results[1].collectAsList(), results[0].collectAsList(), summary);
    assertEquals(2048L * 1024, results[0].first().getLong(0));
  }

  /**
   * A tile too large for a split whose cells have many elements is cut in as few partitions as
   * spread it over the two cores, each of at most as many bytes as make its partial rows cheap
   * beside its reading (4,096 decoded bytes per cell) and 8 times maxPartitionBytes: every
   * partition returns a partial row per cell for Spark to merge. v(t, x) float32, x 6 wide in one
   * chunk, so the whole array is one tile. Before, partitions held what maxPartitionBytes holds
   * (4, 200 and 50 partitions).
   */
  @ParameterizedTest
  @CsvSource({
      "600, 10, 5000, 2", // spread over the cores: 2 of 30 chunks (240 bytes each)
      "4000, 10, 500, 25", // 8 x maxPartitionBytes: 16 chunks
      "10000, 100, 5000, 10", // 4,096 x 6 cells: 11 chunks of 2,400 bytes
  })
  void tilesOfManyElementsPerCellAreCutInFewPartitions(int steps, int chunk, String maxPartitionBytes, int partitions)
      throws Exception {
    Path dir = Files.createTempDirectory("zarr-tile-parts").resolve("q.zarr");
    HadoopStore s = new HadoopStore(dir.toString(), new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    ZarrArray v = array(s, "v", "<f4", new long[] {steps, 6}, new int[] {chunk, 6}, List.of("t", "x"), Json.object());
    ZarrPushdownTest.writeAll(v, (i, j) -> i % 11 == 3 && j == 2 ? Double.NaN : i * 0.5 - j);
    dir.toFile().deleteOnExit();
    String sql = "SELECT x, avg(v), min(v), count(*) FROM q GROUP BY x";
    Dataset<Row>[] results = new Dataset[2];
    for (boolean pushDown : new boolean[] {true, false}) {
      // Tasks' partitions: not read on the driver.
      spark().read().format("zarr").option("pushDownAggregate", pushDown).option("maxPartitionBytes", maxPartitionBytes)
          .option("driverAggregateMaxBytes", "0").load(dir.toString()).createOrReplaceTempView("q");
      results[pushDown ? 0 : 1] = spark().sql(sql);
    }
    String plan = plan(results[0]);
    assertTrue(pushed(results[0]), plan);
    assertFalse(plan.contains(" complete"), plan);
    assertEquals(partitions, ((org.apache.spark.sql.execution.datasources.v2.BatchScanExec) results[0].queryExecution()
        .sparkPlan().collectLeaves().head()).inputPartitions().size(), plan);
    assertRowsEqual(sorted(results[1]), sorted(results[0]), sql);
  }

  /**
   * One chunk, so one partition whose box holds as many positions as the keys' ranges: keys that
   * two positions can share (a function, a coordinate with repeated values) still make one group
   * per value, not one per position. w(time, x) float32, 48 x 3 in one chunk; time hourly, x 1, 1, 2.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT day(time), sum(w), count(*) FROM h GROUP BY 1",
      "SELECT x, max(w), count(w) FROM h GROUP BY x",
      "SELECT hour(time) % 4, x, avg(w) FROM h GROUP BY 1, 2",
      "SELECT time_index, x_index, min(w) FROM h GROUP BY 1, 2",
  })
  void oneChunkGroupsByValuesPositionsShare(String sql) throws Exception {
    String path = hourlyStore(48, 48, 1, new double[] {1, 1, 2}, (i, j) -> (i * 3 + j) % 10 == 7 ? Double.NaN : i - j * 0.5);
    Dataset<Row>[] results = pushedAndNot(path, sql);
    assertTrue(plan(results[0]).contains(" complete"), sql);
    assertRowsEqual(sorted(results[1]), sorted(results[0]), sql);
  }

  /**
   * A partition hands its groups to Spark a batch of 4,096 rows at a time: 9,800 groups of
   * w(time, x) (1400 x 7 float32, one partition) keyed by coordinates, by a function of a
   * position and with weighted sums, each batch's keys beside their own groups' results.
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT time, x, avg(w), min(w), max(w), count(*) FROM h GROUP BY time, x",
      "SELECT time_index * 2 - 1 k, x, sum(w), count(w) FROM h GROUP BY 1, 2",
      "SELECT time_index, x, sum(w * cos(radians(x))), sum(w) FROM h GROUP BY 1, 2",
  })
  void manyGroupsComeInBatches(String sql) throws Exception {
    String path = hourlyStore(1400, 600, 3, new double[] {-60, -40, -20, 0, 20, 40, 60},
        (i, j) -> (i + j) % 13 == 5 ? Double.NaN : i * 0.75 - j * 2);
    // In a task: so small a store is otherwise answered on the driver (DriverAnswerTest).
    Dataset<Row>[] results = pushedAndNot(path, sql, "driverAggregateMaxBytes", "0");
    assertEquals(1, results[0].rdd().getNumPartitions(), sql);
    List<Row> expected = sorted(results[1]);
    assertEquals(1400 * 7, expected.size(), sql);
    assertRowsEqual(expected, sorted(results[0]), sql);
    assertRowsEqual(expected, sorted(pushedAndNot(path, sql)[0]), sql + " (default: on the driver if complete)");
  }

  /**
   * A store of w(time, x) float32 in chunks of {@code chunk} steps by all of x, time every {@code
   * hours} hours from 2001-03-01, x the given values (one chunk); returns its path.
   */
  private static String hourlyStore(int steps, int chunk, int hours, double[] xs, ZarrPushdownTest.Value value)
      throws Exception {
    Path dir = Files.createTempDirectory("zarr-hourly").resolve("h.zarr");
    HadoopStore s = new HadoopStore(dir.toString(), new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    ObjectNode timeAttrs = Json.object();
    timeAttrs.put("units", "hours since 2001-03-01 00:00:00");
    ZarrArray time = array(s, "time", "<i8", new long[] {steps}, new int[] {steps}, List.of("time"), timeAttrs);
    ZarrArray x = array(s, "x", "<f8", new long[] {xs.length}, new int[] {xs.length}, List.of("x"), Json.object());
    ZarrArray w = array(s, "w", "<f4", new long[] {steps, xs.length}, new int[] {chunk, xs.length}, List.of("time", "x"),
        Json.object());
    ZarrPushdownTest.writeAll(time, (i, j) -> i * hours);
    ZarrPushdownTest.writeAll(x, (i, j) -> xs[(int) i]);
    ZarrPushdownTest.writeAll(w, value);
    ZarrHierarchy.consolidateV2(s);
    dir.toFile().deleteOnExit();
    return dir.toString();
  }

  /** The query over view h of the store (with time_index and x_index), with aggregate pushdown and without. */
  /** The query with and without aggregate push-down; {@code options}: more read options (name, value, ...). */
  private static Dataset<Row>[] pushedAndNot(String path, String sql, String... options) {
    Dataset<Row>[] results = new Dataset[2];
    for (boolean pushDown : new boolean[] {true, false}) {
      zarrReader(options).option("pushDownAggregate", pushDown).load(path).select("*", "time_index", "x_index").createOrReplaceTempView("h");
      results[pushDown ? 0 : 1] = spark().sql(sql);
      assertEquals(pushDown, pushed(results[pushDown ? 0 : 1]), sql);
    }
    return results;
  }

  /**
   * Pushed, complete when one partition is planned (unless weighted sums forbid it), and with the
   * schema and rows of the same query without pushdown; in one partition and in one per chunk.
   */
  private static void assertPushedAndAsSpark(String sql, boolean completeInOnePartition) {
    for (String maxPartitionBytes : new String[] {"128m", "1"}) {
      Dataset<Row> on = query(sql, true, maxPartitionBytes);
      String plan = plan(on);
      assertTrue(pushed(on), () -> "not pushed: " + plan);
      if (!completeInOnePartition) {
        assertFalse(plan.contains(" complete"), plan);
      }
      Dataset<Row> off = query(sql, false, maxPartitionBytes);
      assertFalse(pushed(off));
      assertEquals(off.schema(), on.schema(), sql);
      assertRowsEqual(sorted(off), sorted(on), sql + " maxPartitionBytes=" + maxPartitionBytes);
    }
  }

  /**
   * Area-weighted sums: {@code SUM(v * w)} and {@code SUM(w)} with w a function of one dimension.
   * Rounded differently from Spark's row-by-row products (assertRowsEqual allows 1e-12 relative).
   */
  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(v * cos(radians(lat))) / sum(cos(radians(lat))), sum(cos(radians(lat))) FROM t",
      "SELECT month(time), sum(v * cos(radians(lat))), sum(v), count(v) FROM t GROUP BY 1",
      "SELECT lat, sum(sqrt(lat) * v), max(v) FROM t WHERE time_index < 40 GROUP BY lat",
      "SELECT sum(v * (time_index % 3)), sum(v * lat), sum(lat_index * 1.5D) FROM t",
      "SELECT sum(v * CAST(hour(time) AS DOUBLE)), sum(CAST(hour(time) AS DOUBLE)) FROM t", // null weights
      "SELECT time_index, sum(v * CAST(hour(time) AS DOUBLE)), sum(CAST(hour(time) AS DOUBLE)) FROM t GROUP BY 1",
  })
  void weightedSumsAreComputedInTheScan(String sql) {
    assertPushedAndAsSpark(sql, false);
  }

  @Test
  void aKeyRepeatedAlongTheDimensionIsOneGroup() {
    // One partition: complete in the scan, so the scan itself must merge the repeated keys.
    Dataset<Row> on = query("SELECT month(time), count(*) FROM t GROUP BY 1", true, "128m");
    assertTrue(plan(on).contains(" complete"));
    List<Row> rows = sorted(on);
    // Every 13 hours from 2020-01-30: 4 times in January, 45 in February (leap year), one missing;
    // 12 latitudes each.
    assertEquals("[[1,48], [2,540], [null,12]]", rows.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT date_trunc('month', time), avg(v) FROM t GROUP BY 1", // Spark does not hand it to sources
      "SELECT hour(time) + lat, sum(v) FROM t GROUP BY 1", // two dimensions
      "SELECT floor(v), count(*) FROM t GROUP BY 1", // a variable
      "SELECT sum(v * v), sum(v * cos(radians(lat)) * hour(time)) FROM t", // not v times a weight
      "SELECT avg(v * cos(radians(lat))) FROM t", // AVG: Spark asks for COUNT of the product too
  })
  void otherKeysAreLeftToSpark(String sql) {
    Dataset<Row> on = query(sql, true, "128m");
    assertFalse(pushed(on));
    assertRowsEqual(sorted(query(sql, false, "128m")), sorted(on), sql);
  }
}
