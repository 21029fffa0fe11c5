package io.github.sparkzarr.spark.write;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.SparkTestBase;
import io.github.sparkzarr.zarr.faults.FaultyFileSystem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The job commit against duplicate task attempts and concurrent readers: two attempts of one
 * partition (Spark's speculative copies, which local mode never launches, so the test drives the
 * DataWriters itself), a reader at every step of a publish, and readers racing several writes.
 * Task retries and failures at each step of a commit need a master that retries tasks:
 * WriteFaultsIT.
 */
class WriteCommitTest extends SparkTestBase {
  @TempDir Path tmp;

  @AfterEach
  void clearFaults() {
    FaultyFileSystem.reset();
  }

  private static void write(String uri, int format, SaveMode mode, int g, int n, int offset,
      String... options) {
    Generations.write(spark(), uri, format, mode, g, n, offset, options);
  }

  // ---- speculative duplicates -------------------------------------------------------------

  private static final StructType SCHEMA = new StructType()
      .add("t", DataTypes.LongType).add("y", DataTypes.LongType).add("v", DataTypes.DoubleType);

  /** A write of SCHEMA rows to {@code dir}, planned as Spark plans it, with its DataWriter factory. */
  private record DirectWrite(WritePlan plan, ZarrBatchWrite batch, DataWriterFactory factory) {
    static DirectWrite of(Path dir, WriteMode mode) {
      return of(dir, "", mode);
    }

    static DirectWrite of(Path dir, String group, WriteMode mode) {
      spark(); // the factory broadcasts the configuration through the active session
      ZarrTarget target = new ZarrTarget(dir.toString(), dir.toUri().toString(), group, Map.of(), Map.of());
      WritePlan plan = WritePlanner.plan(target, SCHEMA,
          Map.of("zarr_format", "2", "dimensions", "t,y", "chunks", "2,2"), mode, "q" + System.nanoTime());
      Configuration conf = target.hadoopConf();
      ZarrBatchWrite batch = new ZarrBatchWrite(plan, conf);
      return new DirectWrite(plan, batch, batch.createBatchWriterFactory(null));
    }
  }

  /** Writes generation g, t in [0, n), through one DataWriter, chunk after chunk as Spark sorts them. */
  private static DataWriter<InternalRow> attempt(DirectWrite w, int partition, long taskId, int g, int n)
      throws Exception {
    DataWriter<InternalRow> writer = w.factory().createWriter(partition, taskId);
    for (long chunkT = 0; chunkT * 2 < n; chunkT++) {
      for (long chunkY = 0; chunkY < 2; chunkY++) {
        for (long t = chunkT * 2; t < Math.min(n, chunkT * 2 + 2); t++) {
          for (long y = chunkY * 2; y < Math.min(3, chunkY * 2 + 2); y++) {
            writer.write(new GenericInternalRow(new Object[] {t, y, (double) (g * 1000 + t * 10 + y)}));
          }
        }
      }
    }
    return writer;
  }

  private static List<String> files(Path dir) throws Exception {
    try (Stream<Path> walk = Files.walk(dir)) {
      // the local file system's checksum files (.<name>.crc) follow their file
      return walk.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString())
          .filter(k -> !k.endsWith(".crc")).sorted()
          .collect(Collectors.toList());
    }
  }

  /** A v2 store of v with 4 x 3 elements in 2 x 2 chunks (the group has no attributes). */
  private static final List<String> FOUR_BY_THREE = List.of(".zgroup", ".zmetadata", "v/.zarray",
      "v/.zattrs", "v/0.0", "v/0.1", "v/1.0", "v/1.1");

  @Test
  void ofTwoAttemptsOfOnePartitionOnlyTheCommittedOnesChunksArePublished() throws Exception {
    Path dir = tmp.resolve("spec.zarr");
    DirectWrite w = DirectWrite.of(dir, WriteMode.CREATE);
    DataWriter<InternalRow> loser = attempt(w, 0, 7, 9, 4);
    DataWriter<InternalRow> winner = attempt(w, 0, 8, 1, 4);
    WriterCommitMessage won = winner.commit();
    loser.commit(); // its task commit succeeds, but the commit coordinator refuses its message
    loser.abort();  // Spark aborts the attempt that was denied
    w.batch().commit(new WriterCommitMessage[] {won});
    assertEquals("1/4", Generations.observe(dir));
    assertEquals(FOUR_BY_THREE, files(dir),
        "one file per chunk key, no attempt's leftovers");
    assertFalse(StoreSnapshot.stagingBelow(tmp), "the staging directory is gone");
  }

  @Test
  void aZombieAttemptStillWritingAfterTheCommitNeverWritesIntoTheTarget() throws Exception {
    Path dir = tmp.resolve("zombie.zarr");
    DirectWrite w = DirectWrite.of(dir, WriteMode.CREATE);
    DataWriter<InternalRow> winner = attempt(w, 0, 8, 1, 4);
    DataWriter<InternalRow> zombie = attempt(w, 0, 9, 9, 2);
    w.batch().commit(new WriterCommitMessage[] {winner.commit()});
    StoreSnapshot committed = StoreSnapshot.of(dir);
    for (long y = 0; y < 3; y++) {
      zombie.write(new GenericInternalRow(new Object[] {2L, y, 9999.0}));
    }
    zombie.commit();
    assertEquals(committed, StoreSnapshot.of(dir), "the target is untouched by the zombie");
    assertEquals("1/4", Generations.observe(dir));
    List<Path> leftovers;
    try (Stream<Path> s = Files.list(tmp)) {
      leftovers = s.filter(p -> !p.equals(dir)).toList();
    }
    assertEquals(1, leftovers.size(), leftovers.toString());
    assertTrue(leftovers.get(0).getFileName().toString().startsWith(".zombie.zarr" + WritePlanner.STAGING_MARKER), "only the hidden staging sibling: " + leftovers);
  }

  @Test
  void twoMessagesListingOneChunkFailTheCommitAndLeaveTheOldStore() throws Exception {
    Path dir = tmp.resolve("dup.zarr");
    write(dir.toString(), 2, SaveMode.ErrorIfExists, 1, 4, 0);
    StoreSnapshot before = StoreSnapshot.of(dir);
    DirectWrite w = DirectWrite.of(dir, WriteMode.OVERWRITE);
    WriterCommitMessage[] messages = {attempt(w, 0, 11, 2, 4).commit(), attempt(w, 1, 12, 2, 2).commit()};
    Exception e = assertThrows(Exception.class, () -> w.batch().commit(messages));
    assertTrue(WriteModesTest.rootMessage(e).contains("was written by two tasks"), WriteModesTest.rootMessage(e));
    w.batch().abort(messages);
    assertEquals(before, StoreSnapshot.of(dir));
    assertFalse(StoreSnapshot.stagingBelow(tmp));
  }

  /**
   * A group below the store's root has its staging directory inside the store, beside it; the
   * consolidated metadata written while that directory holds the staged documents skips it.
   */
  @Test
  void aGroupBelowTheRootIsConsolidatedWithoutTheStagingDirectory() throws Exception {
    Path dir = tmp.resolve("nested.zarr");
    DirectWrite w = DirectWrite.of(dir, "g", WriteMode.CREATE);
    w.batch().commit(new WriterCommitMessage[] {attempt(w, 0, 3, 1, 4).commit()});
    var consolidated = new com.fasterxml.jackson.databind.ObjectMapper()
        .readTree(dir.resolve(".zmetadata").toFile()).get("metadata");
    List<String> keys = new ArrayList<>();
    consolidated.fieldNames().forEachRemaining(keys::add);
    assertEquals(List.of("g/.zgroup", "g/v/.zarray", "g/v/.zattrs"), keys.stream().sorted().toList());
    assertFalse(StoreSnapshot.stagingBelow(tmp));
  }

  // ---- readers ------------------------------------------------------------------------------

  /**
   * Stops the commit before every rename and reads the store: readers find the old array, then
   * nothing, then the new one — never a partial document, never old metadata over new chunks.
   */
  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void atEveryStepOfAPublishAReaderFindsTheOldArrayNothingOrTheNewOne(int format) throws Exception {
    Path dir = tmp.resolve("steps.zarr");
    String uri = FaultyFileSystem.uri(dir);
    write(uri, format, SaveMode.ErrorIfExists, 1, 4, 0);
    assertSteps(dir, "1/4", "2/5", () -> write(uri, format, SaveMode.Overwrite, 2, 5, 0));
    assertSteps(dir, "2/5", "2/8", () -> write(uri, format, SaveMode.Append, 2, 3, 5, "append_dim", "t"));
    assertSteps(dir, "2/8", "3/3", () -> write(uri, format, SaveMode.Overwrite, 3, 3, 0));
  }

  private static void assertSteps(Path dir, String before, String after, Runnable write) {
    List<String> states = new ArrayList<>();
    FaultyFileSystem.beforeDriverRename((from, to) -> states.add(Generations.observe(dir)));
    write.run();
    FaultyFileSystem.beforeDriverRename(null);
    states.add(Generations.observe(dir));
    String seen = String.join(" ", states);
    assertTrue(states.size() > 5, seen);
    assertTrue(seen.matches("(" + before + " )+(absent )+(" + after + " )*" + after), seen);
  }

  /**
   * A reader thread reads the store over and over while overwrites and appends run. A read counts
   * when the metadata it depends on is the same before and after it (Zarr has no snapshot reads:
   * a reader whose documents changed meanwhile must retry). Counted reads see one whole state a
   * write committed; no read ever finds a partial metadata document.
   */
  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void readersDuringWritesSeeOneWholeCommittedState(int format) throws Exception {
    Path dir = tmp.resolve("race.zarr");
    String uri = dir.toString();
    write(uri, format, SaveMode.ErrorIfExists, 1, 3, 0);
    Set<String> committed = ConcurrentHashMap.newKeySet();
    committed.add("1/3");
    Set<String> seen = ConcurrentHashMap.newKeySet();
    List<String> bad = java.util.Collections.synchronizedList(new ArrayList<>());
    Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
    AtomicBoolean stop = new AtomicBoolean();
    Thread reader = new Thread(() -> {
      while (!stop.get()) {
        String version = Generations.metadataVersion(dir);
        String state = Generations.observe(dir);
        // Unchanged documents mean no publish step ran meanwhile (each state below has its own
        // length, so its own documents), unless there were none: a read spanning two publishes.
        boolean stable = version.equals(Generations.metadataVersion(dir))
            && !version.equals(Generations.NO_METADATA);
        String outcome;
        if (state.startsWith("partial metadata") || state.contains("JSON")) {
          bad.add(state);
          outcome = "bad";
        } else if (state.equals(Generations.ABSENT)) {
          outcome = "absent";
        } else if (!stable) {
          outcome = "changed meanwhile";
        } else if (state.matches("\\d+/\\d+")) {
          seen.add(state);
          outcome = "whole";
        } else {
          bad.add(state);
          outcome = "bad";
        }
        outcomes.computeIfAbsent(outcome, k -> new AtomicInteger()).incrementAndGet();
      }
    });
    reader.start();
    try {
      // lengths 3, 5, 6, 7, 8, ...: no state repeats; appends to odd lengths rewrite a chunk
      for (int g = 2; g <= 5; g++) {
        write(uri, format, SaveMode.Overwrite, g, 2 * g + 1, 0);
        committed.add(g + "/" + (2 * g + 1));
        write(uri, format, SaveMode.Append, g, 1, 2 * g + 1, "append_dim", "t");
        committed.add(g + "/" + (2 * g + 2));
      }
    } finally {
      stop.set(true);
      reader.join();
    }
    Map<String, Integer> counts = new HashMap<>();
    outcomes.forEach((k, v) -> counts.put(k, v.get()));
    System.out.println("zarr_format " + format + " reader outcomes: " + counts);
    assertEquals(List.of(), bad, "outcomes " + counts);
    assertTrue(counts.getOrDefault("whole", 0) > 0, "outcomes " + counts);
    assertTrue(committed.containsAll(seen), "seen " + new TreeSet<>(seen) + ", committed " + committed);
    assertEquals("5/12", Generations.observe(dir));
  }
}
