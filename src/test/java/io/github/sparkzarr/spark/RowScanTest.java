package io.github.sparkzarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscCname;
import io.github.sparkzarr.zarr.codec.blosc.BloscCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscShuffle;
import io.github.sparkzarr.zarr.codec.compress.GzipCodec;
import io.github.sparkzarr.zarr.codec.compress.ZstdCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Rows of whole chunks are read in place from buffers the reader reuses from batch to batch: every
 * row still holds its own chunk's values after Spark has moved on, also where Spark keeps rows
 * (sorting, caching, shuffling, collecting).
 *
 * <p>The store: y (12, chunks of 4) by x (10, chunks of 5), six whole chunks per variable, no
 * coordinate arrays: r float32 uncompressed, z float64 zstd, b float32 blosc-lz4 with shuffle
 * (fill NaN, chunk 1.0 never written, so null there), g int32 gzip (decoded into new arrays).
 */
class RowScanTest extends SparkTestBase {
  private static String store;

  @BeforeAll
  static void write() throws Exception {
    Path dir = Files.createTempDirectory("zarr-row-scan").resolve("rows.zarr");
    store = dir.toString();
    HadoopStore s = new HadoopStore(store, new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    ZarrPushdownTest.writeAll(array(s, "r", "<f4", null, null), (i, j) -> i * 100 + j);
    ZarrPushdownTest.writeAll(array(s, "z", "<f8", null, new ZstdCodec(1, false)),
        (i, j) -> i * 100 + j + 0.5);
    ZarrPushdownTest.writeAll(array(s, "b", "<f4", Double.NaN,
        new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0, 0)), (i, j) -> -(i * 100 + j));
    ZarrPushdownTest.writeAll(array(s, "g", "<i4", null, new GzipCodec(1)), (i, j) -> i * 1000 + j);
    s.delete("b/1.0");
    ZarrHierarchy.consolidateV2(s);
    dir.toFile().deleteOnExit();
  }

  private static ZarrArray array(HadoopStore s, String name, String dtype, Double fill,
      BytesCodec codec) throws Exception {
    return array(s, name, new long[] {12, 10}, dtype, fill, codec);
  }

  /** A (y, x) v2 array of {@code shape} in 4 x 5 chunks; {@code fill} null or NaN. */
  static ZarrArray array(HadoopStore s, String name, long[] shape, String dtype, Double fill,
      BytesCodec codec) throws Exception {
    DataType t = NumpyDtype.parse(dtype);
    var fillJson = fill == null ? null : Json.nodes().textNode("NaN");
    var attrs = Json.object();
    attrs.putArray("_ARRAY_DIMENSIONS").add("y").add("x");
    ArrayMetadata md = new ArrayMetadata(2, shape, new int[] {4, 5}, t,
        FillValue.parseV2(fillJson, t), new V2ChunkCodec(t, false, List.of(), codec),
        ChunkKeyEncoding.v2('.'), List.of("y", "x"), attrs);
    return ZarrHierarchy.writeArrayV2(s, name, md);
  }

  @ParameterizedTest
  @ValueSource(strings = {"collect", "sort", "cache", "shuffle", "limit"})
  void everyRowHoldsItsOwnChunksValues(String how) {
    Dataset<Row> df = spark().read().format("zarr").load(store).select("y", "x", "r", "z", "b", "g");
    UnaryOperator<Dataset<Row>> query = switch (how) {
      case "sort" -> d -> d.orderBy(functions.desc("y"), functions.desc("x"));
      case "cache" -> Dataset::cache;
      case "shuffle" -> d -> d.repartition(3, functions.col("x"));
      case "limit" -> d -> d.limit(97);
      default -> d -> d;
    };
    Dataset<Row> result = query.apply(df);
    List<Row> rows = result.collectAsList();
    if (how.equals("cache")) {
      assertEquals(rows.size(), result.count());
      rows = result.collectAsList(); // now from the cache
      result.unpersist();
    }
    assertEquals(how.equals("limit") ? 97 : 120, rows.size());
    for (Row row : rows) {
      long i = row.getLong(0);
      long j = row.getLong(1);
      String at = how + " at (" + i + ", " + j + ")";
      assertEquals(i * 100 + j, row.getFloat(2), at);
      assertEquals(i * 100 + j + 0.5, row.getDouble(3), at);
      boolean missing = i >= 4 && i < 8 && j < 5; // chunk 1.0 of b
      assertTrue(missing ? row.isNullAt(4) : row.getFloat(4) == -(i * 100 + j), at + ": " + row);
      assertEquals(i * 1000 + j, row.getInt(5), at);
    }
    assertEquals(rows.size(), rows.stream().map(r -> r.getLong(0) * 10 + r.getLong(1)).distinct().count());
  }

  @Test
  void laterScansDecodeIntoBuffersEarlierTasksReleased() {
    Dataset<Row> df = spark().read().format("zarr").load(store);
    Runnable scans = () -> {
      df.agg(functions.sum("r"), functions.max("z")).collectAsList(); // aggregates in the scan
      df.select("r", "z").collectAsList(); // rows
    };
    scans.run();
    long before = DecodeBuffers.created();
    for (int i = 0; i < 5; i++) {
      scans.run();
    }
    // Without reuse each of the 5 rounds makes at least 3 sets: one for the aggregating task, one
    // per variable for the task returning rows. With reuse, only more tasks at once than before
    // would need new sets (local[2]: at most 2 tasks reading 2 variables each).
    long made = DecodeBuffers.created() - before;
    assertTrue(made <= 4, made + " sets made in 5 rounds");
  }
}
