package io.github.sparkzarr.spark;

import static io.github.sparkzarr.spark.AggregatePushdownTest.assertRowsEqual;
import static io.github.sparkzarr.spark.AggregatePushdownTest.pushed;
import static io.github.sparkzarr.spark.AggregatePushdownTest.sorted;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GROUP BY a dimension followed by a short one not grouped on, as in genotype calls (variants,
 * samples, ploidy): the scan adds such runs of two elements through a table of each element's
 * group, and must answer what Spark computes from the rows, with masked values, NaNs, edge chunks
 * and boxes that cut chunks.
 *
 * <p>The store: gt(variants, samples, ploidy) int8 with fill value 0 (missing), gq the same in
 * uint8 (fill 0, one sample all missing), and dp in float32 with fill NaN and some NaN values, both 300 x 37 x 2 in chunks 64 x 37 x 2,
 * blosc zstd with bit shuffle.
 */
class ShortRunGroupsTest extends SparkTestBase {
  private static final long[] SHAPE = {300, 37, 2};
  private static final int[] CHUNKS = {64, 37, 2};
  private static String store;

  @BeforeAll
  static void write() throws Exception {
    Path dir = Files.createTempDirectory("zarr-short-runs").resolve("calls.zarr");
    store = dir.toString();
    HadoopStore s = new HadoopStore(store, new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    writeAll(array(s, "gt", "|i1"), (i, j, k) -> (i * 7 + j * 3 + k * 5) % 4 - 1);
    writeAll(array(s, "dp", "<f4"), (i, j, k) -> (i + j + k) % 11 == 3 ? Double.NaN : i * 0.25 - j * 1.5 + k);
    // uint8 quality, fill 0 (missing): sample 3 has no value at all, and 0 is below every value kept
    writeAll(array(s, "gq", "|u1"), (i, j, k) -> j == 3 || (i * j + k) % 7 == 0 ? 0 : 3 + (i * 5 + j + k) % 250);
    ZarrHierarchy.consolidateV2(s);
    dir.toFile().deleteOnExit();
  }

  private interface Value {
    double at(long i, long j, long k);
  }

  private static ZarrArray array(HadoopStore s, String name, String dtype) throws Exception {
    DataType t = NumpyDtype.parse(dtype);
    FillValue fill = FillValue.parseV2(t.kind() == DataType.Kind.FLOAT
        ? Json.nodes().textNode("NaN") : Json.nodes().numberNode(0), t);
    // Blosc blocks of 1000 bytes split the runs: the scan adds them block by block.
    BloscCodec blosc = new BloscCodec(BloscCname.ZSTD, 3, BloscShuffle.BITSHUFFLE, 1000, 0);
    ArrayMetadata md = new ArrayMetadata(2, SHAPE, CHUNKS, t, fill, new V2ChunkCodec(t, false, List.of(), blosc),
        ChunkKeyEncoding.v2('.'), List.of("variants", "samples", "ploidy"), Json.object());
    return ZarrHierarchy.writeArrayV2(s, name, md);
  }

  /** Writes every chunk of a 3-D array chunked along its first dimension only. */
  private static void writeAll(ZarrArray a, Value value) throws Exception {
    int n = CHUNKS[0] * CHUNKS[1] * CHUNKS[2];
    boolean floats = a.memoryType().kind() == DataType.Kind.FLOAT;
    for (long c = 0; c * CHUNKS[0] < SHAPE[0]; c++) {
      ByteBuffer b = ByteBuffer.allocate(n * a.memoryType().size()).order(ByteOrder.LITTLE_ENDIAN);
      for (int e = 0; e < n; e++) {
        double v = value.at(c * CHUNKS[0] + e / (CHUNKS[1] * CHUNKS[2]), e / CHUNKS[2] % CHUNKS[1], e % CHUNKS[2]);
        if (floats) {
          b.putFloat((float) v);
        } else {
          b.put((byte) v);
        }
      }
      a.writeChunk(new long[] {c, 0, 0}, ChunkData.ofBytes(a.memoryType(), CHUNKS, b.array()));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT samples, count(*), count(gt), sum(gt), avg(gt), min(gt), max(gt) FROM t GROUP BY samples",
      "SELECT samples, count(dp), sum(dp), avg(dp), min(dp), max(dp) FROM t GROUP BY samples",
      "SELECT samples, count(gt) FROM t GROUP BY samples",
      "SELECT samples, min(gq), max(gq), count(gq), avg(gq) FROM t GROUP BY samples",
      "SELECT ploidy, samples, min(gq), max(gq), min(gt) FROM t WHERE variants < 70 GROUP BY ploidy, samples",
      "SELECT ploidy, sum(gt), count(gt), avg(dp), min(dp), max(dp) FROM t GROUP BY ploidy",
      "SELECT samples, sum(gt), max(dp) FROM t WHERE samples < 20 AND variants BETWEEN 50 AND 140 GROUP BY samples",
      "SELECT variants, ploidy, sum(gt), count(gt), min(gt), sum(dp) FROM t GROUP BY variants, ploidy",
      // the box cuts samples: a table over samples x ploidy, a new group at each variant
      "SELECT variants, ploidy, sum(gt), count(dp), max(gt) FROM t WHERE samples > 5 GROUP BY variants, ploidy",
      "SELECT samples, variants, avg(gt), count(dp) FROM t WHERE variants < 100 GROUP BY samples, variants",
  })
  void groupsOverAShortTrailingDimensionAnswerAsSpark(String sql) {
    for (String maxPartitionBytes : new String[] {"128m", "1"}) {
      Dataset<Row> on = query(sql, true, maxPartitionBytes);
      assertTrue(pushed(on), () -> "not pushed: " + plan(on));
      Dataset<Row> off = query(sql, false, maxPartitionBytes);
      assertFalse(pushed(off));
      assertEquals(off.schema(), on.schema(), sql);
      List<Row> expected = sorted(off);
      assertFalse(expected.isEmpty(), sql);
      assertRowsEqual(expected, sorted(on), sql + " maxPartitionBytes=" + maxPartitionBytes);
    }
  }

  private static Dataset<Row> query(String sql, boolean pushDown, String maxPartitionBytes) {
    spark().read().format("zarr").option("pushDownAggregate", pushDown)
        .option("maxPartitionBytes", maxPartitionBytes).load(store).createOrReplaceTempView("t");
    return spark().sql(sql);
  }
}
