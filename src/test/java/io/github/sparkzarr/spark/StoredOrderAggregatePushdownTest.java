package io.github.sparkzarr.spark;

import static io.github.sparkzarr.spark.AggregatePushdownTest.assertRowsEqual;
import static io.github.sparkzarr.spark.AggregatePushdownTest.pushed;
import static io.github.sparkzarr.spark.AggregatePushdownTest.sorted;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscCname;
import io.github.sparkzarr.zarr.codec.blosc.BloscCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscShuffle;
import io.github.sparkzarr.zarr.codec.compress.Bz2Codec;
import io.github.sparkzarr.zarr.codec.compress.GzipCodec;
import io.github.sparkzarr.zarr.codec.compress.ZstdCodec;
import io.github.sparkzarr.zarr.codec.v3.V3Codecs;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Aggregates over chunks whose axes are stored in another order (v2 order "F", a v3 "transpose"
 * codec) answer what Spark computes from the rows (which are permuted to C order): without groups
 * the scan adds the chunks in their stored order, boxes that cut chunks moved to the stored axes;
 * with groups it permutes them in reused buffers.
 *
 * <p>Both stores hold (t, y, x) arrays of 10 x 23 x 30 in 4 x 5 x 7 chunks (edge chunks on every
 * axis) with coordinates t, y, x. The v2 store: a float32 in Fortran order, blosc lz4 with 64-byte
 * blocks (a chunk in nine blocks, summed from the shuffled bytes), fill NaN, some NaNs, chunk 1.2.3
 * never written; b big-endian int16 in Fortran order, uncompressed, fill -1 (masked); c float64
 * in Fortran order, zstd. The v3 store: d float32, transpose [2, 0, 1] then zstd, chunk 1/2/3
 * never written; e big-endian int32, transpose [1, 2, 0] then blosc; g float64, transpose [1, 0, 2]
 * then gzip, which decodes only through its codec chain and so is permuted to C order.
 */
class StoredOrderAggregatePushdownTest extends SparkTestBase {
  private static final long[] SHAPE = {10, 23, 30};
  private static final int[] CHUNKS = {4, 5, 7};
  private static final List<String> DIMS = List.of("t", "y", "x");
  private static String v2;
  private static String v3;

  @BeforeAll
  static void write() throws Exception {
    Path dir = Files.createTempDirectory("zarr-stored-order");
    dir.toFile().deleteOnExit();
    v2 = dir.resolve("f.zarr").toString();
    HadoopStore s = new HadoopStore(v2, new Configuration());
    ZarrHierarchy.writeGroupV2(s, "", null);
    coordinatesV2(s);
    BytesCodec blosc = new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 64, 0);
    ZarrArray a = v2Array(s, "a", "<f4", Json.nodes().textNode("NaN"), blosc);
    ZarrArray b = v2Array(s, "b", ">i2", Json.nodes().numberNode(-1), null);
    ZarrArray c = v2Array(s, "c", "<f8", null, new ZstdCodec(1, false));
    fill(a, (t, y, x) -> (t * y + x) % 13 == 5 ? Double.NaN : t * 100 + y - x * 0.37);
    fill(b, (t, y, x) -> (t + y * x) % 11 == 3 ? -1 : (t * 997 + y * 31 - x * 7) % 30000);
    fill(c, (t, y, x) -> Math.sin(t + 0.1 * y) * 1e3 + x);
    s.delete("a/1.2.3");
    ZarrHierarchy.consolidateV2(s);

    v3 = dir.resolve("t.zarr").toString();
    HadoopStore s3 = new HadoopStore(v3, new Configuration());
    ZarrHierarchy.writeGroupV3(s3, "", null);
    for (int k = 0; k < 3; k++) {
      int axis = k;
      fill(v3Array(s3, DIMS.get(k), "<f8", new long[] {SHAPE[k]}, new int[] {CHUNKS[k]}, List.of(DIMS.get(k)),
          "[{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]", 0), (i, j, l) -> i * (axis + 1.5));
    }
    ZarrArray d = v3Array(s3, "d", "<f4", SHAPE, CHUNKS, DIMS, "[" + transpose(2, 0, 1) + ", "
        + "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, "
        + "{\"name\": \"zstd\", \"configuration\": {\"level\": 1, \"checksum\": false}}]", Double.NaN);
    ZarrArray e = v3Array(s3, "e", ">i4", SHAPE, CHUNKS, DIMS, "[" + transpose(1, 2, 0) + ", "
        + "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"big\"}}, "
        + "{\"name\": \"blosc\", \"configuration\": {\"cname\": \"lz4\", \"clevel\": 5, "
        + "\"shuffle\": \"shuffle\", \"typesize\": 4, \"blocksize\": 64}}]", 0);
    ZarrArray g = v3Array(s3, "g", "<f8", SHAPE, CHUNKS, DIMS, "[" + transpose(1, 0, 2) + ", "
        + "{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}, "
        + "{\"name\": \"gzip\", \"configuration\": {\"level\": 1}}]", 0);
    fill(d, (t, y, x) -> (t + y + x) % 17 == 4 ? Double.NaN : t - y * 0.25 + x * 1e-3);
    fill(e, (t, y, x) -> (t * 7919 + y * 104729 + x * 31) % 2000001 - 1000000);
    fill(g, (t, y, x) -> t * 0.5 + y * y - x);
    s3.delete("d/c/1/2/3");
  }

  private static String transpose(int... order) {
    return "{\"name\": \"transpose\", \"configuration\": {\"order\": " + java.util.Arrays.toString(order) + "}}";
  }

  private static void coordinatesV2(HadoopStore s) throws Exception {
    for (int k = 0; k < 3; k++) {
      DataType f8 = NumpyDtype.parse("<f8");
      ArrayMetadata md = new ArrayMetadata(2, new long[] {SHAPE[k]}, new int[] {CHUNKS[k]}, f8,
          FillValue.parseV2(null, f8), new V2ChunkCodec(f8, false, List.of(), null),
          ChunkKeyEncoding.v2('.'), List.of(DIMS.get(k)), dimensions(List.of(DIMS.get(k))));
      int axis = k;
      fill(ZarrHierarchy.writeArrayV2(s, DIMS.get(k), md), (i, j, l) -> i * (axis + 1.5));
    }
  }

  private static com.fasterxml.jackson.databind.node.ObjectNode dimensions(List<String> dims) {
    var attrs = Json.object();
    attrs.putArray("_ARRAY_DIMENSIONS").addAll(dims.stream().map(Json.nodes()::textNode).toList());
    return attrs;
  }

  /** A (t, y, x) v2 array in Fortran order. */
  private static ZarrArray v2Array(HadoopStore s, String name, String dtype, JsonNode fill,
      BytesCodec compressor) throws Exception {
    DataType t = NumpyDtype.parse(dtype);
    ArrayMetadata md = new ArrayMetadata(2, SHAPE, CHUNKS, t, FillValue.parseV2(fill, t),
        new V2ChunkCodec(t, true, List.of(), compressor), ChunkKeyEncoding.v2('.'), DIMS, dimensions(DIMS));
    return ZarrHierarchy.writeArrayV2(s, name, md);
  }

  private static ZarrArray v3Array(HadoopStore s, String name, String dtype, long[] shape, int[] chunks,
      List<String> dims, String codecs, double fill) throws Exception {
    DataType stored = NumpyDtype.parse(dtype);
    DataType t = stored.littleEndian();
    JsonNode fillJson = Double.isNaN(fill) ? Json.nodes().textNode("NaN") : Json.nodes().numberNode(fill);
    FillValue f = FillValue.parseV2(fillJson, t);
    ArrayMetadata md = new ArrayMetadata(3, shape, chunks, t, f,
        V3Codecs.parse(new com.fasterxml.jackson.databind.ObjectMapper().readTree(codecs), t, f, chunks),
        ChunkKeyEncoding.v3Default('/'), dims, Json.object());
    return ZarrHierarchy.writeArrayV3(s, name, md);
  }

  private interface Value {
    double at(long t, long y, long x);
  }

  /** Writes the whole array (1-D or 3-D) with {@code value} at each position, as the array's type. */
  private static void fill(ZarrArray a, Value value) throws Exception {
    long[] shape = a.metadata().shape();
    DataType type = a.memoryType();
    int n = 1;
    for (long d : shape) {
      n *= (int) d;
    }
    ByteBuffer buf = ByteBuffer.allocate(n * type.size()).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < n; i++) {
      long t = shape.length == 1 ? i : i / (shape[1] * shape[2]);
      long y = shape.length == 1 ? 0 : i / shape[2] % shape[1];
      long x = shape.length == 1 ? 0 : i % shape[2];
      double v = value.at(t, y, x);
      switch (type.size()) {
        case 2 -> buf.putShort((short) v);
        case 4 -> {
          if (type.kind() == DataType.Kind.FLOAT) {
            buf.putFloat((float) v);
          } else {
            buf.putInt((int) v);
          }
        }
        default -> buf.putDouble(v);
      }
    }
    int[] whole = new int[shape.length];
    for (int d = 0; d < shape.length; d++) {
      whole[d] = (int) shape[d];
    }
    a.write(new long[shape.length], ChunkData.ofBytes(type, whole, buf.array()));
  }

  private static Dataset<Row> query(String path, String sql, boolean pushDown, String... options) {
    zarrReader(options).option("pushDownAggregate", pushDown).load(path).select("*", "t_index", "y_index", "x_index").createOrReplaceTempView("t");
    return spark().sql(sql);
  }

  private static void assertAsSpark(String path, String sql, String... options) {
    Dataset<Row> on = query(path, sql, true, options);
    assertTrue(pushed(on), () -> "not pushed: " + plan(on));
    assertRowsEqual(sorted(query(path, sql, false, options)), sorted(on), sql);
  }

  /**
   * The scan reads the chunks as stored where it can: gzip too since it decodes into a reused
   * buffer, but not bz2, which only its chain decodes.
   */
  @Test
  void chunksAreReadInTheirStoredOrder() throws Exception {
    HadoopStore s = new HadoopStore(v2, new Configuration());
    assertArrayEquals(new int[] {2, 1, 0}, ZarrArray.open(s, "a").storedAxes());
    assertArrayEquals(new int[] {7, 5, 4}, ZarrArray.open(s, "a").storedChunkShape());
    assertArrayEquals(new int[] {2, 1, 0}, ZarrArray.open(s, "b").storedAxes());
    HadoopStore s3 = new HadoopStore(v3, new Configuration());
    // encoded axis i is chunk axis order[i]: [2, 0, 1] stores (x, t, y), so t is stored axis 1
    assertArrayEquals(new int[] {1, 2, 0}, ZarrArray.open(s3, "d").storedAxes());
    assertArrayEquals(new int[] {7, 4, 5}, ZarrArray.open(s3, "d").storedChunkShape());
    assertArrayEquals(new int[] {2, 0, 1}, ZarrArray.open(s3, "e").storedAxes());
    assertArrayEquals(new int[] {1, 0, 2}, ZarrArray.open(s3, "g").storedAxes());
    Path dir = Files.createTempDirectory("zarr-stored-order-bz2");
    dir.toFile().deleteOnExit();
    HadoopStore bz2 = new HadoopStore(dir.resolve("b.zarr").toString(), new Configuration());
    ZarrHierarchy.writeGroupV2(bz2, "", null);
    v2Array(bz2, "h", "<f8", null, new Bz2Codec(9));
    assertNull(ZarrArray.open(bz2, "h").storedAxes());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(a), count(a), count(*), min(a), max(a), avg(a), sum(b), min(b), max(b), count(b), sum(c), max(c) FROM t",
      "SELECT sum(a), max(b), avg(c), count(*) FROM t WHERE t_index BETWEEN 1 AND 6 AND x_index >= 3 AND x_index < 25 AND y_index > 2",
      "SELECT min(a), sum(b), sum(c) FROM t WHERE t_index = 5 AND y_index < 9 AND x_index > 12",
      "SELECT t, sum(a), min(b), max(c), count(*) FROM t GROUP BY t",
      "SELECT y, avg(a), sum(b), min(c) FROM t GROUP BY y",
      "SELECT y, x, avg(a), max(a), min(b), sum(c), count(a) FROM t GROUP BY y, x",
      "SELECT x_index, y_index, sum(a), max(c) FROM t WHERE t_index >= 5 AND y_index < 9 GROUP BY x_index, y_index",
  })
  void fortranOrderedChunksAnswerAsSparkDoes(String sql) {
    assertAsSpark(v2, sql);
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "SELECT sum(d), count(d), min(d), max(d), avg(d), sum(e), min(e), max(e), sum(g), min(g), count(*) FROM t",
      "SELECT sum(d), max(e), avg(g), count(*) FROM t WHERE y_index BETWEEN 4 AND 15 AND x_index > 1 AND t_index < 7",
      "SELECT t, sum(d), max(e), avg(g) FROM t GROUP BY t",
      "SELECT x, t, sum(d), count(e) FROM t WHERE y_index BETWEEN 4 AND 15 AND x_index > 1 GROUP BY x, t",
  })
  void transposedChunksAnswerAsSparkDoes(String sql) {
    assertAsSpark(v3, sql);
  }

  /** A partition per chunk: partial aggregates of boxes that start inside chunks. */
  @Test
  void partialAggregatesPerChunkAnswerAsSparkDoes() {
    assertAsSpark(v2, "SELECT sum(a), min(b), max(c) FROM t WHERE x_index > 4 AND t_index < 9",
        "maxPartitionBytes", "1");
    assertAsSpark(v3, "SELECT avg(d), max(e) FROM t WHERE y_index > 4 AND t_index > 0", "maxPartitionBytes", "1");
    assertAsSpark(v2, "SELECT y, sum(a), min(b), max(c) FROM t WHERE x_index > 4 AND t_index < 9 GROUP BY y",
        "maxPartitionBytes", "1");
  }
}
