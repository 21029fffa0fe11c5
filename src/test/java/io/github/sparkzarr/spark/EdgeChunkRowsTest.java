package io.github.sparkzarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscCname;
import io.github.sparkzarr.zarr.codec.blosc.BloscCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscShuffle;
import io.github.sparkzarr.zarr.codec.compress.GzipCodec;
import io.github.sparkzarr.zarr.codec.compress.ZstdCodec;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongPredicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Rows of partial chunks: chunks at the array's edge, and boxes that filters cut out of chunks,
 * are copied out of the decoded chunk in runs; a selection that is not one run per dimension is
 * gathered element by element. Every row must hold its own element, and no element beyond the
 * array's edge (which the stored edge chunks hold too) may appear.
 *
 * <p>The store: y (13, chunks of 4) by x (11, chunks of 5), so the last chunk along each dimension
 * holds one position: r float32 uncompressed, z float64 zstd, b float32 blosc-lz4 with shuffle
 * (fill NaN, chunk 1.2 never written, so null there), g int32 gzip.
 */
class EdgeChunkRowsTest extends SparkTestBase {
  private static final int Y = 13;
  private static final int X = 11;
  private static String store;

  @BeforeAll
  static void write() throws Exception {
    Path dir = Files.createTempDirectory("zarr-edge-rows").resolve("edges.zarr");
    store = dir.toString();
    HadoopStore s = new HadoopStore(store, new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    ZarrPushdownTest.writeAll(array(s, "r", "<f4", null, null), (i, j) -> i * 100 + j);
    ZarrPushdownTest.writeAll(array(s, "z", "<f8", null, new ZstdCodec(1, false)), (i, j) -> i * 100 + j + 0.5);
    ZarrPushdownTest.writeAll(array(s, "b", "<f4", Double.NaN,
        new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0, 0)), (i, j) -> -(i * 100 + j));
    ZarrPushdownTest.writeAll(array(s, "g", "<i4", null, new GzipCodec(1)), (i, j) -> i * 1000 + j);
    s.delete("b/1.2");
    ZarrHierarchy.consolidateV2(s);
    dir.toFile().deleteOnExit();
  }

  private static ZarrArray array(HadoopStore s, String name, String dtype, Double fill, BytesCodec codec)
      throws Exception {
    return RowScanTest.array(s, name, new long[] {Y, X}, dtype, fill, codec);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', value = {
      "TRUE; 0; 12; 0; 10",
      "y BETWEEN 2 AND 9 AND x BETWEEN 3 AND 8; 2; 9; 3; 8",
      "y >= 11 AND x < 2; 11; 12; 0; 1",
      "y = 12 AND x = 10; 12; 12; 10; 10",
      "y < 7 AND x >= 9; 0; 6; 9; 10",
  })
  void boxesAndEdgeChunksHoldTheirOwnElements(String where, long y0, long y1, long x0, long x1) {
    check(where, y -> y >= y0 && y <= y1, x -> x >= x0 && x <= x1);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', value = {
      "x IN (0, 2, 4, 10)",
      "y IN (1, 3, 12) AND x >= 4",
  })
  void selectionsOfSeveralRunsToo(String where) {
    LongPredicate ys = where.startsWith("y IN") ? y -> y == 1 || y == 3 || y == 12 : y -> true;
    LongPredicate xs = where.startsWith("x IN") ? x -> x == 0 || x == 2 || x == 4 || x == 10 : x -> x >= 4;
    check(where, ys, xs);
  }

  private void check(String where, LongPredicate ys, LongPredicate xs) {
    List<Row> rows = spark().read().format("zarr").load(store).where(where)
        .select("y", "x", "r", "z", "b", "g").collectAsList();
    long expected = 0;
    for (long i = 0; i < Y; i++) {
      for (long j = 0; j < X; j++) {
        expected += ys.test(i) && xs.test(j) ? 1 : 0;
      }
    }
    assertEquals(expected, rows.size(), where);
    for (Row row : rows) {
      long i = row.getLong(0);
      long j = row.getLong(1);
      String at = where + " at (" + i + ", " + j + ")";
      assertTrue(ys.test(i) && xs.test(j), at + " is outside the selection");
      assertEquals(i * 100 + j, row.getFloat(2), at);
      assertEquals(i * 100 + j + 0.5, row.getDouble(3), at);
      boolean missing = i >= 4 && i < 8 && j >= 10; // chunk 1.2 of b
      assertTrue(missing ? row.isNullAt(4) : !row.isNullAt(4) && row.getFloat(4) == -(i * 100 + j), at + ": " + row);
      assertEquals(i * 1000 + j, row.getInt(5), at);
    }
    assertEquals(rows.size(), rows.stream().map(r -> r.getLong(0) * 100 + r.getLong(1)).distinct().count(), where);
  }
}
