package io.github.sparkzarr.zarr.hostile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.MemoryStore;
import io.github.sparkzarr.zarr.store.Store;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every hostile store fails with a ZarrException naming the store, the bad key and the problem,
 * quickly and in bounded memory. The pom runs this class alone in a JVM with a 512 MiB heap, so a
 * decompression bomb or an unbounded read shows up as an OutOfMemoryError failure here.
 */
class HostileStoresTest {
  private static final Duration LIMIT = Duration.ofSeconds(20);

  @TestFactory
  List<DynamicTest> everyHostileStoreFailsClearly() throws IOException {
    List<HostileCorpus.Case> cases = HostileCorpus.cases();
    assertTrue(cases.size() >= 60, "expected at least 60 hostile stores, found " + cases.size());
    Set<String> formats = new TreeSet<>();
    cases.forEach(c -> formats.add(c.format()));
    assertEquals(Set.of("v1", "v2", "v3", "v3draft"), formats);
    return cases.stream()
        .map(c -> DynamicTest.dynamicTest(c.name(), () -> check(c)))
        .toList();
  }

  private static void check(HostileCorpus.Case c) throws IOException {
    try (HadoopStore store = new HadoopStore(c.storeDir().toUri().toString(), new Configuration())) {
      ZarrException e = assertTimeoutPreemptively(LIMIT,
          () -> assertThrows(ZarrException.class, () -> c.openAndRead(store), c.name()));
      assertNamesStoreKeyProblem(e, store.location(), c.badKey(), c.errorContains());
    }
  }

  static void assertNamesStoreKeyProblem(Throwable e, String location, String key, String problem) {
    String message = e.getMessage();
    assertTrue(message.contains(location), "should name the store " + location + ": " + message);
    assertTrue(message.contains("'" + key + "'"), "should name the key " + key + ": " + message);
    assertTrue(message.toLowerCase().contains(problem.toLowerCase()),
        "should mention '" + problem + "': " + message);
  }

  // ---- inputs too big to commit, made here -------------------------------------------------

  /** A 100 MB metadata document is refused from its size, never parsed whole. */
  @TestFactory
  List<DynamicTest> hugeMetadataDocumentsAreRefused(@TempDir Path tmp) {
    return Stream.of("a/.zarray", "a/zarr.json", ".zmetadata", "zarr.json", "a/meta")
        .map(key -> DynamicTest.dynamicTest(key, () -> {
          Path root = Files.createDirectories(tmp.resolve(key.replace('/', '_')));
          writePadded(root.resolve(key), "{\"zarr_format\": 2,", 100L << 20);
          try (HadoopStore store = new HadoopStore(root.toUri().toString(), new Configuration())) {
            ZarrException e = assertTimeoutPreemptively(LIMIT,
                () -> assertThrows(ZarrException.class, () -> ZarrArray.open(store, "a")));
            assertNamesStoreKeyProblem(e, store.location(), key, "larger than");
          }
        }))
        .toList();
  }

  private static final String DRAFT_ENTRY_POINT = "{\"zarr_format\": \"https://purl.org/zarr/spec/protocol/core/3.0\","
      + " \"metadata_encoding\": \"https://purl.org/zarr/spec/protocol/core/3.0\","
      + " \"metadata_key_suffix\": \".json\", \"extensions\": [],";
  private static final String DRAFT_ARRAY = "{\"shape\": [4], \"data_type\": \"<i4\", \"chunk_grid\": "
      + "{\"type\": \"regular\", \"chunk_shape\": [2], \"separator\": \"/\"}, \"chunk_memory_layout\": \"C\","
      + " \"fill_value\": 7, \"extensions\": [], \"attributes\": {},";

  /**
   * Padded but otherwise valid v3 draft documents: read whole, they would open fine, so only the
   * size limit makes them fail.
   */
  @TestFactory
  List<DynamicTest> hugeDraftDocumentsAreRefused(@TempDir Path tmp) {
    return Stream.of("zarr.json", "meta/root/a.array.json")
        .map(key -> DynamicTest.dynamicTest(key, () -> {
          Path root = Files.createDirectories(tmp.resolve(key.replace('/', '_')));
          Files.writeString(root.resolve("zarr.json"), DRAFT_ENTRY_POINT + "\"x\": 1}");
          Files.createDirectories(root.resolve("meta/root"));
          Files.writeString(root.resolve("meta/root/a.array.json"), DRAFT_ARRAY + "\"x\": 1}");
          writePadded(root.resolve(key), key.equals("zarr.json") ? DRAFT_ENTRY_POINT : DRAFT_ARRAY,
              100L << 20);
          try (HadoopStore store = new HadoopStore(root.toUri().toString(), new Configuration())) {
            ZarrException e = assertTimeoutPreemptively(LIMIT,
                () -> assertThrows(ZarrException.class, () -> ZarrArray.open(store, "a")));
            assertNamesStoreKeyProblem(e, store.location(), key, "larger than");
          }
        }))
        .toList();
  }

  /**
   * {@code head} (an unclosed JSON object), spaces up to {@code size} bytes, then a last member:
   * written without holding it.
   */
  private static void writePadded(Path file, String head, long size) throws IOException {
    Files.createDirectories(file.getParent());
    byte[] spaces = new byte[1 << 20];
    java.util.Arrays.fill(spaces, (byte) ' ');
    try (OutputStream out = Files.newOutputStream(file)) {
      out.write(head.getBytes(StandardCharsets.UTF_8));
      for (long written = 0; written < size; written += spaces.length) {
        out.write(spaces);
      }
      out.write("\"x\": 1}".getBytes(StandardCharsets.UTF_8));
    }
  }

  /** 10,000 nested implicit v3 groups: found without recursion or a stack overflow. */
  @Test
  void tenThousandLevelHierarchyOpensIteratively() throws IOException {
    Store store = new MemoryStore("deep");
    store.set("zarr.json", "{\"zarr_format\":3,\"node_type\":\"group\"}".getBytes(StandardCharsets.UTF_8));
    String path = String.join("/", Collections.nCopies(10_000, "g"));
    store.set(path + "/zarr.json", ("{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[2],"
        + "\"data_type\":\"int8\",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":"
        + "{\"chunk_shape\":[2]}},\"chunk_key_encoding\":{\"name\":\"default\"},"
        + "\"fill_value\":7,\"codecs\":[{\"name\":\"bytes\"}]}").getBytes(StandardCharsets.UTF_8));
    ZarrHierarchy h = assertTimeoutPreemptively(LIMIT, () -> ZarrHierarchy.open(store));
    assertEquals(ZarrHierarchy.NodeType.GROUP, h.nodeType(path.substring(0, 9_998)).orElseThrow());
    assertEquals(7, h.openArray(path).readAll().bytes()[1]);
  }

  /** 10,000 nested implicit groups of a v3 draft hierarchy (meta/root/g/g/...). */
  @Test
  void tenThousandLevelDraftHierarchyOpensIteratively() throws IOException {
    Store store = new MemoryStore("deep-draft");
    store.set("zarr.json", (DRAFT_ENTRY_POINT + "\"x\": 1}").getBytes(StandardCharsets.UTF_8));
    String path = String.join("/", Collections.nCopies(10_000, "g"));
    store.set("meta/root/" + path + ".array.json", (DRAFT_ARRAY + "\"x\": 1}").getBytes(StandardCharsets.UTF_8));
    ZarrHierarchy h = assertTimeoutPreemptively(LIMIT, () -> ZarrHierarchy.open(store));
    String parent = path.substring(0, path.length() - 2);
    assertEquals(ZarrHierarchy.NodeType.GROUP, h.nodeType(parent).orElseThrow());
    assertEquals(List.of(path), h.children(parent));
    assertEquals(7, h.openArray(path).readAll().bytes()[4]);
  }

  /** Consolidated metadata naming 2,000 nested groups with an array at the bottom. */
  @Test
  void deepConsolidatedMetadataIsReadIteratively() throws IOException {
    Store store = new MemoryStore("deep-consolidated");
    StringBuilder json = new StringBuilder("{\"zarr_consolidated_format\":1,\"metadata\":{");
    String path = "";
    for (int i = 0; i < 2_000; i++) {
      path = path.isEmpty() ? "g" : path + "/g";
      json.append('"').append(path).append("/.zgroup\":{\"zarr_format\":2},");
    }
    json.append('"').append(path).append("/a/.zarray\":{\"zarr_format\":2,\"shape\":[3],"
        + "\"chunks\":[3],\"dtype\":\"|i1\",\"compressor\":null,\"fill_value\":5,\"order\":\"C\","
        + "\"filters\":null}}}");
    store.set(".zmetadata", json.toString().getBytes(StandardCharsets.UTF_8));
    ZarrHierarchy h = assertTimeoutPreemptively(LIMIT, () -> ZarrHierarchy.open(store));
    assertEquals(List.of(path + "/a"), h.children(path));
    assertEquals(5, h.openArray(path + "/a").readAll().bytes()[2]);
  }
}
