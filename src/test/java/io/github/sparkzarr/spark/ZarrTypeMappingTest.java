package io.github.sparkzarr.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every Zarr type read as its Spark type, with the values zarr-python wrote. */
class ZarrTypeMappingTest extends SparkTestBase {
  private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);
  private static JsonNode expected;

  @BeforeAll
  static void load() throws Exception {
    expected = expected("types.expected.json");
  }

  private static List<Row> read(String array) {
    Dataset<Row> df = spark().read().format("zarr").option("array", array).load(fixture("types.zarr"));
    return df.orderBy("dim_0").collectAsList();
  }

  static Stream<Arguments> types() {
    return Stream.of(
        Arguments.of("bool", DataTypes.BooleanType),
        Arguments.of("int8", DataTypes.ByteType),
        Arguments.of("int16", DataTypes.ShortType),
        Arguments.of("int32", DataTypes.IntegerType),
        Arguments.of("int32_be", DataTypes.IntegerType),
        Arguments.of("int64", DataTypes.LongType),
        Arguments.of("uint8", DataTypes.ShortType),
        Arguments.of("uint16", DataTypes.IntegerType),
        Arguments.of("uint32", DataTypes.LongType),
        Arguments.of("uint64", DataTypes.createDecimalType(20, 0)),
        Arguments.of("float16", DataTypes.FloatType),
        Arguments.of("float32", DataTypes.FloatType),
        Arguments.of("float64", DataTypes.DoubleType),
        Arguments.of("datetime_ns", DataTypes.TimestampNTZType),
        Arguments.of("datetime_D", DataTypes.TimestampNTZType),
        Arguments.of("datetime_M", DataTypes.TimestampNTZType),
        Arguments.of("datetime_Y", DataTypes.TimestampNTZType),
        Arguments.of("datetime_10s", DataTypes.TimestampNTZType),
        Arguments.of("timedelta_s", DataTypes.createDayTimeIntervalType()),
        Arguments.of("timedelta_ms", DataTypes.createDayTimeIntervalType()),
        Arguments.of("bytes", DataTypes.BinaryType),
        Arguments.of("raw", DataTypes.BinaryType),
        Arguments.of("unicode", DataTypes.StringType));
  }

  static Stream<Arguments> variableLengthTypes() {
    return Stream.of(
        Arguments.of("vlen_string", DataTypes.StringType, "vlen-utf8"),
        Arguments.of("vlen_bytes", DataTypes.BinaryType, "vlen-bytes"));
  }

  /** Object arrays need the object codecs, which arrive with the codec work; skipped until then. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("variableLengthTypes")
  void variableLengthTypes(String array, DataType type, String codec) {
    Assumptions.assumeTrue(CodecRegistry.ids().contains(codec), codec + " codec not available yet");
    scalarTypes(array, type);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("types")
  void scalarTypes(String array, DataType type) {
    Dataset<Row> df = spark().read().format("zarr").option("array", array).load(fixture("types.zarr"));
    assertEquals(List.of("dim_0", array), List.of(df.schema().fieldNames()));
    assertEquals(DataTypes.LongType, df.schema().apply("dim_0").dataType());
    assertEquals(type, df.schema().apply(array).dataType());
    List<Row> rows = read(array);
    JsonNode want = expected.get(array);
    assertEquals(want.size(), rows.size());
    for (int i = 0; i < rows.size(); i++) {
      assertEquals(i, rows.get(i).getLong(0));
      assertEquals(normalize(want.get(i), type), actual(rows.get(i).get(1)), array + "[" + i + "]");
    }
  }

  /** The expected JSON value in the form the Spark value is compared in. */
  private static Object normalize(JsonNode v, DataType type) {
    if (v.isNull()) {
      return null;
    }
    if (type == DataTypes.BinaryType) {
      return List.of(toList(Base64.getDecoder().decode(v.asText())));
    }
    if (type == DataTypes.TimestampNTZType || type.equals(DataTypes.createDayTimeIntervalType())) {
      return v.asLong();
    }
    if (type == DataTypes.BooleanType) {
      return v.asBoolean();
    }
    if (type == DataTypes.StringType) {
      return v.asText();
    }
    if (type instanceof org.apache.spark.sql.types.DecimalType) {
      return new BigDecimal(v.asText());
    }
    if (type == DataTypes.FloatType) {
      return (double) (float) v.asDouble();
    }
    if (v.isTextual()) {
      return Double.parseDouble(v.asText());
    }
    return v.isIntegralNumber() ? (Object) v.asLong() : (Object) v.asDouble();
  }

  private static List<Byte> toList(byte[] b) {
    Byte[] out = new Byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = b[i];
    }
    return List.of(out);
  }

  private static Object actual(Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof byte[] b) {
      return List.of(toList(b));
    }
    if (v instanceof LocalDateTime t) {
      return ChronoUnit.MICROS.between(EPOCH, t);
    }
    if (v instanceof Duration d) {
      return d.getSeconds() * 1_000_000L + d.getNano() / 1000;
    }
    if (v instanceof BigDecimal d) {
      return d;
    }
    if (v instanceof Float f) {
      return (double) f;
    }
    if (v instanceof Double || v instanceof Boolean || v instanceof String) {
      return v;
    }
    return ((Number) v).longValue();
  }

  @Test
  void complexIsStructOfRealAndImag() {
    for (String array : List.of("complex64", "complex128")) {
      List<Row> rows = read(array);
      StructType t = (StructType) spark().read().format("zarr").option("array", array)
          .load(fixture("types.zarr")).schema().apply(array).dataType();
      assertEquals(List.of("real", "imag"), List.of(t.fieldNames()));
      JsonNode want = expected.get(array);
      for (int i = 0; i < rows.size(); i++) {
        Row c = rows.get(i).getStruct(1);
        double re = ((Number) c.get(0)).doubleValue();
        double im = ((Number) c.get(1)).doubleValue();
        double wr = want.get(i).get(0).asDouble();
        double wi = want.get(i).get(1).asDouble();
        if (array.equals("complex64")) {
          wr = (float) wr;
          wi = (float) wi;
        }
        assertEquals(wr, re, array + "[" + i + "].real");
        assertEquals(wi, im, array + "[" + i + "].imag");
      }
    }
  }

  @Test
  void jsonElementsReadAsTheirJsonText() throws Exception {
    Assumptions.assumeTrue(CodecRegistry.ids().contains("json2"), "json2 codec not available yet");
    List<Row> rows = read("json");
    ObjectMapper mapper = new ObjectMapper();
    JsonNode want = expected.get("json");
    for (int i = 0; i < rows.size(); i++) {
      JsonNode element = mapper.readTree(want.get(i).asText());
      String got = rows.get(i).getString(1);
      if (element.isNull()) {
        assertNull(got, "a JSON null element (Python None) reads as SQL NULL");
      } else {
        assertEquals(element, mapper.readTree(got));
      }
    }
  }

  @Test
  void structuredTypesNestStructsAndArrays() {
    Dataset<Row> df = spark().read().format("zarr").option("array", "struct").load(fixture("types.zarr"));
    assertEquals("struct<a:int,b:array<double>,c:struct<x:smallint,y:binary>,d:array<array<smallint>>>",
        df.schema().apply("struct").dataType().simpleString());
    List<Row> rows = read("struct");
    JsonNode want = expected.get("struct");
    for (int i = 0; i < rows.size(); i++) {
      Row s = rows.get(i).getStruct(1);
      JsonNode w = want.get(i);
      assertEquals(w.get("a").asInt(), s.getInt(0));
      assertEquals(List.of(w.get("b").get(0).asDouble(), w.get("b").get(1).asDouble()), s.getList(1));
      assertEquals((short) w.get("c").get("x").asInt(), s.getStruct(2).getShort(0));
      assertArrayEquals(Base64.getDecoder().decode(w.get("c").get("y").asText()),
          (byte[]) s.getStruct(2).get(1));
      List<Object> d = s.getList(3);
      for (int r = 0; r < 2; r++) {
        List<?> row = scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Seq<?>) d.get(r));
        for (int c = 0; c < 2; c++) {
          assertEquals((short) w.get("d").get(r).get(c).asInt(), row.get(c));
        }
      }
    }
  }

  @Test
  void twoDimensionalArrayUsesDimensionNamesAndUnevenChunks() {
    Dataset<Row> df = spark().read().format("zarr").option("array", "grid").load(fixture("types.zarr"));
    assertEquals(List.of("y", "x", "grid"), List.of(df.schema().fieldNames()));
    List<Row> rows = df.orderBy("y", "x").collectAsList();
    assertEquals(35, rows.size());
    for (Row r : rows) {
      assertEquals(expected.get("grid").get((int) r.getLong(0)).get((int) r.getLong(1)).asInt(), r.getInt(2));
    }
  }

  @Test
  void missingChunksReadAsTheFillValue() {
    List<Row> rows = spark().read().format("zarr").load(fixture("types.zarr") + "/sparse")
        .orderBy("dim_0", "dim_1").collectAsList();
    assertEquals(24, rows.size());
    for (Row r : rows) {
      assertEquals(expected.get("sparse").get((int) r.getLong(0)).get((int) r.getLong(1)).asDouble(),
          r.getDouble(2));
    }
    assertEquals(-9.5, rows.get(2).getDouble(2));
  }

  @Test
  void dimensionNamedLikeTheArrayBecomesIndexColumn() {
    Dataset<Row> df = spark().read().format("zarr").load(fixture("types.zarr") + "/lat");
    assertEquals(List.of("lat_index", "lat"), List.of(df.schema().fieldNames()));
    List<Row> rows = df.orderBy("lat_index").collectAsList();
    assertEquals(List.of(10.0, 20.0, 30.0), rows.stream().map(r -> r.getDouble(1)).toList());
  }

  @Test
  void arrayAtTheStoreRootIsCalledValue() {
    Dataset<Row> df = spark().read().format("zarr").load(fixture("lone.zarr"));
    assertEquals(List.of("dim_0", "dim_1", "value"), List.of(df.schema().fieldNames()));
    List<Row> rows = df.orderBy("dim_0", "dim_1").collectAsList();
    assertEquals(List.of((short) 1, (short) 2, (short) 3, (short) 4, (short) 5, (short) 6),
        rows.stream().map(r -> r.getShort(2)).toList());
  }

  @Test
  void natIsNull() {
    assertNull(read("datetime_D").get(1).get(1));
  }
}
