package io.github.sparkzarr.spark;

import static io.github.sparkzarr.spark.AggregatePushdownTest.assertRowsEqual;
import static io.github.sparkzarr.spark.AggregatePushdownTest.pushed;
import static io.github.sparkzarr.spark.AggregatePushdownTest.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Aggregates computed in the scan from sharded arrays, inner chunk by inner chunk, answer what
 * Spark computes from the rows (which read each shard as a region). The arrays are zarr-java's
 * (src/test/resources/corpus/v3-sharded): inner gzip, blosc-lz4 and zstd chunks, the index at the
 * start or the end, big-endian uncompressed inner chunks, a 3-D array with partial edge shards,
 * inner chunks never written, sharding inside sharding, and a transpose inside the shard.
 */
class ShardedAggregatePushdownTest extends SparkTestBase {
  private static final Path DIR = Path.of("src/test/resources/corpus/v3-sharded/arrays").toAbsolutePath();

  private static Dataset<Row> query(String array, String sql, boolean pushDown) {
    spark().read().format("zarr").option("pushDownAggregate", pushDown)
        .load(DIR.resolve(array).toString()).createOrReplaceTempView("t");
    return spark().sql(sql.replace("{v}", array));
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "int32_gzip_end",
      "int32_blosc_lz4_end",
      "int32_zstd_index_start",
      "int32_raw_bytes_be",
      "float64_3d_edge_shards",
      "int32_sparse_fill_m1",
      "uint16_nested_sharding",
      "float32_transpose_inner",
  })
  void pushedAggregatesAnswerAsSparkDoes(String array) {
    List<String> queries = List.of(
        "SELECT sum({v}), count({v}), count(*), min({v}), max({v}), avg({v}) FROM t",
        "SELECT dim_0, sum({v}), min({v}), max({v}), count(*) FROM t GROUP BY dim_0",
        "SELECT dim_1, avg({v}), max({v}) FROM t WHERE dim_0 BETWEEN 3 AND 12 AND dim_1 > 2 GROUP BY dim_1",
        "SELECT dim_0, dim_1, sum({v}) FROM t WHERE dim_1 < 7 GROUP BY dim_0, dim_1");
    for (String sql : queries) {
      Dataset<Row> on = query(array, sql, true);
      assertTrue(pushed(on), () -> "not pushed: " + plan(on));
      List<Row> expected = sorted(query(array, sql, false));
      assertRowsEqual(expected, sorted(query(array, sql, true)), array + ": " + sql);
    }
  }

  /** The sums, minima and maxima zarr-java's manifest gives, computed in the scan. */
  @ParameterizedTest
  @CsvSource({
      "int32_gzip_end, 121120, -100, 857",
      "int32_zstd_index_start, 121120, -100, 857",
      "int32_raw_bytes_be, 121120, -100, 857",
      "int32_sparse_fill_m1, 19890, -1, 1019",
      "uint16_nested_sharding, 357280, 0, 2233",
  })
  void sumsAndExtremesMatchZarrJava(String array, long sum, long min, long max) {
    Dataset<Row> df = query(array, "SELECT sum({v}), min({v}), max({v}), count(*) FROM t", true);
    assertTrue(pushed(df));
    Row row = df.first();
    assertEquals(sum, row.getLong(0));
    assertEquals(min, ((Number) row.get(1)).longValue());
    assertEquals(max, ((Number) row.get(2)).longValue());
    assertEquals(320, row.getLong(3));
  }

  /** Rows of whole shards, assembled from their inner chunks, hold what zarr-java wrote. */
  @ParameterizedTest
  @CsvSource({
      "int32_gzip_end, int32", "int32_blosc_lz4_end, int32", "int32_zstd_index_start, int32",
      "int32_raw_bytes_be, int32", "int32_sparse_fill_m1, int32", "uint16_nested_sharding, uint16",
      "float32_transpose_inner, float32",
  })
  void rowsHoldWhatZarrJavaWrote(String array, String type) throws Exception {
    JsonNode manifest = new ObjectMapper().readTree(DIR.resolveSibling("manifest.json").toFile());
    String rawFile = null;
    for (JsonNode e : manifest.get("entries")) {
      if (e.get("path").asText().equals("arrays/" + array)) {
        rawFile = e.get("expected").get("raw").get("file").asText();
      }
    }
    ByteBuffer raw = ByteBuffer.wrap(Files.readAllBytes(DIR.resolveSibling(rawFile))).order(ByteOrder.LITTLE_ENDIAN);
    List<Row> rows = spark().read().format("zarr").load(DIR.resolve(array).toString())
        .select("dim_0", "dim_1", array).collectAsList();
    assertEquals(320, rows.size());
    for (Row row : rows) {
      int at = (int) (row.getLong(0) * 20 + row.getLong(1));
      double expected = switch (type) {
        case "int32" -> raw.getInt(at * 4);
        case "uint16" -> Short.toUnsignedInt(raw.getShort(at * 2));
        default -> raw.getFloat(at * 4);
      };
      assertEquals(expected, ((Number) row.get(2)).doubleValue(), array + " at " + row);
    }
  }
}
