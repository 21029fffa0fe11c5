package io.github.sparkzarr.spark.write;

import static org.apache.spark.sql.functions.col;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.spark.SparkTestBase;
import io.github.sparkzarr.spark.schema.DatasetView;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.v3.ExternalTools;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.MetadataBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spark writes Zarr v3 datasets (value arrays over shared dimensions, CF coordinate arrays, group
 * attributes) and zarrita, an independent v3 implementation, opens the group and every array:
 * values, dimension_names, attributes, coordinates and consolidated metadata are what was written.
 */
class WriteV3DatasetTest extends SparkTestBase {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> DIMS = List.of("time", "lat", "lon");
  private static final List<String> INDEXES = List.of("time_index", "lat_index", "lon_index");
  /** JSON numbers are equal when their values are (zarrita prints 180.0 as 180). */
  private static final Comparator<JsonNode> SAME_VALUE = (a, b) -> a.isNumber() && b.isNumber()
      ? a.decimalValue().compareTo(b.decimalValue()) : a.equals(b) ? 0 : 1;

  private static final String GROUP_ATTRIBUTES = "{\"title\": \"ERA5-like sample\", "
      + "\"Conventions\": \"CF-1.8\", \"history\": \"written by spark-zarr é\", \"version\": 2}";
  /** The CF attributes of each column, as a read of an xarray dataset would carry them. */
  private static final Map<String, String> ATTRIBUTES = Map.of(
      "time", "{\"units\": \"hours since 2000-01-01 00:00:00\", \"calendar\": \"proleptic_gregorian\", "
          + "\"standard_name\": \"time\", \"axis\": \"T\"}",
      "lat", "{\"units\": \"degrees_north\", \"standard_name\": \"latitude\", \"axis\": \"Y\"}",
      "lon", "{\"units\": \"degrees_east\", \"standard_name\": \"longitude\", \"axis\": \"X\"}",
      "t2m", "{\"units\": \"K\", \"long_name\": \"2 metre temperature\", \"valid_range\": [180.0, 340.0]}",
      "precip", "{\"units\": \"mm\", \"long_name\": \"total precipitation\", "
          + "\"cell_methods\": \"time: sum\", \"source\": {\"model\": \"x\", \"levels\": [1, 2.5, null]}}",
      "n_obs", "{\"long_name\": \"number of observations\"}");

  /** What zarrita must report for one array. */
  private record Expected(String dataType, JsonNode fillValue, List<Integer> shape,
      List<Integer> chunks, List<String> dimensionNames, JsonNode attributes, JsonNode values) {}

  /**
   * 5 times (every 6 hours) x 4 latitudes x 6 longitudes: coordinate values with their positions in
   * {@code <dim>_index}, one missing precipitation value, each column carrying its attributes.
   */
  private static Dataset<Row> dataset() {
    Dataset<Row> df = spark().sql("SELECT ti AS time_index, yi AS lat_index, xi AS lon_index, "
        + "ti * 6 AS time, 50.0D - 2.5D * yi AS lat, -10.0D + 5.0D * xi AS lon, "
        + "CAST(270 + ti + yi / 4.0D + xi / 16.0D AS FLOAT) AS t2m, "
        + "IF(ti = 1 AND yi = 2, NULL, (ti * 100 + yi * 10 + xi) / 8.0D) AS precip, "
        + "CAST(ti * 100 + yi * 10 + xi AS INT) AS n_obs "
        + "FROM range(5) a(ti) CROSS JOIN range(4) b(yi) CROSS JOIN range(6) c(xi)");
    Column[] columns = new Column[df.columns().length];
    for (int i = 0; i < columns.length; i++) {
      String name = df.columns()[i];
      columns[i] = ATTRIBUTES.containsKey(name)
          ? col(name).as(name, new MetadataBuilder()
              .putString(DatasetView.ATTRIBUTES_METADATA, ATTRIBUTES.get(name)).build())
          : col(name);
    }
    return df.select(columns);
  }

  @Test
  void zarritaReadsTheDatasetSparkWrote(@TempDir Path dir) throws Exception {
    Dataset<Row> df = dataset();
    String store = dir.resolve("dataset.zarr").toString();
    df.write().format("zarr").option("dimensions", String.join(",", DIMS)).option("chunks", "2,3,4")
        .option("attributes", GROUP_ATTRIBUTES).save(store);
    JsonNode read = readWithZarrita(store);

    assertSame(JSON.readTree(GROUP_ATTRIBUTES), read.get("attributes"), "group attributes");
    assertNodes(read, "lat", "lon", "n_obs", "precip", "t2m", "time");
    List<Row> rows = df.orderBy(INDEXES.get(0), INDEXES.get(1), INDEXES.get(2)).collectAsList();
    JsonNode nan = JSON.getNodeFactory().textNode("NaN");
    JsonNode zero = JSON.getNodeFactory().numberNode(0);
    Map<String, String> types = Map.of("t2m", "float32", "precip", "float64", "n_obs", "int32");
    for (String var : types.keySet()) {
      assertArray(read, var, new Expected(types.get(var), var.equals("n_obs") ? zero : nan,
          List.of(5, 4, 6), List.of(2, 3, 4), DIMS, JSON.readTree(ATTRIBUTES.get(var)), values(rows, var)));
    }
    assertArray(read, "time", coordinate("time", "int64", zero, 5, JSON.readTree(ATTRIBUTES.get("time")), rows));
    assertArray(read, "lat", coordinate("lat", "float64", nan, 4, JSON.readTree(ATTRIBUTES.get("lat")), rows));
    assertArray(read, "lon", coordinate("lon", "float64", nan, 6, JSON.readTree(ATTRIBUTES.get("lon")), rows));
    assertEquals("NaN", read.get("arrays").get("precip").get("values").get(1 * 24 + 2 * 6).asText(),
        "the missing precipitation is the NaN fill value");
  }

  /**
   * The dataset xarray wrote (src/test/resources/spark/dataset.zarr, v2), read without CF decoding so
   * time stays int64 "days since" (zarrita has no datetime type), and written as v3.
   */
  @Test
  void zarritaReadsAnXarrayDatasetSparkRewroteAsV3(@TempDir Path dir) throws Exception {
    String in = fixture("dataset.zarr");
    Dataset<Row> df = spark().read().format("zarr").option("decodeCF", "false")
        .option("variables", "t2m,precip").load(in).selectExpr("*", "time_index", "lat_index", "lon_index");
    String store = dir.resolve("rewritten.zarr").toString();
    df.write().format("zarr").option("chunks", "2,3,4").save(store);
    JsonNode read = readWithZarrita(store);

    assertSame(JSON.createObjectNode(), read.get("attributes"), "group attributes");
    assertNodes(read, "lat", "lon", "precip", "t2m", "time");
    List<Row> rows = df.orderBy(INDEXES.get(0), INDEXES.get(1), INDEXES.get(2)).collectAsList();
    JsonNode nan = JSON.getNodeFactory().textNode("NaN");
    try (HadoopStore source = new HadoopStore(in, new Configuration())) {
      ZarrHierarchy original = ZarrHierarchy.open(source);
      for (String var : List.of("t2m", "precip")) {
        ZarrArray a = original.openArray(var);
        assertArray(read, var, new Expected(var.equals("t2m") ? "float32" : "float64", nan,
            List.of(5, 7, 9), List.of(2, 3, 4), DIMS, attributesOf(a), values(rows, var)));
      }
      Map<String, String> types = Map.of("time", "int64", "lat", "float64", "lon", "float32");
      for (String dim : DIMS) {
        ZarrArray a = original.openArray(dim);
        JsonNode fill = dim.equals("time") ? JSON.getNodeFactory().numberNode(0) : nan;
        assertArray(read, dim, coordinate(dim, types.get(dim), fill, (int) a.metadata().shape()[0],
            attributesOf(a), rows));
      }
    }
  }

  private static JsonNode readWithZarrita(String store) throws Exception {
    return JSON.readTree(ExternalTools.zarritaOutput("dump_group_with_zarrita.mjs", store));
  }

  /** The root group and exactly {@code arrays}, as the consolidated metadata lists them. */
  private static void assertNodes(JsonNode read, String... arrays) {
    ArrayNode expected = JSON.createArrayNode();
    expected.addObject().put("path", "/").put("kind", "group");
    for (String a : arrays) {
      expected.addObject().put("path", "/" + a).put("kind", "array");
    }
    assertEquals(expected, read.get("nodes"), "the nodes the consolidated metadata lists");
  }

  /** The 1-D coordinate array of {@code dim}, in one chunk, with its values by position. */
  private static Expected coordinate(String dim, String type, JsonNode fill, int length,
      JsonNode attributes, List<Row> rows) {
    TreeMap<Long, Object> byPosition = new TreeMap<>();
    for (Row r : rows) {
      byPosition.put(r.getLong(r.fieldIndex(dim + "_index")), r.get(r.fieldIndex(dim)));
    }
    ArrayNode values = JSON.createArrayNode();
    byPosition.values().forEach(v -> values.add(json(v)));
    return new Expected(type, fill, List.of(length), List.of(length), List.of(dim), attributes, values);
  }

  private static void assertArray(JsonNode read, String name, Expected e) {
    JsonNode array = read.get("arrays").get(name);
    assertEquals(JSON.valueToTree(e.shape()), array.get("shape"), name + " shape");
    assertEquals(JSON.valueToTree(e.chunks()), array.get("chunks"), name + " chunks");
    assertEquals(e.dataType(), array.get("data_type").asText(), name + " data_type");
    assertSame(e.fillValue(), array.get("fill_value"), name + " fill_value");
    assertEquals(JSON.valueToTree(e.dimensionNames()), array.get("dimension_names"), name + " dimension_names");
    assertSame(e.attributes(), array.get("attributes"), name + " attributes");
    assertSame(e.values(), array.get("values"), name + " values");
    ObjectNode own = array.deepCopy();
    own.remove(List.of("values", "consolidated"));
    assertSame(own, array.get("consolidated"), name + " in the consolidated metadata");
  }

  private static void assertSame(JsonNode expected, JsonNode actual, String what) {
    assertTrue(expected.equals(SAME_VALUE, actual), what + ": wrote " + expected + ", zarrita read " + actual);
  }

  /** The array's attributes without the v2 dimension list (v3 has dimension_names). */
  private static JsonNode attributesOf(ZarrArray a) {
    ObjectNode attrs = a.metadata().attributes().deepCopy();
    attrs.remove(V2Metadata.DIMENSIONS_ATTR);
    return attrs;
  }

  /** The column's values in C order over (time, lat, lon). */
  private static ArrayNode values(List<Row> rows, String column) {
    ArrayNode out = JSON.createArrayNode();
    for (Row r : rows) {
      out.add(json(r.get(r.fieldIndex(column))));
    }
    return out;
  }

  /** A value as the zarrita script prints it: NaN (and null, stored as NaN) as the text "NaN". */
  private static JsonNode json(Object v) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    if (v == null || (v instanceof Float x && x.isNaN()) || (v instanceof Double y && y.isNaN())) {
      return f.textNode("NaN");
    } else if (v instanceof Float x) {
      return f.numberNode((double) x);
    } else if (v instanceof Double x) {
      return f.numberNode(x);
    }
    return f.numberNode(((Number) v).longValue());
  }
}
