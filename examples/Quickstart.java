import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.store.HadoopStore;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * The spark-zarr quickstart: writes a small ERA5-like Zarr v2 dataset (hourly 2 m temperature on
 * a 10-degree grid, blosc-compressed, with CF coordinates), then queries it with Spark SQL in
 * local mode and checks one answer against a plain Java computation.
 *
 * <p>Run: {@code examples/run-java-example.sh examples/Quickstart.java [store-path]}
 */
public class Quickstart {
  static final int TIMES = 48;
  static final int LATS = 19;
  static final int LONS = 36;

  public static void main(String[] args) throws Exception {
    Path store = Path.of(args.length > 0 ? args[0] : "target/quickstart/era5-sample.zarr").toAbsolutePath();
    writeSampleStore(store);
    System.out.println("Wrote the sample Zarr store " + store);

    SparkSession spark = SparkSession.builder()
        .master("local[2]")
        .appName("spark-zarr quickstart")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.sql.shuffle.partitions", "2")
        // The one line that makes SELECT ... FROM zarr.`/path/to/store.zarr` work:
        .config("spark.sql.catalog.zarr", "io.github.sparkzarr.spark.ZarrCatalog")
        .getOrCreate();
    spark.sparkContext().setLogLevel("WARN");
    try {
      spark.read().format("zarr").load(store.toString()).printSchema();

      String box = "SELECT count(*) AS cells, round(avg(t2m), 4) AS mean_t2m FROM zarr.`" + store
          + "` WHERE lat BETWEEN 30 AND 40 AND time >= '2020-01-02'";
      System.out.println(box);
      List<Row> rows = spark.sql(box).collectAsList();
      spark.sql(box).show();

      String byLat = "SELECT lat, round(avg(t2m), 2) AS mean_t2m FROM zarr.`" + store
          + "` GROUP BY lat ORDER BY lat DESC LIMIT 5";
      System.out.println(byLat);
      spark.sql(byLat).show();

      double expected = expectedBoxMean();
      double got = rows.get(0).getDouble(1);
      long cells = rows.get(0).getLong(0);
      if (cells != 2L * 24 * LONS || Math.abs(got - expected) > 1e-3) {
        System.err.println("MISMATCH: Spark gave " + cells + " cells, mean " + got
            + "; plain Java computes " + 2 * 24 * LONS + " cells, mean " + expected);
        System.exit(1);
      }
      System.out.println("Quickstart OK: Spark's answer matches a plain Java computation ("
          + String.format("%.4f", expected) + ").");
    } finally {
      spark.stop();
    }
  }

  /** Temperature in kelvin: colder towards the poles, a daily cycle, a little longitude wave. */
  static float t2m(int t, int la, int lo) {
    double lat = latitude(la);
    return (float) (288.0 - 30.0 * Math.abs(lat) / 90.0
        + 5.0 * Math.sin(2 * Math.PI * (t % 24) / 24.0)
        + Math.cos(Math.toRadians(lo * 10.0)));
  }

  static double latitude(int la) {
    return 90.0 - 10.0 * la;
  }

  /** Mean of t2m over lat 30..40 and the second day, computed directly. */
  static double expectedBoxMean() {
    double sum = 0;
    int n = 0;
    for (int t = 24; t < TIMES; t++) {
      for (int la = 0; la < LATS; la++) {
        double lat = latitude(la);
        if (lat < 30 || lat > 40) {
          continue;
        }
        for (int lo = 0; lo < LONS; lo++) {
          sum += t2m(t, la, lo);
          n++;
        }
      }
    }
    return Math.round(sum / n * 1e4) / 1e4;
  }

  static void writeSampleStore(Path path) throws Exception {
    try (HadoopStore store = new HadoopStore(path.toUri().toString(), new Configuration())) {
      store.deletePrefix("");
      ObjectNode rootAttrs = Json.object().put("title", "spark-zarr quickstart sample");
      ZarrHierarchy.writeGroupV2(store, "", rootAttrs);

      ByteBuffer time = little(TIMES * 8);
      for (int t = 0; t < TIMES; t++) {
        time.putLong(t);
      }
      write(store, "time", "[" + TIMES + "]", "[" + TIMES + "]", "<i8", List.of("time"),
          Json.object().put("units", "hours since 2020-01-01 00:00:00")
              .put("calendar", "proleptic_gregorian").put("standard_name", "time"), time);

      ByteBuffer lat = little(LATS * 8);
      for (int la = 0; la < LATS; la++) {
        lat.putDouble(latitude(la));
      }
      write(store, "lat", "[" + LATS + "]", "[" + LATS + "]", "<f8", List.of("lat"),
          Json.object().put("units", "degrees_north").put("standard_name", "latitude"), lat);

      ByteBuffer lon = little(LONS * 8);
      for (int lo = 0; lo < LONS; lo++) {
        lon.putDouble(lo * 10.0);
      }
      write(store, "lon", "[" + LONS + "]", "[" + LONS + "]", "<f8", List.of("lon"),
          Json.object().put("units", "degrees_east").put("standard_name", "longitude"), lon);

      ByteBuffer t2m = little(TIMES * LATS * LONS * 4);
      for (int t = 0; t < TIMES; t++) {
        for (int la = 0; la < LATS; la++) {
          for (int lo = 0; lo < LONS; lo++) {
            t2m.putFloat(t2m(t, la, lo));
          }
        }
      }
      write(store, "t2m", "[" + TIMES + "," + LATS + "," + LONS + "]", "[24,10,18]", "<f4",
          List.of("time", "lat", "lon"),
          Json.object().put("units", "K").put("long_name", "2 metre temperature"), t2m);
      ZarrHierarchy.consolidateV2(store);
    }
  }

  static ByteBuffer little(int bytes) {
    return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /** Writes one array: its metadata (blosc lz4 with shuffle) and all of its values. */
  static void write(HadoopStore store, String name, String shape, String chunks, String dtype,
      List<String> dims, ObjectNode attrs, ByteBuffer values) throws Exception {
    String zarray = "{\"zarr_format\":2,\"shape\":" + shape + ",\"chunks\":" + chunks
        + ",\"dtype\":\"" + dtype + "\",\"compressor\":{\"id\":\"blosc\",\"cname\":\"lz4\","
        + "\"clevel\":5,\"shuffle\":1,\"blocksize\":0},\"fill_value\":null,\"order\":\"C\","
        + "\"filters\":null}";
    dims.forEach(attrs.putArray(V2Metadata.DIMENSIONS_ATTR)::add);
    ObjectNode doc = Json.parseObject(zarray.getBytes(StandardCharsets.UTF_8), store.location(), name);
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
