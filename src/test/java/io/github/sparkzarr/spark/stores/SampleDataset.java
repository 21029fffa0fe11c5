package io.github.sparkzarr.spark.stores;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.store.Store;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * A small xarray-style dataset written with the core writer: coordinates x[6] and y[4] and
 * value[x, y] = 10 * x + y in 2 x 3 chunks (zlib), with consolidated metadata. Small enough to
 * check every answer by hand, chunked so a read spans several partitions.
 */
final class SampleDataset {
  static final int NX = 6;
  static final int NY = 4;

  private SampleDataset() {}

  static void write(Store store) throws IOException {
    ZarrHierarchy.writeGroupV2(store, "", Json.object().put("title", "spark-zarr store test"));
    ByteBuffer x = little(NX * 4);
    for (int i = 0; i < NX; i++) {
      x.putInt(i);
    }
    writeArray(store, "x", "[" + NX + "]", "[" + NX + "]", "<i4", List.of("x"), x);
    ByteBuffer y = little(NY * 4);
    for (int j = 0; j < NY; j++) {
      y.putInt(j);
    }
    writeArray(store, "y", "[" + NY + "]", "[" + NY + "]", "<i4", List.of("y"), y);
    ByteBuffer v = little(NX * NY * 8);
    for (int i = 0; i < NX; i++) {
      for (int j = 0; j < NY; j++) {
        v.putDouble(10.0 * i + j);
      }
    }
    writeArray(store, "value", "[" + NX + "," + NY + "]", "[2,3]", "<f8", List.of("x", "y"), v);
    ZarrHierarchy.consolidateV2(store);
  }

  /** The answers a correct read of the dataset gives, checked on any DataFrame of it. */
  static void assertReadsCorrectly(Dataset<Row> df) {
    assertEquals(List.of("x", "y", "value"), List.of(df.columns()));
    df.createOrReplaceTempView("sample");
    Row r = df.sparkSession().sql("SELECT count(*), sum(value), max(value) FROM sample").first();
    assertEquals(NX * NY, r.getLong(0));
    assertEquals(4 * (10.0 * 15) + 6 * 6.0, r.getDouble(1)); // sum_i sum_j (10 i + j)
    assertEquals(53.0, r.getDouble(2));
    Row one = df.sparkSession().sql("SELECT value FROM sample WHERE x = 4 AND y = 2").first();
    assertEquals(42.0, one.getDouble(0));
  }

  private static ByteBuffer little(int bytes) {
    return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static void writeArray(Store store, String name, String shape, String chunks,
      String dtype, List<String> dims, ByteBuffer values) throws IOException {
    String zarray = "{\"zarr_format\":2,\"shape\":" + shape + ",\"chunks\":" + chunks
        + ",\"dtype\":\"" + dtype + "\",\"compressor\":{\"id\":\"zlib\",\"level\":1},"
        + "\"fill_value\":0,\"order\":\"C\",\"filters\":null}";
    var attrs = Json.object();
    dims.forEach(attrs.putArray(V2Metadata.DIMENSIONS_ATTR)::add);
    var doc = Json.parseObject(zarray.getBytes(StandardCharsets.UTF_8), store.location(), name);
    ZarrArray array = ZarrHierarchy.writeArrayV2(store, name,
        V2Metadata.readArray(doc, attrs, store.location(), name + "/.zarray"));
    long[] shapeLong = array.metadata().shape();
    int[] shapeInt = new int[shapeLong.length];
    for (int i = 0; i < shapeInt.length; i++) {
      shapeInt[i] = (int) shapeLong[i];
    }
    array.write(new long[shapeInt.length],
        ChunkData.ofBytes(array.memoryType(), shapeInt, values.array()));
  }
}
