package io.github.sparkzarr.spark.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.ZarrCatalog;
import io.github.sparkzarr.zarr.faults.FaultyFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Writes whose tasks die and are retried, whose tasks always fail, and whose job commit dies
 * half-way through publishing (Spark then calls BatchWrite.abort). The target must end in its old
 * state, byte for byte, or in the new complete one. Spark retries failed tasks in local mode only
 * with a master local[n,maxFailures], so this runs in its own JVM (failsafe) with local[2,4];
 * the faults come from {@link FaultyFileSystem}.
 */
class WriteFaultsIT {
  private static final int MAX_FAILURES = 4;
  private static SparkSession spark;
  @TempDir Path tmp;

  @BeforeAll
  static void start() {
    spark = SparkSession.builder()
        .master("local[2," + MAX_FAILURES + "]")
        .appName("spark-zarr-write-faults")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.catalog.zarr", ZarrCatalog.class.getName())
        .getOrCreate();
  }

  @AfterAll
  static void stop() {
    spark.stop();
  }

  @AfterEach
  void clearFaults() {
    FaultyFileSystem.reset();
  }

  private static void write(String uri, int format, SaveMode mode, int g, int n, int offset,
      String... options) {
    Generations.write(spark, uri, format, mode, g, n, offset, options);
  }

  /** Every file below {@code dir} except the local file system's checksum files. */
  private static List<String> files(Path dir) throws Exception {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString())
          .filter(k -> !k.endsWith(".crc")).sorted().toList();
    }
  }

  private static String messages(Throwable e) {
    return WriteModesTest.rootMessage(e);
  }

  // ---- task retries ---------------------------------------------------------------------------

  /**
   * The first attempt of the task writing chunk v/1.0 dies after writing half of it (and, in the
   * second case, also cannot delete what it staged, as a killed executor): the retry succeeds,
   * every value is exact, each chunk key is one file, and no staging is left.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aTaskDyingMidChunkIsRetriedAndOnlyTheRetryIsPublished(boolean abortCannotClean) throws Exception {
    Path dir = tmp.resolve("retry.zarr");
    List<String> faults = new ArrayList<>(List.of(FaultyFileSystem.FAIL_WRITE, "v/1.0",
        FaultyFileSystem.FAIL_WRITE_ATTEMPTS, "1"));
    if (abortCannotClean) {
      faults.addAll(List.of(FaultyFileSystem.FAIL_TASK_DELETE, "1"));
    }
    write(FaultyFileSystem.uri(dir), 2, SaveMode.ErrorIfExists, 1, 6, 0, faults.toArray(String[]::new));
    assertEquals(abortCannotClean ? 2 : 1, FaultyFileSystem.injectedFaults(), "the faults fired");
    assertEquals("1/6", Generations.observe(dir));
    assertEquals(List.of(".zgroup", ".zmetadata", "v/.zarray", "v/.zattrs", "v/0.0", "v/0.1", "v/1.0",
        "v/1.1", "v/2.0", "v/2.1"), files(dir));
    assertFalse(StoreSnapshot.stagingBelow(tmp));
  }

  /**
   * shuffle=false: range(6) splits t over two tasks, so chunk row 1 (t = 2, 3) is staged in parts
   * that the commit merges. The first attempt of each of the two tasks dies writing its part of
   * v/1.0; the retries' parts are merged, every value exact, no staging or masks left.
   */
  @Test
  void withoutShuffleARetriedTaskPartIsMerged() throws Exception {
    Path dir = tmp.resolve("retry-parts.zarr");
    write(FaultyFileSystem.uri(dir), 2, SaveMode.ErrorIfExists, 1, 6, 0, FaultyFileSystem.FAIL_WRITE, "v/1.0",
        FaultyFileSystem.FAIL_WRITE_ATTEMPTS, "1", "shuffle", "false");
    assertEquals(2, FaultyFileSystem.injectedFaults(), "both tasks held a part of v/1.0 and died");
    assertEquals("1/6", Generations.observe(dir));
    assertEquals(List.of(".zgroup", ".zmetadata", "v/.zarray", "v/.zattrs", "v/0.0", "v/0.1", "v/1.0",
        "v/1.1", "v/2.0", "v/2.1"), files(dir));
    assertFalse(StoreSnapshot.stagingBelow(tmp));
  }

  @Test
  void tasksThatAlwaysFailLeaveNoTarget() {
    Path dir = tmp.resolve("new.zarr");
    Exception e = assertThrows(Exception.class, () -> write(FaultyFileSystem.uri(dir), 2,
        SaveMode.ErrorIfExists, 1, 6, 0, FaultyFileSystem.FAIL_WRITE, "v/0.0",
        FaultyFileSystem.FAIL_WRITE_ATTEMPTS, "100"));
    assertTrue(messages(e).contains("injected fault"), messages(e));
    assertEquals(MAX_FAILURES, FaultyFileSystem.injectedFaults(), "every attempt of the task failed");
    assertFalse(Files.exists(dir));
    assertFalse(StoreSnapshot.stagingBelow(tmp));
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void tasksThatAlwaysFailLeaveAnOverwrittenStoreAsItWas(int format) throws Exception {
    Path dir = tmp.resolve("old.zarr");
    String uri = FaultyFileSystem.uri(dir);
    write(uri, format, SaveMode.ErrorIfExists, 1, 4, 0);
    StoreSnapshot before = StoreSnapshot.of(dir);
    String chunk = format == 2 ? "v/0.0" : "v/c/0/0";
    assertThrows(Exception.class, () -> write(uri, format, SaveMode.Overwrite, 2, 6, 0,
        FaultyFileSystem.FAIL_WRITE, chunk, FaultyFileSystem.FAIL_WRITE_ATTEMPTS, "100"));
    assertEquals(MAX_FAILURES, FaultyFileSystem.injectedFaults());
    assertEquals(before, StoreSnapshot.of(dir));
    assertFalse(StoreSnapshot.stagingBelow(tmp));
  }

  // ---- the job commit dies half-way ----------------------------------------------------------

  /**
   * The commit fails at its n-th rename into the target (or, for "aside", its n-th move of an old
   * key aside) whose key ends with {@code failingKey}; Spark aborts the write. The old store comes
   * back byte for byte, and no staging is left.
   *
   * <p>Publish order of an overwrite of 4 x 3 by 5 x 3 (v2): 6 chunks, v/.zattrs, v/.zarray,
   * .zgroup, .zmetadata; v3: 6 chunks, v/zarr.json, zarr.json. The append adds 3 rows to 5:
   * chunks v/2.0 and v/2.1 replace old ones (merged), v/3.0 and v/3.1 are new, then the metadata.
   */
  @ParameterizedTest(name = "zarr_format {0} {1}: fault at {2} #{3} ({4})")
  @CsvSource({
      "2, overwrite, publish, 1, v/0.0",
      "2, overwrite, publish, 4, v/1.1",
      "2, overwrite, publish, 8, v/.zarray",
      "2, overwrite, publish, 10, .zmetadata",
      "2, overwrite, aside, 4, v/.zattrs",
      "2, overwrite, aside, 8, v/1.1",
      "3, overwrite, publish, 3, v/c/1/0",
      "3, overwrite, publish, 8, zarr.json",
      "2, append, publish, 2, v/2.1",
      "2, append, publish, 6, v/.zarray",
      "2, append, aside, 5, v/2.0",
      "3, append, publish, 3, v/c/3/0",
      "3, append, publish, 6, zarr.json"})
  void aCommitDyingHalfWayLeavesTheOldStore(int format, String mode, String step, int n,
      String failingKey) throws Exception {
    Path dir = tmp.resolve("c.zarr");
    String uri = FaultyFileSystem.uri(dir);
    write(uri, format, SaveMode.ErrorIfExists, 1, mode.equals("append") ? 5 : 4, 0);
    StoreSnapshot before = StoreSnapshot.of(dir);
    String option = step.equals("publish") ? FaultyFileSystem.FAIL_PUBLISH : FaultyFileSystem.FAIL_MOVE_ASIDE;
    Exception e = assertThrows(Exception.class, () -> {
      if (mode.equals("append")) {
        write(uri, format, SaveMode.Append, 1, 3, 5, "append_dim", "t", option, Integer.toString(n));
      } else {
        write(uri, format, SaveMode.Overwrite, 2, 5, 0, option, Integer.toString(n));
      }
    });
    assertTrue(messages(e).contains("injected fault"), messages(e));
    assertEquals(1, FaultyFileSystem.injectedFaults());
    assertFailedAt(dir, step, failingKey);
    assertEquals(before, StoreSnapshot.of(dir), "the old store, byte for byte");
    assertFalse(StoreSnapshot.stagingBelow(tmp), "no staging left");
    assertEquals(mode.equals("append") ? "1/5" : "1/4", Generations.observe(dir));
  }

  /** The rename that failed moved {@code key} of the target. */
  private static void assertFailedAt(Path dir, String step, String key) {
    String fault = FaultyFileSystem.lastFault();
    String expected = (step.equals("aside") ? "moving aside " : "publishing ") + dir.toAbsolutePath() + "/" + key;
    assertTrue(fault.endsWith(expected), fault + "; expected it to end with " + expected);
  }

  @ParameterizedTest
  @CsvSource({"2, 3", "2, 10", "3, 8"})
  void aCreateWhoseCommitDiesLeavesNoTarget(int format, int n) {
    Path dir = tmp.resolve("fresh.zarr");
    Exception e = assertThrows(Exception.class, () -> write(FaultyFileSystem.uri(dir), format,
        SaveMode.ErrorIfExists, 2, 5, 0, FaultyFileSystem.FAIL_PUBLISH, Integer.toString(n)));
    assertTrue(messages(e).contains("injected fault"), messages(e));
    assertFalse(Files.exists(dir), "no target");
    assertFalse(StoreSnapshot.stagingBelow(tmp), "no staging left");
  }
}
