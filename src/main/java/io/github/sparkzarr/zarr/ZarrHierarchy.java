package io.github.sparkzarr.zarr;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.GroupMetadata;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.MetadataDocuments;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.store.Store;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The nodes (groups and arrays) of a store: finding them, reading their metadata (from
 * consolidated metadata when the store has it), and writing new ones.
 */
public final class ZarrHierarchy {

  /** What a path in the hierarchy holds. */
  public enum NodeType {
    ARRAY,
    GROUP
  }

  private final Store store;
  private final MetadataDocuments documents;

  private ZarrHierarchy(Store store, MetadataDocuments documents) {
    this.store = store;
    this.documents = documents;
  }

  /** Opens the hierarchy at the root of {@code store}, reading consolidated metadata if present. */
  public static ZarrHierarchy open(Store store) throws IOException {
    return new ZarrHierarchy(store, MetadataDocuments.open(store));
  }

  public Store store() {
    return store;
  }

  public boolean isConsolidated() {
    return documents.isConsolidated();
  }

  /** What is at {@code path}, or empty if nothing is. */
  public Optional<NodeType> nodeType(String path) throws IOException {
    String p = StoreKeys.normalizePath(path);
    if (documents.read(StoreKeys.join(p, V2Metadata.ARRAY_KEY)).isPresent()) {
      return Optional.of(NodeType.ARRAY);
    }
    if (documents.read(StoreKeys.join(p, V2Metadata.GROUP_KEY)).isPresent()) {
      return Optional.of(NodeType.GROUP);
    }
    return Optional.empty();
  }

  /** The array at {@code path}; an error naming the store and key if there is none. */
  public ZarrArray openArray(String path) throws IOException {
    String p = StoreKeys.normalizePath(path);
    String key = StoreKeys.join(p, V2Metadata.ARRAY_KEY);
    Optional<ObjectNode> zarray = documents.read(key);
    if (zarray.isEmpty()) {
      String what = documents.read(StoreKeys.join(p, V2Metadata.GROUP_KEY)).isPresent()
          ? "this is a group, not an array" : "no array here (no " + key + ")";
      throw new ZarrException(store.location(), key, what);
    }
    ObjectNode attrs = attributes(p);
    ArrayMetadata md = V2Metadata.readArray(zarray.get(), attrs, store.location(), key);
    return new ZarrArray(store, p, md);
  }

  /** The group at {@code path}; an error naming the store and key if there is none. */
  public GroupMetadata openGroup(String path) throws IOException {
    String p = StoreKeys.normalizePath(path);
    String key = StoreKeys.join(p, V2Metadata.GROUP_KEY);
    Optional<ObjectNode> zgroup = documents.read(key);
    if (zgroup.isEmpty()) {
      throw new ZarrException(store.location(), key, "no group here (no " + key + ")");
    }
    if (!zgroup.get().path("zarr_format").isInt() || zgroup.get().get("zarr_format").asInt() != 2) {
      throw new ZarrException(store.location(), key, "zarr_format must be 2, got " + zgroup.get().get("zarr_format"));
    }
    return new GroupMetadata(2, attributes(p));
  }

  private ObjectNode attributes(String path) throws IOException {
    return documents.read(StoreKeys.join(path, V2Metadata.ATTRS_KEY)).orElseGet(Json::object);
  }

  /** The paths of the arrays and groups directly inside the group at {@code path}. */
  public List<String> children(String path) throws IOException {
    String p = StoreKeys.normalizePath(path);
    List<String> out = new ArrayList<>();
    for (String name : documents.listDir(StoreKeys.dir(p))) {
      if (name.endsWith("/")) {
        String child = StoreKeys.join(p, name.substring(0, name.length() - 1));
        if (nodeType(child).isPresent()) {
          out.add(child);
        }
      }
    }
    return out;
  }

  // ---- writing ---------------------------------------------------------------------------

  /** Writes a v2 group's metadata (and its attributes, when any). */
  public static void writeGroupV2(Store store, String path, ObjectNode attributes) throws IOException {
    String p = StoreKeys.normalizePath(path);
    ObjectNode zgroup = Json.object();
    zgroup.put("zarr_format", 2);
    store.set(StoreKeys.join(p, V2Metadata.GROUP_KEY), Json.write(zgroup));
    writeAttributes(store, p, attributes);
  }

  /** Writes a v2 array's metadata (and attributes, with dimension names), returning the array. */
  public static ZarrArray writeArrayV2(Store store, String path, ArrayMetadata md) throws IOException {
    String p = StoreKeys.normalizePath(path);
    store.set(StoreKeys.join(p, V2Metadata.ARRAY_KEY), Json.write(V2Metadata.toZarray(md)));
    ObjectNode attrs = md.attributes().deepCopy();
    if (md.dimensionNames() != null && !attrs.has(V2Metadata.DIMENSIONS_ATTR)) {
      var dims = attrs.putArray(V2Metadata.DIMENSIONS_ATTR);
      md.dimensionNames().forEach(dims::add);
    }
    writeAttributes(store, p, attrs);
    return new ZarrArray(store, p, md.withAttributes(attrs));
  }

  private static void writeAttributes(Store store, String path, ObjectNode attributes)
      throws IOException {
    String key = StoreKeys.join(path, V2Metadata.ATTRS_KEY);
    if (attributes != null && attributes.size() > 0) {
      store.set(key, Json.write(attributes));
    } else {
      store.delete(key);
    }
  }

  /** Writes v2 consolidated metadata (`.zmetadata`) for every metadata document in the store. */
  public static void consolidateV2(Store store) throws IOException {
    ObjectNode root = Json.object();
    ObjectNode metadata = root.putObject("metadata");
    for (String key : store.list("")) {
      String name = key.substring(key.lastIndexOf('/') + 1);
      if (name.equals(V2Metadata.ARRAY_KEY) || name.equals(V2Metadata.GROUP_KEY)
          || name.equals(V2Metadata.ATTRS_KEY)) {
        metadata.set(key, Json.parseObject(store.get(key).orElseThrow(), store.location(), key));
      }
    }
    root.put("zarr_consolidated_format", 1);
    store.set(V2Metadata.CONSOLIDATED_KEY, Json.write(root));
  }
}
