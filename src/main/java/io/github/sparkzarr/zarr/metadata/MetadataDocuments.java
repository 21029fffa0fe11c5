package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.store.Store;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Where metadata documents come from: the store itself, or consolidated metadata read once
 * (then nothing is listed and each document costs no request).
 */
public final class MetadataDocuments {
  private final Store store;
  /** Consolidated documents by key, or null when the store has none. */
  private final Map<String, JsonNode> consolidated;

  private MetadataDocuments(Store store, Map<String, JsonNode> consolidated) {
    this.store = store;
    this.consolidated = consolidated;
  }

  /**
   * The largest metadata document read: real ones (even consolidated metadata of big hierarchies)
   * are far smaller, and a hostile 100 MB document must not be read whole and parsed.
   */
  public static final int MAX_DOCUMENT_BYTES = 64 << 20;

  /** The bytes of the metadata document at {@code key}, or empty; bounded by MAX_DOCUMENT_BYTES. */
  public static Optional<byte[]> fetch(Store store, String key) throws IOException {
    return store.get(key, MAX_DOCUMENT_BYTES);
  }

  /** Documents straight from the store. */
  public static MetadataDocuments direct(Store store) {
    return new MetadataDocuments(store, null);
  }

  /** Uses v2 consolidated metadata ({@code .zmetadata} at the store root) when present. */
  public static MetadataDocuments open(Store store) throws IOException {
    String key = V2Metadata.CONSOLIDATED_KEY;
    Optional<byte[]> bytes = fetch(store, key);
    if (bytes.isEmpty()) {
      return direct(store);
    }
    ObjectNode doc = Json.parseObject(bytes.get(), store.location(), key);
    JsonNode format = doc.get("zarr_consolidated_format");
    if (format == null || format.asInt() != 1) {
      throw new ZarrException(store.location(), key,
          "unsupported zarr_consolidated_format " + format + " (expected 1)");
    }
    JsonNode metadata = doc.get("metadata");
    if (metadata == null || !metadata.isObject()) {
      throw new ZarrException(store.location(), key, "\"metadata\" must be a JSON object");
    }
    Map<String, JsonNode> map = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = metadata.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      try {
        map.put(StoreKeys.validate(e.getKey()), e.getValue());
      } catch (IllegalArgumentException bad) {
        throw new ZarrException(store.location(), key,
            "consolidated metadata has an invalid key: " + bad.getMessage());
      }
    }
    return new MetadataDocuments(store, map);
  }

  public Store store() {
    return store;
  }

  public boolean isConsolidated() {
    return consolidated != null;
  }

  /** The JSON object at {@code key}, or empty if there is none. */
  public Optional<ObjectNode> read(String key) throws IOException {
    if (consolidated != null) {
      JsonNode node = consolidated.get(key);
      if (node == null) {
        return Optional.empty();
      }
      if (!node.isObject()) {
        throw new ZarrException(store.location(), V2Metadata.CONSOLIDATED_KEY,
            "the document for '" + key + "' must be a JSON object");
      }
      return Optional.of((ObjectNode) node);
    }
    Optional<byte[]> bytes = fetch(store, key);
    if (bytes.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(Json.parseObject(bytes.get(), store.location(), key));
  }

  /** Names of the children of directory {@code dir} ("" or ending in '/'); directories end in '/'. */
  public List<String> listDir(String dir) throws IOException {
    if (consolidated == null) {
      return store.listDir(dir);
    }
    TreeSet<String> out = new TreeSet<>();
    for (String k : consolidated.keySet()) {
      if (k.startsWith(dir)) {
        String rest = k.substring(dir.length());
        int slash = rest.indexOf('/');
        out.add(slash < 0 ? rest : rest.substring(0, slash + 1));
      }
    }
    return new ArrayList<>(out);
  }
}
