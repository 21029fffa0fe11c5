package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.ZarrHierarchy.NodeType;
import io.github.sparkzarr.zarr.store.Store;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Nodes of a 2022 v3 draft hierarchy: {@code <path>.array.json} and {@code <path>.group.json}
 * below {@code meta/root/} (or {@code meta/}, see {@link V3DraftLayout}), and implicit groups
 * (a {@code meta} directory without a group document). A store without the draft entry point
 * has no draft nodes.
 */
public final class V3DraftNodes implements NodeReader {
  private static final String ARRAY = "array";
  private static final String GROUP = "group";

  private final Store store;
  /** The store's layout, or null when the store has no draft entry point. */
  private final V3DraftLayout layout;

  public V3DraftNodes(Store store) throws IOException {
    this.store = store;
    Optional<ObjectNode> entry = read(V3DraftMetadata.ENTRY_POINT_KEY);
    if (entry.isPresent() && V3DraftMetadata.isUnknownDraftVersion(entry.get())) {
      // Otherwise the v3 reader would say "zarr_format must be 3", hiding what the store is.
      throw new ZarrException(store.location(), V3DraftMetadata.ENTRY_POINT_KEY, "unsupported zarr_format "
          + entry.get().get("zarr_format") + " (the v3 draft reader knows \"" + V3DraftMetadata.PROTOCOL_URI + "\")");
    }
    this.layout = entry.isPresent() && V3DraftMetadata.isEntryPoint(entry.get())
        ? V3DraftLayout.of(store, V3DraftMetadata.keySuffix(entry.get(), store.location()))
        : null;
  }

  /** True when the store's root zarr.json is the draft's entry point. */
  public boolean hasEntryPoint() {
    return layout != null;
  }

  @Override
  public boolean isConsolidated() {
    return false;
  }

  private Optional<ObjectNode> read(String key) throws IOException {
    Optional<byte[]> bytes = MetadataDocuments.fetch(store, key);
    return bytes.isEmpty() ? Optional.empty() : Optional.of(Json.parseObject(bytes.get(), store.location(), key));
  }

  @Override
  public Optional<NodeType> nodeType(String p) throws IOException {
    if (layout == null) {
      return Optional.empty();
    }
    if (store.exists(layout.metaKey(p, ARRAY))) {
      return Optional.of(NodeType.ARRAY);
    }
    if (p.isEmpty() || store.exists(layout.metaKey(p, GROUP)) || isImplicitGroup(p)) {
      return Optional.of(NodeType.GROUP);
    }
    return Optional.empty();
  }

  private boolean isImplicitGroup(String p) throws IOException {
    return !store.listDir(layout.metaDir(p)).isEmpty();
  }

  private V3DraftLayout layout(String key) throws ZarrException {
    if (layout == null) {
      throw new ZarrException(store.location(), key,
          "no v3 draft hierarchy here (no zarr.json entry point with zarr_format \"" + V3DraftMetadata.PROTOCOL_URI + "\")");
    }
    return layout;
  }

  @Override
  public ZarrArray openArray(String p) throws IOException {
    String key = layout(V3DraftMetadata.ENTRY_POINT_KEY).metaKey(p, ARRAY);
    Optional<ObjectNode> doc = read(key);
    if (doc.isEmpty()) {
      throw new ZarrException(store.location(), key, "no v3 draft array here");
    }
    return new ZarrArray(store, p, V3DraftMetadata.readArray(doc.get(), layout.dataRoot(p), store.location(), key));
  }

  @Override
  public GroupMetadata openGroup(String p) throws IOException {
    String key = layout(V3DraftMetadata.ENTRY_POINT_KEY).metaKey(p, GROUP);
    Optional<ObjectNode> doc = read(key);
    if (doc.isPresent()) {
      return V3DraftMetadata.readGroup(doc.get(), store.location(), key);
    }
    if (p.isEmpty() || (isImplicitGroup(p) && !store.exists(layout.metaKey(p, ARRAY)))) {
      return new GroupMetadata(3, Json.object());
    }
    throw new ZarrException(store.location(), key, "no v3 draft group here");
  }

  @Override
  public List<String> children(String p) throws IOException {
    List<String> out = new ArrayList<>();
    if (layout == null) {
      return out;
    }
    String arraySuffix = "." + ARRAY + layout.suffix();
    String groupSuffix = "." + GROUP + layout.suffix();
    for (String name : store.listDir(layout.metaDir(p))) {
      String child;
      if (name.endsWith("/")) {
        child = name.substring(0, name.length() - 1);
      } else if (name.endsWith(arraySuffix)) {
        child = name.substring(0, name.length() - arraySuffix.length());
      } else if (name.endsWith(groupSuffix)) {
        child = name.substring(0, name.length() - groupSuffix.length());
      } else {
        continue;
      }
      // Without the root/ segment, the root's own documents sit beside its children.
      boolean rootItself = p.isEmpty() && !layout.withRootSegment() && child.equals("root") && !name.endsWith("/");
      String path = StoreKeys.join(p, child);
      if (!rootItself && !child.isEmpty() && !out.contains(path)) {
        out.add(path);
      }
    }
    return out;
  }
}
