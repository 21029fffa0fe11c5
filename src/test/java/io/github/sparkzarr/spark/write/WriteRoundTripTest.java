package io.github.sparkzarr.spark.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.SparkTestBase;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WriteRoundTripTest extends SparkTestBase {
  @TempDir Path tmp;

  @Test
  void writesAGroupOfArraysChunkByChunkAndReadsItBack() throws Exception {
    Dataset<Row> df = spark().sql("SELECT t, y, CAST(t * 10 + y AS DOUBLE) AS temp, "
        + "CAST(t + y AS INT) AS count FROM range(7) a(t) CROSS JOIN range(5) b(y)");
    String out = tmp.resolve("out.zarr").toString();
    df.write().format("zarr").option("dimensions", "t,y").option("chunks", "3,2").save(out);

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
}
