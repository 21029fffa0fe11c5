package io.github.sparkzarr.zarr.corpus;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every broken store of integration-tests/generate_bad_v2_stores.py fails with a ZarrException
 * that names the store, the bad key and the problem, at open time or when reading chunks.
 */
class BadV2StoresTest {

  @TestFactory
  List<DynamicTest> everyBrokenStoreFailsClearly() throws Exception {
    Path dir = V2CorpusTest.corpusDir("v2-bad");
    JsonNode manifest = ExpectedValues.JSON.readTree(dir.resolve("bad-manifest.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode c : manifest.get("cases")) {
      tests.add(DynamicTest.dynamicTest(c.get("name").asText(), () -> check(dir, c)));
    }
    assertTrue(tests.size() >= 20, "expected at least 20 broken stores, found " + tests.size());
    return tests;
  }

  private static void check(Path dir, JsonNode c) throws Exception {
    try (HadoopStore store = new HadoopStore(
        dir.resolve(c.get("store").asText()).toUri().toString(), new Configuration())) {
      String path = c.get("path").asText();
      boolean atOpen = c.get("stage").asText().equals("open");
      ZarrException e = assertThrows(ZarrException.class, () -> {
        ZarrArray a = ZarrArray.open(store, path);
        if (!atOpen) {
          a.readAll();
        }
      }, c.get("note").asText());
      String message = e.getMessage();
      String lower = message.toLowerCase();
      assertTrue(lower.contains(c.get("error_contains").asText().toLowerCase()),
          "message should mention '" + c.get("error_contains").asText() + "': " + message);
      assertTrue(message.contains(store.location()), "message should name the store: " + message);
      assertTrue(message.contains(c.get("bad_key").asText()),
          "message should name the key " + c.get("bad_key").asText() + ": " + message);
    }
  }
}
