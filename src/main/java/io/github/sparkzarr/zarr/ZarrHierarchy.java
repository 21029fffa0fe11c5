package io.github.sparkzarr.zarr;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.GroupMetadata;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.NodeReader;
import io.github.sparkzarr.zarr.metadata.V1Metadata;
import io.github.sparkzarr.zarr.metadata.V1Nodes;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.metadata.V2Nodes;
import io.github.sparkzarr.zarr.metadata.V3DraftLayout;
import io.github.sparkzarr.zarr.metadata.V3DraftMetadata;
import io.github.sparkzarr.zarr.metadata.V3DraftNodes;
import io.github.sparkzarr.zarr.metadata.V3Metadata;
import io.github.sparkzarr.zarr.metadata.V3Nodes;
import io.github.sparkzarr.zarr.store.Store;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The nodes (groups and arrays) of a store: finding them, reading their metadata (from
 * consolidated metadata when the store has it), and writing new ones.
 *
 * <p>Each node's format is detected where it is (v3 {@code zarr.json}, v2 {@code .zarray} /
 * {@code .zgroup}, v1 {@code meta}); a store whose root {@code zarr.json} is the 2022 v3 draft's
 * entry point is read as a draft hierarchy. {@link #open(Store, ZarrFormat)} reads one format only.
 */
public final class ZarrHierarchy {

  /** What a path in the hierarchy holds. */
  public enum NodeType {
    ARRAY,
    GROUP
  }

  private final Store store;
  /** The formats' readers, in the order a node's format is looked for. */
  private final List<NodeReader> readers;

  private ZarrHierarchy(Store store, List<NodeReader> readers) {
    this.store = store;
    this.readers = List.copyOf(readers);
  }

  /** Opens the hierarchy at the root of {@code store}, detecting each node's format. */
  public static ZarrHierarchy open(Store store) throws IOException {
    return open(store, null);
  }

  /**
   * Opens the hierarchy reading only {@code format} (the Spark option {@code zarr_format}), or
   * detecting each node's format when {@code format} is null.
   */
  public static ZarrHierarchy open(Store store, ZarrFormat format) throws IOException {
    if (format == null) {
      return new ZarrHierarchy(store, detect(store));
    }
    return new ZarrHierarchy(store, List.of(reader(store, format)));
  }

  private static List<NodeReader> detect(Store store) throws IOException {
    // The draft's meta/ and data/ directories would look like implicit groups to the others.
    V3DraftNodes draft = new V3DraftNodes(store);
    if (draft.hasEntryPoint()) {
      return List.of(draft);
    }
    List<NodeReader> readers = new ArrayList<>();
    for (ZarrFormat f : List.of(ZarrFormat.V3, ZarrFormat.V2, ZarrFormat.V1)) {
      readers.add(reader(store, f));
    }
    return readers;
  }

  private static NodeReader reader(Store store, ZarrFormat format) throws IOException {
    return switch (format) {
      case V3 -> new V3Nodes(store);
      case V2 -> new V2Nodes(store);
      case V1 -> new V1Nodes(store);
      case V3_DRAFT -> new V3DraftNodes(store);
    };
  }

  public Store store() {
    return store;
  }

  public boolean isConsolidated() {
    for (NodeReader r : readers) {
      if (r.isConsolidated()) {
        return true;
      }
    }
    return false;
  }

  /** What is at {@code path}, or empty if nothing is. */
  public Optional<NodeType> nodeType(String path) throws IOException {
    return find(StoreKeys.normalizePath(path)).map(Found::type);
  }

  private record Found(NodeReader reader, NodeType type) {}

  private Optional<Found> find(String p) throws IOException {
    for (NodeReader r : readers) {
      Optional<NodeType> t = r.nodeType(p);
      if (t.isPresent()) {
        return Optional.of(new Found(r, t.get()));
      }
    }
    return Optional.empty();
  }

  /** The array at {@code path}; an error naming the store and key if there is none. */
  public ZarrArray openArray(String path) throws IOException {
    String p = StoreKeys.normalizePath(path);
    Optional<Found> found = find(p);
    if (found.isEmpty() || found.get().type() == NodeType.GROUP) {
      if (readers.size() == 1) {
        return readers.get(0).openArray(p);
      }
      throw new ZarrException(store.location(), p, found.isPresent()
          ? "this is a group, not an array" : "no array here (no zarr.json, .zarray or meta)");
    }
    return found.get().reader().openArray(p);
  }

  /** The group at {@code path}; an error naming the store and key if there is none. */
  public GroupMetadata openGroup(String path) throws IOException {
    String p = StoreKeys.normalizePath(path);
    Optional<Found> found = find(p);
    if (found.isEmpty() || found.get().type() == NodeType.ARRAY) {
      if (readers.size() == 1) {
        return readers.get(0).openGroup(p);
      }
      throw new ZarrException(store.location(), p, found.isPresent()
          ? "this is an array, not a group" : "no group here (no zarr.json, .zgroup or meta)");
    }
    return found.get().reader().openGroup(p);
  }

  /** The paths of the arrays and groups directly inside the group at {@code path}. */
  public List<String> children(String path) throws IOException {
    String p = StoreKeys.normalizePath(path);
    // A group's children are of its own format; asking only its reader keeps a consolidated v2
    // group from being listed (HTTP stores cannot list). Implicit v3 groups ask every reader.
    Optional<Found> found = find(p);
    List<NodeReader> askers = found.isPresent() && found.get().type() == NodeType.GROUP
        ? List.of(found.get().reader()) : readers;
    TreeSet<String> out = new TreeSet<>();
    for (NodeReader r : askers) {
      out.addAll(r.children(p));
    }
    return new ArrayList<>(out);
  }

  // ---- writing ---------------------------------------------------------------------------

  /** Writes a v2 group's metadata (and its attributes, when any). */
  public static void writeGroupV2(Store store, String path, ObjectNode attributes) throws IOException {
    String p = StoreKeys.normalizePath(path);
    ObjectNode zgroup = Json.object();
    zgroup.put("zarr_format", 2);
    store.set(StoreKeys.join(p, V2Metadata.GROUP_KEY), Json.writeAscii(zgroup));
    writeAttributes(store, p, attributes);
  }

  /** Writes a v2 array's metadata (and attributes, with dimension names), returning the array. */
  public static ZarrArray writeArrayV2(Store store, String path, ArrayMetadata md) throws IOException {
    String p = StoreKeys.normalizePath(path);
    store.set(StoreKeys.join(p, V2Metadata.ARRAY_KEY), Json.writeAscii(V2Metadata.toZarray(md)));
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
      store.set(key, Json.writeAscii(attributes));
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
    store.set(V2Metadata.CONSOLIDATED_KEY, Json.writeAscii(root));
  }

  /** Writes a v3 group's zarr.json. */
  public static void writeGroupV3(Store store, String path, ObjectNode attributes) throws IOException {
    String p = StoreKeys.normalizePath(path);
    store.set(StoreKeys.join(p, V3Metadata.KEY), Json.write(V3Metadata.groupJson(attributes)));
  }

  /** Writes a v3 array's zarr.json (its codec must be a V3ChunkCodec), returning the array. */
  public static ZarrArray writeArrayV3(Store store, String path, ArrayMetadata md) throws IOException {
    String p = StoreKeys.normalizePath(path);
    store.set(StoreKeys.join(p, V3Metadata.KEY), Json.write(V3Metadata.toJson(md)));
    return new ZarrArray(store, p, md);
  }

  /**
   * Writes v3 consolidated metadata into the root zarr.json (a group, created if absent): every
   * node's zarr.json below it, as zarr-python 3 does.
   */
  public static void consolidateV3(Store store) throws IOException {
    Optional<byte[]> existing = store.get(V3Metadata.KEY);
    ObjectNode root = existing.isPresent()
        ? Json.parseObject(existing.get(), store.location(), V3Metadata.KEY)
        : V3Metadata.groupJson(null);
    ObjectNode consolidated = Json.object();
    consolidated.put("kind", "inline");
    consolidated.put("must_understand", false);
    ObjectNode metadata = consolidated.putObject("metadata");
    for (String key : store.list("")) {
      if (key.endsWith("/" + V3Metadata.KEY)) {
        String path = key.substring(0, key.length() - V3Metadata.KEY.length() - 1);
        ObjectNode doc = Json.parseObject(store.get(key).orElseThrow(), store.location(), key);
        doc.remove("consolidated_metadata");
        metadata.set(path, doc);
      }
    }
    root.set("consolidated_metadata", consolidated);
    store.set(V3Metadata.KEY, Json.write(root));
  }

  /** Writes a v1 array's {@code meta} (and {@code attrs} when any), returning the array. */
  public static ZarrArray writeArrayV1(Store store, String path, ArrayMetadata md) throws IOException {
    String p = StoreKeys.normalizePath(path);
    store.set(StoreKeys.join(p, V1Metadata.META_KEY), Json.writeAscii(V1Metadata.toMeta(md)));
    String attrs = StoreKeys.join(p, V1Metadata.ATTRS_KEY);
    if (md.attributes() != null && md.attributes().size() > 0) {
      store.set(attrs, Json.writeAscii(md.attributes()));
    } else {
      store.delete(attrs);
    }
    return new ZarrArray(store, p, md);
  }

  /**
   * Writes a 2022 v3 draft group document ({@code meta/root/<path>.group.json}, {@code
   * meta/root.group.json} for the root), and the entry point when the store has none.
   */
  public static void writeGroupV3Draft(Store store, String path, ObjectNode attributes) throws IOException {
    String p = StoreKeys.normalizePath(path);
    V3DraftLayout layout = draftLayout(store);
    store.set(layout.metaKey(p, "group"), Json.writeAscii(V3DraftMetadata.groupJson(attributes)));
  }

  /**
   * Writes a 2022 v3 draft array document ({@code meta/root/<path>.array.json}), and the entry
   * point when the store has none, returning the array: chunks go to {@code
   * data/root/<path>/c0/1} (the separator of {@code md}'s chunk key encoding). Its codec must be
   * an order + compressor chain without filters (blosc, gzip, zlib, bz2, lz4, lzma or none).
   */
  public static ZarrArray writeArrayV3Draft(Store store, String path, ArrayMetadata md) throws IOException {
    String p = StoreKeys.normalizePath(path);
    V3DraftLayout layout = draftLayout(store);
    // The draft has no dimension names: keep them as xarray does in v2, which the reader honours.
    ObjectNode attrs = md.attributes() == null ? Json.object() : md.attributes().deepCopy();
    if (md.dimensionNames() != null && !attrs.has(V2Metadata.DIMENSIONS_ATTR)) {
      var dims = attrs.putArray(V2Metadata.DIMENSIONS_ATTR);
      md.dimensionNames().forEach(dims::add);
    }
    ArrayMetadata draft = new ArrayMetadata(3, md.shape(), md.chunkShape(), md.dataType(), md.fillValue(),
        md.codec(), ChunkKeyEncoding.v3Draft(md.chunkKeyEncoding().separator(), layout.dataRoot(p)),
        md.dimensionNames(), attrs);
    store.set(layout.metaKey(p, "array"), Json.writeAscii(V3DraftMetadata.toJson(draft)));
    return new ZarrArray(store, p, draft);
  }

  /** The layout of a draft store, writing zarr-python 2.13's entry point into a new one. */
  private static V3DraftLayout draftLayout(Store store) throws IOException {
    String key = V3DraftMetadata.ENTRY_POINT_KEY;
    Optional<byte[]> existing = store.get(key);
    ObjectNode entry = existing.isPresent()
        ? Json.parseObject(existing.get(), store.location(), key) : V3DraftMetadata.entryPoint();
    String suffix = V3DraftMetadata.keySuffix(entry, store.location());
    if (existing.isEmpty()) {
      store.set(key, Json.writeAscii(entry));
    }
    return V3DraftLayout.of(store, suffix);
  }
}
