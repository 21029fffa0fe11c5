package io.github.sparkzarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A CF-encoded xarray dataset read as xarray's to_dataframe() gives it. */
class ZarrDatasetViewTest extends SparkTestBase {
  private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);
  private static JsonNode expected;

  @BeforeAll
  static void load() throws Exception {
    expected = expected("dataset.expected.json");
  }

  private static Dataset<Row> dataset() {
    return spark().read().format("zarr").load(fixture("dataset.zarr"));
  }

  /** Expected rows keyed by "time|lat|lon". */
  private static Map<String, JsonNode> expectedRows() {
    List<String> cols = new java.util.ArrayList<>();
    expected.get("columns").forEach(c -> cols.add(c.asText()));
    Map<String, JsonNode> out = new HashMap<>();
    for (JsonNode row : expected.get("rows")) {
      String key = row.get(cols.indexOf("time")).asLong() + "|" + row.get(cols.indexOf("lat")).asDouble()
          + "|" + row.get(cols.indexOf("lon")).asDouble();
      com.fasterxml.jackson.databind.node.ObjectNode named = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
      for (int i = 0; i < cols.size(); i++) {
        named.set(cols.get(i), row.get(i));
      }
      out.put(key, named);
    }
    return out;
  }

  private static long micros(LocalDateTime t) {
    return ChronoUnit.MICROS.between(EPOCH, t);
  }

  @Test
  void schemaHasCoordinatesThenDataVariablesWithXarrayTypes() {
    assertEquals("struct<time:timestamp_ntz,lat:double,lon:float,elev:double,packed:float,precip:double,t2m:float>",
        dataset().schema().simpleString());
    assertEquals("float32", expected.get("dtypes").get("packed").asText());
  }

  @Test
  void valuesMatchXarray() {
    Map<String, JsonNode> want = expectedRows();
    List<Row> rows = dataset().collectAsList();
    assertEquals(want.size(), rows.size());
    for (Row r : rows) {
      String key = micros(r.getAs("time")) + "|" + r.getDouble(1) + "|" + (double) r.getFloat(2);
      JsonNode w = want.get(key);
      assertTrue(w != null, "unexpected row " + key);
      for (String v : List.of("elev", "packed", "precip", "t2m")) {
        Object got = r.getAs(v);
        if (w.get(v).isNull()) {
          assertNull(got, v + " at " + key);
        } else {
          double g = ((Number) got).doubleValue();
          assertEquals(w.get(v).asDouble(), g, v + " at " + key);
        }
      }
    }
  }

  @Test
  void missingChunkAndFillValuesAreNull() {
    // t2m chunk (1,1,1) was deleted: times 2-3, lat 3-5, lon 4-7 read as the fill value (NaN -> null).
    long nulls = dataset().where("t2m IS NULL").count();
    long want = expectedRows().values().stream().filter(w -> w.get("t2m").isNull()).count();
    assertEquals(want, nulls);
    assertTrue(nulls >= 2 * 3 * 4);
  }

  @Test
  void positionsAreHiddenMetadataColumns() {
    Dataset<Row> df = dataset();
    assertTrue(!List.of(df.columns()).contains("lat_index"));
    List<Row> rows = df.select("lat_index", "lat").where("lat_index = 2").distinct().collectAsList();
    assertEquals(1, rows.size());
    assertEquals(40.0, rows.get(0).getDouble(1));
  }

  @Test
  void sqlOnPathThroughTheZarrCatalog() {
    Row r = spark().sql("SELECT avg(t2m), count(*) FROM zarr.`" + fixture("dataset.zarr")
        + "` WHERE lat BETWEEN 30 AND 40 AND time >= '2020-01-02'").first();
    double sum = 0;
    long n = 0;
    long rows = 0;
    long from = micros(LocalDateTime.of(2020, 1, 2, 0, 0));
    for (JsonNode w : expectedRows().values()) {
      if (w.get("lat").asDouble() >= 30 && w.get("lat").asDouble() <= 40 && w.get("time").asLong() >= from) {
        rows++;
        if (!w.get("t2m").isNull()) {
          sum += (float) w.get("t2m").asDouble();
          n++;
        }
      }
    }
    assertEquals(rows, r.getLong(1));
    assertEquals(sum / n, r.getDouble(0), 1e-9);
  }

  @Test
  void decodeCfOffReadsStoredValues() {
    Dataset<Row> raw = spark().read().format("zarr").option("decodeCF", "false").load(fixture("dataset.zarr"));
    assertEquals("struct<time:bigint,lat:double,lon:float,elev:double,packed:smallint,precip:double,t2m:float>",
        raw.schema().simpleString());
    assertEquals(List.of(1L, 2L, 3L, 4L, 5L),
        raw.select("time").distinct().orderBy("time").collectAsList().stream().map(x -> x.getLong(0)).toList());
    assertEquals(1 * 9, raw.where("packed = -32768").count());
  }

  @Test
  void arraysThatDoNotShareDimensionsAreNamedInTheError() {
    Exception e = assertThrows(Exception.class,
        () -> spark().read().format("zarr").load(fixture("mixed.zarr")).schema());
    String msg = e.getMessage();
    assertTrue(msg.contains("station_height") && msg.contains("option(\"variables\"")
        && msg.contains("option(\"array\""), msg);
    Dataset<Row> a = spark().read().format("zarr").option("variables", "a").load(fixture("mixed.zarr"));
    assertEquals(List.of("time", "lat", "a"), List.of(a.columns()));
    assertEquals(35, a.count());
    Dataset<Row> s = spark().read().format("zarr").option("array", "station_height").load(fixture("mixed.zarr"));
    assertEquals(List.of("station", "station_height"), List.of(s.columns()));
  }
}
