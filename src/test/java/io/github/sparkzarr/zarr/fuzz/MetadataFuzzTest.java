package io.github.sparkzarr.zarr.fuzz;

import static io.github.sparkzarr.zarr.fuzz.Fuzzing.onlyDocumentedFailures;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V1Metadata;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.metadata.V3DraftMetadata;
import io.github.sparkzarr.zarr.metadata.V3Metadata;
import io.github.sparkzarr.zarr.store.MemoryStore;
import io.github.sparkzarr.zarr.store.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Each metadata reader on arbitrary bytes. Seeds: MetadataFuzzTestInputs/&lt;method&gt;/ in the
 * test resources (from the corpora, by integration-tests/make_fuzz_seeds.py); without
 * JAZZER_FUZZ=1 only the seeds run. See docs/reliability.md for a longer fuzzing run.
 */
class MetadataFuzzTest {
  private static final String LOCATION = "memory://fuzz";

  @FuzzTest(maxDuration = "60s")
  void v1Meta(byte[] data) {
    onlyDocumentedFailures(() -> {
      ObjectNode meta = Json.parseObject(data, LOCATION, "meta");
      V1Metadata.readArray(meta, null, LOCATION, "meta");
    });
  }

  @FuzzTest(maxDuration = "60s")
  void v2Zarray(byte[] data) {
    onlyDocumentedFailures(() -> {
      ObjectNode zarray = Json.parseObject(data, LOCATION, ".zarray");
      V2Metadata.readArray(zarray, null, LOCATION, ".zarray");
    });
  }

  @FuzzTest(maxDuration = "60s")
  void v3ZarrJson(byte[] data) {
    onlyDocumentedFailures(() -> {
      ObjectNode doc = Json.parseObject(data, LOCATION, "zarr.json");
      if (V3Metadata.nodeType(doc, LOCATION, "zarr.json").equals("array")) {
        V3Metadata.readArray(doc, LOCATION, "zarr.json");
      } else {
        V3Metadata.readGroup(doc, LOCATION, "zarr.json");
      }
    });
  }

  /**
   * The 2022 v3 draft: the bytes as the entry point (then every node is walked), and as the
   * .array.json of an array below a valid entry point (then it is opened).
   */
  @FuzzTest(maxDuration = "60s")
  void v3Draft(byte[] data) {
    onlyDocumentedFailures(() -> {
      Store store = new MemoryStore("fuzz");
      store.set(V3DraftMetadata.ENTRY_POINT_KEY, data);
      store.set(DRAFT_ARRAY_KEY, DRAFT_ARRAY);
      walk(ZarrHierarchy.open(store), "", 0);
    });
    onlyDocumentedFailures(() -> {
      Store store = new MemoryStore("fuzz");
      store.set(V3DraftMetadata.ENTRY_POINT_KEY, Json.writeAscii(V3DraftMetadata.entryPoint()));
      store.set(DRAFT_ARRAY_KEY, data);
      ZarrHierarchy.open(store).openArray("a");
    });
  }

  private static final String DRAFT_ARRAY_KEY = "meta/root/a.array.json";
  private static final byte[] DRAFT_ARRAY = ("{\"shape\": [4], \"data_type\": \"<i4\", \"chunk_grid\": "
      + "{\"type\": \"regular\", \"chunk_shape\": [2], \"separator\": \"/\"}, "
      + "\"chunk_memory_layout\": \"C\", \"fill_value\": 0}").getBytes(StandardCharsets.US_ASCII);

  /** Consolidated metadata, v2 (.zmetadata) or v3 (root zarr.json): open and walk every node. */
  @FuzzTest(maxDuration = "60s")
  void consolidated(byte[] data) {
    for (String key : new String[] {V2Metadata.CONSOLIDATED_KEY, V3Metadata.KEY}) {
      onlyDocumentedFailures(() -> {
        Store store = new MemoryStore("fuzz");
        store.set(key, data);
        walk(ZarrHierarchy.open(store), "", 0);
      });
    }
  }

  private static void walk(ZarrHierarchy h, String path, int depth) throws IOException {
    if (depth > 64) {
      return;
    }
    for (String child : h.children(path)) {
      if (h.nodeType(child).orElseThrow() == ZarrHierarchy.NodeType.ARRAY) {
        h.openArray(child);
      } else {
        h.openGroup(child);
        walk(h, child, depth + 1);
      }
    }
  }
}
