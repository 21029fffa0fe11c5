package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.ZarrHierarchy.NodeType;
import io.github.sparkzarr.zarr.store.Store;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Zarr v3 nodes: a {@code zarr.json} per node, implicit groups (a directory without zarr.json
 * whose nearest described ancestor is a v3 group), and consolidated metadata in the root
 * zarr.json as zarr-python 3 writes it, used instead of per-node reads when present.
 */
public final class V3Nodes implements NodeReader {
  private final Store store;
  /** Node documents by path ("" is the root) from consolidated metadata, or null. */
  private final Map<String, ObjectNode> consolidated;

  public V3Nodes(Store store) throws IOException {
    this.store = store;
    this.consolidated = readConsolidated(store);
  }

  private static Map<String, ObjectNode> readConsolidated(Store store) throws IOException {
    Optional<byte[]> bytes = MetadataDocuments.fetch(store, V3Metadata.KEY);
    if (bytes.isEmpty()) {
      return null;
    }
    ObjectNode root = Json.parseObject(bytes.get(), store.location(), V3Metadata.KEY);
    JsonNode cm = root.get("consolidated_metadata");
    if (!root.path("zarr_format").isIntegralNumber() || cm == null || cm.isNull()) {
      return null;
    }
    if (!"inline".equals(cm.path("kind").asText()) || !cm.path("metadata").isObject()) {
      if (cm.path("must_understand").isBoolean() && !cm.get("must_understand").booleanValue()) {
        return null;
      }
      throw new ZarrException(store.location(), V3Metadata.KEY,
          "unsupported consolidated_metadata (expected kind \"inline\" with a \"metadata\" object)");
    }
    Map<String, ObjectNode> map = new TreeMap<>();
    map.put("", root);
    Iterator<Map.Entry<String, JsonNode>> it = cm.get("metadata").fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      String path;
      try {
        path = StoreKeys.normalizePath(StoreKeys.validate(e.getKey()));
      } catch (IllegalArgumentException bad) {
        throw new ZarrException(store.location(), V3Metadata.KEY,
            "consolidated metadata has an invalid path: " + bad.getMessage());
      }
      if (!e.getValue().isObject()) {
        throw new ZarrException(store.location(), V3Metadata.KEY,
            "the consolidated document for '" + path + "' must be a JSON object");
      }
      map.put(path, (ObjectNode) e.getValue());
    }
    return map;
  }

  @Override
  public boolean isConsolidated() {
    return consolidated != null;
  }

  private String key(String path) {
    return consolidated != null ? V3Metadata.KEY : StoreKeys.join(path, V3Metadata.KEY);
  }

  private Optional<ObjectNode> document(String path) throws IOException {
    if (consolidated != null) {
      return Optional.ofNullable(consolidated.get(path));
    }
    String key = StoreKeys.join(path, V3Metadata.KEY);
    Optional<byte[]> bytes = MetadataDocuments.fetch(store, key);
    return bytes.isEmpty() ? Optional.empty()
        : Optional.of(Json.parseObject(bytes.get(), store.location(), key));
  }

  @Override
  public Optional<NodeType> nodeType(String p) throws IOException {
    Optional<ObjectNode> doc = document(p);
    if (doc.isPresent()) {
      String type = V3Metadata.nodeType(doc.get(), store.location(), StoreKeys.join(p, V3Metadata.KEY));
      return Optional.of(type.equals("array") ? NodeType.ARRAY : NodeType.GROUP);
    }
    return isImplicitGroup(p) ? Optional.of(NodeType.GROUP) : Optional.empty();
  }

  private boolean isImplicitGroup(String p) throws IOException {
    if (p.isEmpty()) {
      return false;
    }
    if (consolidated != null) {
      String dir = StoreKeys.dir(p);
      return consolidated.keySet().stream().anyMatch(k -> k.startsWith(dir));
    }
    // Only a directory below an explicit v3 group can be an implicit group; look for that group
    // first, so stores of other formats (and stores that cannot list, like HTTP) are never listed.
    String ancestor = p;
    while (!ancestor.isEmpty()) {
      int slash = ancestor.lastIndexOf('/');
      ancestor = slash < 0 ? "" : ancestor.substring(0, slash);
      Optional<ObjectNode> doc = document(ancestor);
      if (doc.isPresent()) {
        return V3Metadata.nodeType(doc.get(), store.location(), StoreKeys.join(ancestor, V3Metadata.KEY))
            .equals("group") && !store.listDir(StoreKeys.dir(p)).isEmpty();
      }
    }
    return false;
  }

  @Override
  public ZarrArray openArray(String p) throws IOException {
    Optional<ObjectNode> doc = document(p);
    if (doc.isEmpty()) {
      throw new ZarrException(store.location(), StoreKeys.join(p, V3Metadata.KEY), "no array here");
    }
    return new ZarrArray(store, p, V3Metadata.readArray(doc.get(), store.location(), key(p)));
  }

  @Override
  public GroupMetadata openGroup(String p) throws IOException {
    Optional<ObjectNode> doc = document(p);
    if (doc.isEmpty()) {
      if (isImplicitGroup(p)) {
        return new GroupMetadata(3, Json.object());
      }
      throw new ZarrException(store.location(), StoreKeys.join(p, V3Metadata.KEY), "no group here");
    }
    return V3Metadata.readGroup(doc.get(), store.location(), key(p));
  }

  @Override
  public List<String> children(String p) throws IOException {
    List<String> out = new ArrayList<>();
    String dir = StoreKeys.dir(p);
    if (consolidated != null) {
      for (String k : consolidated.keySet()) {
        if (!k.isEmpty() && k.startsWith(dir)) {
          String child = StoreKeys.join(p, k.substring(dir.length()).split("/")[0]);
          if (!out.contains(child)) {
            out.add(child);
          }
        }
      }
      return out;
    }
    for (String name : store.listDir(dir)) {
      if (name.endsWith("/")) {
        String child = StoreKeys.join(p, name.substring(0, name.length() - 1));
        if (nodeType(child).isPresent()) {
          out.add(child);
        }
      }
    }
    return out;
  }
}
