package io.github.sparkzarr.spark.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.SparkTestBase;
import io.github.sparkzarr.zarr.faults.FaultFixtures;
import io.github.sparkzarr.zarr.faults.FlakyFileSystem;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Through Spark, a chunk that cannot be read fails the task clearly; no rows of fill appear. */
class StorageFaultsSparkTest extends SparkTestBase {
  @TempDir Path dir;

  @AfterEach
  void clearFaults() {
    FlakyFileSystem.reset();
  }

  private static DataFrameReader reader(int attempts) {
    return spark().read().format("zarr")
        .option("fs.flaky.impl", FlakyFileSystem.class.getName())
        .option("fs.flaky.impl.disable.cache", "true")
        .option("fs.zarr.read.backoff.ms", "1")
        .option("fs.zarr.read.attempts", Integer.toString(attempts));
  }

  @Test
  void aPermanentFaultFailsTheQueryNamingStoreAndKey() throws Exception {
    String uri = FaultFixtures.writeArray(dir);
    var df = reader(2).load(uri);
    FlakyFileSystem.failOpen("/1", -1);
    Exception e = assertThrows(Exception.class, df::collectAsList);
    String text = Failures.fullText(e);
    assertTrue(text.contains(dir.toAbsolutePath().toString()) && text.contains("key '1'")
        && text.contains("injected fault") && text.contains("2 attempts"), text);
  }

  @Test
  void aTransientFaultIsRetriedAndEveryRowIsExact() throws Exception {
    String uri = FaultFixtures.writeArray(dir);
    var df = reader(3).load(uri);
    FlakyFileSystem.failOpen("/0", 2);
    List<Row> rows = df.orderBy(df.columns()[0]).collectAsList();
    assertEquals(8, rows.size());
    for (int i = 0; i < 8; i++) {
      assertEquals(i, rows.get(i).getInt(1), "row " + i);
    }
  }
}
