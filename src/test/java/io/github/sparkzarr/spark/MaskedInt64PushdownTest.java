package io.github.sparkzarr.spark;

import static io.github.sparkzarr.spark.AggregatePushdownTest.assertRowsEqual;
import static io.github.sparkzarr.spark.AggregatePushdownTest.pushed;
import static io.github.sparkzarr.spark.AggregatePushdownTest.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscCname;
import io.github.sparkzarr.zarr.codec.blosc.BloscCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscShuffle;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * int64 variables whose fill value is stored in places and masked (null), as zarr-python's
 * default fill 0 is: the scan's aggregates, filters and rows answer what Spark computes over the
 * same values built here, each masked where CF's rule masks it (the value and the mask equal as
 * doubles), so the answers do not rest on the connector's own masking.
 *
 * <p>Over (y, x) = (12, 2100), chunks (4, 1024), so the last chunk of each row is an edge chunk:
 * r raw (fill -9999); b blosc lz4 with shuffle, blocks of 4,096 elements (fill 0, zarr-python's
 * default); w blosc zstd with shuffle, whole chunks (fill 123456789012345, values to ±10^16, one
 * chunk missing); e raw with fill 2^53, which as a double also masks 2^53 + 1. Sums stay inside a
 * long whatever order Spark adds in, and b's below 2^53, where Spark's AVG of longs is exact.
 */
class MaskedInt64PushdownTest extends SparkTestBase {
  private static final long W_FILL = 123_456_789_012_345L;
  private static final long E_FILL = 1L << 53;
  private static final int ROWS = 12;
  private static final int COLUMNS = 2100;
  private static String store;
  private static List<Row> rows;
  private static StructType schema;

  private static long r(long i, long j) {
    return (i + j) % 5 == 0 ? -9999 : (i * 7919L + j * 104729L) % 100_003; // the fill below them all
  }

  private static long b(long i, long j) {
    return j % 9 == 0 ? 0 : ((j % 3) - 1) * 25_000_000_000L * (i + 1) + j;
  }

  private static long w(long i, long j) {
    return (i * j) % 11 == 3 ? W_FILL : (j % 2 == 0 ? 1 : -1) * (10_000_000_000_000_000L / (j + 1)) + i;
  }

  private static long e(long i, long j) {
    return switch ((int) (j % 6)) {
      case 0 -> E_FILL;
      case 1 -> E_FILL + 1; // 2^53 as a double: masked too
      case 2 -> E_FILL + 2;
      case 3 -> E_FILL - 1;
      default -> i * 1000L - j;
    };
  }

  @BeforeAll
  static void write() throws Exception {
    Path dir = Files.createTempDirectory("zarr-masked-int64").resolve("m.zarr");
    store = dir.toString();
    HadoopStore s = new HadoopStore(store, new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    BloscCodec blocks = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 32768, 0);
    BloscCodec whole = new BloscCodec(BloscCname.ZSTD, 1, BloscShuffle.SHUFFLE, 0, 0);
    ZarrPushdownTest.writeAll(array(s, "y", "<f8", new long[] {ROWS}, new int[] {4}, List.of("y"), null, null), (i, j) -> 0);
    ZarrPushdownTest.writeAll(array(s, "x", "<f8", new long[] {COLUMNS}, new int[] {1024}, List.of("x"), null, null), (i, j) -> 0);
    long[] shape = {ROWS, COLUMNS};
    int[] chunks = {4, 1024};
    List<String> dims = List.of("y", "x");
    ZarrPushdownTest.writeAllLongs(array(s, "r", "<i8", shape, chunks, dims, -9999L, null), MaskedInt64PushdownTest::r);
    ZarrPushdownTest.writeAllLongs(array(s, "b", "<i8", shape, chunks, dims, 0L, blocks), MaskedInt64PushdownTest::b);
    ZarrPushdownTest.writeAllLongs(array(s, "w", "<i8", shape, chunks, dims, W_FILL, whole), MaskedInt64PushdownTest::w);
    ZarrPushdownTest.writeAllLongs(array(s, "e", "<i8", shape, chunks, dims, E_FILL, null), MaskedInt64PushdownTest::e);
    s.delete("w/1.1"); // read as the fill: every element null
    ZarrHierarchy.consolidateV2(s);
    dir.toFile().deleteOnExit();

    schema = new StructType().add("y_index", DataTypes.LongType).add("x_index", DataTypes.LongType)
        .add("y", DataTypes.DoubleType).add("x", DataTypes.DoubleType)
        .add("r", DataTypes.LongType).add("b", DataTypes.LongType).add("w", DataTypes.LongType)
        .add("e", DataTypes.LongType);
    rows = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      for (int j = 0; j < COLUMNS; j++) {
        boolean missingChunk = i / 4 == 1 && j / 1024 == 1;
        rows.add(RowFactory.create((long) i, (long) j, 0.0, 0.0, cf(r(i, j), -9999), cf(b(i, j), 0),
            missingChunk ? null : cf(w(i, j), W_FILL), cf(e(i, j), E_FILL)));
      }
    }
  }

  @AfterAll
  static void ansiBack() {
    spark().conf().unset("spark.sql.ansi.enabled");
  }

  /** {@code v}, or null where it equals {@code fill} as a double (CF's rule, as xarray masks). */
  private static Long cf(long v, long fill) {
    return (double) v == (double) fill ? null : v;
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(r), count(r), avg(r), min(r), max(r), count(*) FROM t",
      "SELECT sum(b), count(b), sum(w), count(w), count(*) FROM t",
      "SELECT count(b), count(w) FROM t",
      "SELECT min(b), max(b), min(w), max(w), avg(b), count(e), min(e), max(e) FROM t",
      "SELECT y_index, sum(r), sum(b), min(w), max(e), count(e) FROM t GROUP BY y_index",
      "SELECT x_index, sum(b), max(r), count(w) FROM t GROUP BY x_index",
      "SELECT sum(r), count(r), min(b), max(b), count(w) FROM t WHERE r > 50000",
      "SELECT sum(b), count(b), min(b), max(w) FROM t WHERE b > -100000000000000",
      "SELECT y_index, count(b), sum(w), count(w) FROM t WHERE x_index >= 1000 AND y_index < 9 GROUP BY y_index",
  })
  void aggregatesAnswerAsOverTheMaskedValues(String sql) {
    withAnsi(() -> {
      Dataset<Row> zarr = overZarr(sql);
      assertTrue(pushed(zarr), () -> "not pushed: " + plan(zarr));
      assertRowsEqual(sorted(overRows(sql)), sorted(zarr), sql);
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT y_index, x_index, r, b, w, e FROM t WHERE x_index % 97 = 3",
      "SELECT count(*) FROM t WHERE b IS NULL OR w IS NULL",
      "SELECT y_index, x_index, b, w FROM t WHERE b < 0 AND w > 0",
      "SELECT count(*) FROM t WHERE w = 123456789012345 OR b = 0 OR e = 9007199254740993",
  })
  void rowsAndFiltersAnswerAsOverTheMaskedValues(String sql) {
    withAnsi(() -> {
      List<Row> expected = sorted(overRows(sql));
      assertTrue(!expected.isEmpty());
      assertRowsEqual(expected, sorted(overZarr(sql)), sql);
    });
  }

  /** The fills really are stored: the oracle's nulls are not an empty test. */
  @org.junit.jupiter.api.Test
  void theFillsAreStoredInPlaces() {
    Row counts = spark().createDataFrame(rows, schema).selectExpr("count(r)", "count(b)", "count(w)", "count(e)")
        .first();
    long all = (long) ROWS * COLUMNS;
    for (int c = 0; c < 4; c++) {
      assertTrue(counts.getLong(c) > all / 2 && counts.getLong(c) < all, "column " + c + ": " + counts);
    }
    assertEquals(all - all / 3, counts.getLong(3)); // j % 6 of 0 and 1
  }

  private static Dataset<Row> overZarr(String sql) {
    zarrReader().load(store).select("*", "y_index", "x_index").createOrReplaceTempView("t");
    return spark().sql(sql);
  }

  private static Dataset<Row> overRows(String sql) {
    spark().createDataFrame(rows, schema).createOrReplaceTempView("t");
    return spark().sql(sql);
  }

  private static void withAnsi(Runnable check) {
    // int64 sums are computed in the scan only under ANSI rules (Spark 4's default, not 3.5's)
    String previous = spark().conf().get("spark.sql.ansi.enabled");
    try {
      spark().conf().set("spark.sql.ansi.enabled", "true");
      check.run();
    } finally {
      spark().conf().set("spark.sql.ansi.enabled", previous);
    }
  }

  private static ZarrArray array(HadoopStore s, String name, String dtype, long[] shape, int[] chunks,
      List<String> dims, Long fill, BytesCodec compressor) throws Exception {
    DataType t = NumpyDtype.parse(dtype);
    var fillJson = fill == null ? null : Json.nodes().numberNode(fill);
    var attrs = Json.object();
    attrs.putArray("_ARRAY_DIMENSIONS").addAll(dims.stream().map(Json.nodes()::textNode).toList());
    ArrayMetadata md = new ArrayMetadata(2, shape, chunks, t, FillValue.parseV2(fillJson, t),
        new V2ChunkCodec(t, false, List.of(), compressor), ChunkKeyEncoding.v2('.'), dims, attrs);
    return ZarrHierarchy.writeArrayV2(s, name, md);
  }
}
