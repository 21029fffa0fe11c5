package io.github.sparkzarr.zarr.hostile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.corpus.CorpusDir;
import io.github.sparkzarr.zarr.store.Store;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The stores of integration-tests/generate_hostile_stores.py and their manifest: what each case
 * is, and how to make it fail (open, read all, or read a region). The committed copy, or the one
 * the build regenerated (system property {@code zarr.corpus.dir}, see {@link CorpusDir}).
 */
final class HostileCorpus {
  static Path dir() {
    return CorpusDir.of("hostile");
  }

  /** One manifest entry. */
  record Case(String name, String store, String format, String path, String badKey,
      String errorContains, boolean failsAtOpen, long[] regionStart, int[] regionShape) {

    Path storeDir() {
      return dir().resolve(store).toAbsolutePath();
    }

    /** Opens the array and, for read-stage cases, reads what the case says. */
    void openAndRead(Store s) throws IOException {
      ZarrArray a = ZarrArray.open(s, path);
      if (failsAtOpen) {
        return;
      }
      if (regionStart != null) {
        a.read(regionStart, regionShape);
      } else {
        a.readAll();
      }
    }

    @Override
    public String toString() {
      return name;
    }
  }

  private HostileCorpus() {}

  static List<Case> cases() throws IOException {
    JsonNode manifest = JsonMapper.builder().build()
        .readTree(dir().resolve("hostile-manifest.json").toFile());
    List<Case> out = new ArrayList<>();
    for (JsonNode c : manifest.get("cases")) {
      JsonNode region = c.get("region");
      out.add(new Case(c.get("name").asText(), c.get("store").asText(), c.get("format").asText(),
          c.get("path").asText(), c.get("bad_key").asText(), c.get("error_contains").asText(),
          c.get("stage").asText().equals("open"),
          region == null ? null : longs(region.get("start")),
          region == null ? null : ints(region.get("shape"))));
    }
    return out;
  }

  private static long[] longs(JsonNode n) {
    long[] out = new long[n.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = n.get(i).asLong();
    }
    return out;
  }

  private static int[] ints(JsonNode n) {
    int[] out = new int[n.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = n.get(i).asInt();
    }
    return out;
  }
}
