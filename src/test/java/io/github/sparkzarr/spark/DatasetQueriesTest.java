package io.github.sparkzarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the SQL queries of the xarray-written datasets (integration-tests/generate_datasets.py)
 * through {@code zarr.`path`} and compares each answer with what xarray computed, with and
 * without pushdown.
 */
class DatasetQueriesTest extends SparkTestBase {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

  @TestFactory
  List<DynamicTest> everyQueryMatchesXarray() throws Exception {
    String override = System.getProperty("zarr.corpus.dir");
    Path dir = (override == null || override.isEmpty()
        ? Path.of("src/test/resources/corpus") : Path.of(override)).resolve("datasets");
    Assumptions.assumeTrue(Files.isDirectory(dir), "no datasets corpus at " + dir);
    JsonNode queries = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build()
        .readTree(dir.resolve("queries.json").toFile()).get("queries");
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode q : queries) {
      String table = "zarr.`" + dir.resolve(q.get("dataset").asText()).toAbsolutePath() + "`";
      String sql = q.get("sql").asText().replaceAll("\\bds\\b", table);
      tests.add(DynamicTest.dynamicTest(q.get("sql").asText(), () -> {
        check(sql, q.get("expected"));
        // The same query with the filter hidden from pushdown must give the same answer.
        String unpushed = sql.replace(" WHERE ", " WHERE rand() >= 0 AND ");
        if (!unpushed.equals(sql)) {
          check(unpushed.replace(table, "(SELECT * FROM " + table + " WHERE rand() >= 0)"),
              q.get("expected"));
        }
      }));
    }
    assertTrue(tests.size() >= 10, "expected at least 10 queries, found " + tests.size());
    return tests;
  }

  private static void check(String sql, JsonNode expected) {
    List<Row> rows = spark().sql(sql).collectAsList();
    assertEquals(expected.size(), rows.size(), "row count of " + sql);
    for (int r = 0; r < rows.size(); r++) {
      Row row = rows.get(r);
      JsonNode want = expected.get(r);
      assertEquals(want.size(), row.size(), "column count of " + sql);
      for (int c = 0; c < row.size(); c++) {
        assertValue(want.get(c), row.get(c), sql + " row " + r + " column " + c);
      }
    }
  }

  private static void assertValue(JsonNode want, Object got, String where) {
    if (want.isNull()) {
      assertEquals(null, got, where);
      return;
    }
    if (got instanceof java.sql.Timestamp ts) {
      got = ts.toLocalDateTime(); // date_trunc gives TIMESTAMP even for TIMESTAMP_NTZ input
    }
    if (got instanceof LocalDateTime t) {
      assertEquals(want.asText(), t.format(TIME), where);
      return;
    }
    if (want.isTextual() && want.asText().equals("NaN")) {
      assertTrue(got instanceof Number n && Double.isNaN(n.doubleValue()), where + ": want NaN, got " + got);
      return;
    }
    if (!(got instanceof Number n)) {
      fail(where + ": want " + want + ", got " + got);
      return;
    }
    double w = want.asDouble();
    double g = got instanceof BigDecimal b ? b.doubleValue() : n.doubleValue();
    double tolerance = 1e-6 * Math.max(1.0, Math.abs(w));
    assertEquals(w, g, tolerance, where);
  }
}
