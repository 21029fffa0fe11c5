package io.github.sparkzarr.spark.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.spark.SparkTestBase;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What we write reads back the same through our reader, zarr-python 2.13 and xarray. */
class WriteRoundTripTest extends SparkTestBase {
  @TempDir Path tmp;

  /** 6 x 4 positions in 4 x 3 chunks (edges on both axes), one column per supported type. */
  static Dataset<Row> everyType() {
    return spark().sql("SELECT t, y, "
        + "(t + y) % 2 = 0 AS b, CAST(t - y AS TINYINT) AS i1, CAST(t * 1000 - y AS SMALLINT) AS i2, "
        + "CAST(t * 100000 + y AS INT) AS i4, t * 10000000000 - y AS i8, "
        + "CAST(t / 3.0 AS FLOAT) AS f4, IF(t = 1 AND y = 2, NULL, CAST(t * 0.25 - y AS DOUBLE)) AS f8, "
        + "IF(y = 3, NULL, TIMESTAMP_NTZ '2020-02-29 12:00:00' + make_dt_interval(t, y, 0, 0.5)) AS ts, "
        + "make_dt_interval(0, t, y, 1.25) AS dt, "
        + "concat('é', repeat('x', CAST(t AS INT)), '日', y) AS s, "
        + "CAST(concat('b', t, y) AS BINARY) AS bin "
        + "FROM range(6) a(t) CROSS JOIN range(4) b(y)");
  }

  @ParameterizedTest
  @ValueSource(strings = {"zstd", "blosc", "gzip", "zlib", "lz4", "bz2", "lzma", "none"})
  void everyTypeWithEveryCompressorReadsBackExactly(String compressor) throws Exception {
    Dataset<Row> df = everyType();
    String out = tmp.resolve(compressor + ".zarr").toString();
    df.write().format("zarr").option("zarr_format", "2").option("dimensions", "t,y").option("chunks", "4,3")
        .option("compressor", compressor).save(out);

    String[] columns = df.columns();
    Dataset<Row> back = spark().read().format("zarr").load(out).selectExpr(columns);
    assertEquals(24, back.count());
    assertEquals(0, back.exceptAll(df).count(), "read back differs");
    assertEquals(0, df.exceptAll(back).count(), "read back differs");

    JsonNode py = PythonReader.read(out);
    List<Row> rows = df.orderBy("t", "y").collectAsList();
    for (int c = 2; c < columns.length; c++) {
      JsonNode array = py.get("arrays").get(columns[c]);
      assertEquals(compressor.equals("none") ? null : compressor,
          array.get("compressor").isNull() ? null : array.get("compressor").asText(), columns[c]);
      assertEquals(List.of(6, 4), ints(array.get("shape")), columns[c]);
      assertEquals(List.of(4, 3), ints(array.get("chunks")), columns[c]);
      assertEquals(List.of("t", "y"), texts(array.get("attrs").get("_ARRAY_DIMENSIONS")));
      for (int r = 0; r < rows.size(); r++) {
        JsonNode want = expected(rows.get(r).get(c));
        JsonNode got = array.get("values").get(r);
        boolean same = want.isNumber() && got.isNumber()
            ? want.decimalValue().compareTo(got.decimalValue()) == 0 : want.equals(got);
        assertTrue(same, columns[c] + " at " + rows.get(r).get(0) + "," + rows.get(r).get(1)
            + ": expected " + want + ", zarr-python read " + got);
      }
    }
    assertEquals("|b1", py.get("arrays").get("b").get("dtype").asText());
    assertEquals("<M8[us]", py.get("arrays").get("ts").get("dtype").asText());
    assertEquals("<m8[us]", py.get("arrays").get("dt").get("dtype").asText());
    assertEquals(List.of("vlen-utf8"), texts(py.get("arrays").get("s").get("filters")));
    assertEquals(List.of("vlen-bytes"), texts(py.get("arrays").get("bin").get("filters")));
  }

  /**
   * Option "filters" in v2: numcodecs filters on the floating-point variables only, which
   * zarr-python 2.13 lists and decodes to what we read back.
   */
  @Test
  void filtersApplyToFloatingPointVariables() throws Exception {
    Dataset<Row> df = everyType().selectExpr("t", "y", "i4", "f4 * 7.77 AS f4", "f8");
    String out = tmp.resolve("filters.zarr").toString();
    df.write().format("zarr").option("zarr_format", "2").option("dimensions", "t,y").option("chunks", "4,3")
        .option("compressor", "blosc")
        .option("filters", "[{\"id\": \"quantize\", \"digits\": 1}, {\"id\": \"bitround\", \"keepbits\": 5}]")
        .save(out);
    JsonNode py = PythonReader.read(out);
    assertEquals(List.of("quantize", "bitround"), texts(py.get("arrays").get("f4").get("filters")));
    assertEquals(List.of("quantize", "bitround"), texts(py.get("arrays").get("f8").get("filters")));
    JsonNode intFilters = py.get("arrays").get("i4").get("filters");
    assertTrue(intFilters.isNull() || intFilters.isEmpty(), "integers are not filtered: " + intFilters);
    List<Row> back = spark().read().format("zarr").load(out).orderBy("t", "y").collectAsList();
    List<Row> original = df.orderBy("t", "y").collectAsList();
    int changed = 0;
    for (int r = 0; r < back.size(); r++) {
      for (String c : List.of("f4", "f8")) {
        Object got = back.get(r).getAs(c);
        JsonNode zarrPython = py.get("arrays").get(c).get("values").get(r);
        if (got == null || (got instanceof Double x && x.isNaN())) {
          assertTrue(zarrPython.isNull(), c + " at " + r);
          continue;
        }
        double v = ((Number) got).doubleValue();
        double was = ((Number) original.get(r).getAs(c)).doubleValue();
        assertEquals(zarrPython.doubleValue(), v, 0.0, c + " at " + r);
        assertEquals(was, v, 0.1 + Math.abs(was) / 32, c + " at " + r);
        changed += v != was ? 1 : 0;
      }
      assertEquals((int) original.get(r).getAs("i4"), (int) back.get(r).getAs("i4"));
    }
    assertTrue(changed > 10, "the filters changed the values, " + changed + " of them");
  }

  /** A Spark value as read_written_store.py prints it. */
  private static JsonNode expected(Object v) {
    var f = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance;
    if (v == null) {
      return f.nullNode();
    } else if (v instanceof Boolean b) {
      return f.booleanNode(b);
    } else if (v instanceof Float x) {
      return f.numberNode((double) x);
    } else if (v instanceof Double x) {
      return Double.isNaN(x) ? f.nullNode() : f.numberNode(x);
    } else if (v instanceof Number n) {
      return f.numberNode(n.longValue());
    } else if (v instanceof LocalDateTime t) {
      long s = t.toEpochSecond(ZoneOffset.UTC);
      return f.numberNode(s * 1_000_000 + t.getNano() / 1000);
    } else if (v instanceof Duration d) {
      return f.numberNode(d.getSeconds() * 1_000_000 + d.getNano() / 1000);
    } else if (v instanceof byte[] b) {
      return f.textNode(Base64.getEncoder().encodeToString(b));
    }
    return f.textNode(v.toString());
  }

  private static List<Integer> ints(JsonNode n) {
    List<Integer> out = new ArrayList<>();
    n.forEach(x -> out.add(x.asInt()));
    return out;
  }

  static List<String> texts(JsonNode n) {
    List<String> out = new ArrayList<>();
    n.forEach(x -> out.add(x.asText()));
    return out;
  }

  @Test
  void writesAGroupOfArraysChunkByChunkAndReadsItBack() throws Exception {
    Dataset<Row> df = spark().sql("SELECT t, y, CAST(t * 10 + y AS DOUBLE) AS temp, "
        + "CAST(t + y AS INT) AS count FROM range(7) a(t) CROSS JOIN range(5) b(y)");
    String out = tmp.resolve("out.zarr").toString();
    df.write().format("zarr").option("zarr_format", "2").option("dimensions", "t,y").option("chunks", "3,2").save(out);

    ZarrArray temp = ZarrArray.open(new HadoopStore(out, new Configuration()), "temp");
    assertEquals(List.of("t", "y"), temp.metadata().dimensionNames());
    assertEquals(7, temp.metadata().shape()[0]);
    assertEquals(5, temp.metadata().shape()[1]);
    assertTrue(new File(out, ".zmetadata").exists());
    Dataset<Row> back = spark().read().format("zarr").load(out);
    assertEquals(35, back.count());
    assertEquals(0, back.select("t", "y", "temp", "count").exceptAll(df).count());
    assertFalse(Files.list(tmp).anyMatch(p -> p.getFileName().toString().contains("staging")));
  }

  @Test
  void defaultChunksAndShapeComeFromTheData() throws Exception {
    String out = tmp.resolve("defaults.zarr").toString();
    spark().sql("SELECT x, CAST(x AS DOUBLE) AS v FROM range(1000) a(x)")
        .write().format("zarr").option("zarr_format", "2").option("dimensions", "x").save(out);
    ZarrArray v = ZarrArray.open(new HadoopStore(out, new Configuration()), "v");
    assertEquals(1000, v.metadata().shape()[0]);
    // about 4 MiB of doubles per chunk when the shape is unknown
    assertEquals(512 * 1024, v.metadata().chunkShape()[0]);
    assertEquals("zstd", v.metadata().codec() instanceof io.github.sparkzarr.zarr.codec.V2ChunkCodec c
        ? c.compressor().id() : null);
  }

  @Test
  void aDatasetReadWithCoordinatesWritesBackAsXarrayWroteIt() throws Exception {
    String in = fixture("dataset.zarr");
    Dataset<Row> df = spark().read().format("zarr").option("variables", "t2m,precip").load(in)
        .selectExpr("*", "time_index", "lat_index", "lon_index");
    String out = tmp.resolve("dataset.zarr").toString();
    df.write().format("zarr").option("zarr_format", "2").option("chunks", "2,3,4").save(out);

    JsonNode original = PythonReader.read(in).get("xarray");
    JsonNode written = PythonReader.read(out).get("xarray");
    assertEquals(original.get("dims"), written.get("dims"));
    for (String coord : List.of("time", "lat", "lon")) {
      assertEquals(original.get("coords").get(coord).get("values"),
          written.get("coords").get(coord).get("values"), coord);
      assertEquals(original.get("coords").get(coord).get("dims"),
          written.get("coords").get(coord).get("dims"), coord);
    }
    for (String var : List.of("t2m", "precip")) {
      JsonNode a = original.get("data_vars").get(var);
      JsonNode b = written.get("data_vars").get(var);
      assertEquals(a.get("dims"), b.get("dims"), var);
      assertEquals(a.get("attrs"), b.get("attrs"), var);
      assertEquals(a.get("values"), b.get("values"), var);
    }
    Dataset<Row> back = spark().read().format("zarr").load(out);
    assertEquals(0, back.exceptAll(df.drop("time_index", "lat_index", "lon_index")
        .selectExpr(back.columns())).count());
  }
}
