package io.github.sparkzarr.spark.write;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkzarr.spark.SparkTestBase;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** zarr_chunk answers floor((position + offset) / length), through generated code for common types. */
class ZarrChunkFunctionTest extends SparkTestBase {
  @ParameterizedTest
  @ValueSource(strings = {"id", "CAST(id AS INT)", "CAST(id AS SHORT)"})
  void chunkIndexOfEveryPosition(String position) {
    for (String offset : new String[] {"", ", 5L"}) {
      Dataset<Row> df = spark().sql("SELECT id, zarr.zarr_chunk(" + position + ", 4" + offset + ") AS c "
          + "FROM range(-9, 20) ORDER BY id");
      long off = offset.isEmpty() ? 0 : 5;
      List<Row> rows = df.collectAsList();
      assertEquals(29, rows.size());
      for (Row r : rows) {
        assertEquals(Math.floorDiv(r.getLong(0) + off, 4), r.getLong(1), r.toString());
      }
      String plan = df.queryExecution().executedPlan().toString();
      // Long and int positions are computed in generated code; other widths go through produceResult.
      boolean generated = !position.contains("SHORT");
      assertEquals(generated, plan.contains("invoke"), plan); // "invoke(" on Spark 4, ".invoke" on 3.5
    }
  }
}
