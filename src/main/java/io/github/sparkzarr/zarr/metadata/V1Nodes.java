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

/** Zarr v1 arrays: a directory with {@code meta} (and {@code attrs}). v1 has no groups. */
public final class V1Nodes implements NodeReader {
  private final Store store;

  public V1Nodes(Store store) {
    this.store = store;
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
    return store.exists(StoreKeys.join(p, V1Metadata.META_KEY)) ? Optional.of(NodeType.ARRAY) : Optional.empty();
  }

  @Override
  public ZarrArray openArray(String p) throws IOException {
    String key = StoreKeys.join(p, V1Metadata.META_KEY);
    Optional<ObjectNode> meta = read(key);
    if (meta.isEmpty()) {
      throw new ZarrException(store.location(), key, "no v1 array here (no " + key + ")");
    }
    ObjectNode attrs = read(StoreKeys.join(p, V1Metadata.ATTRS_KEY)).orElseGet(Json::object);
    return new ZarrArray(store, p, V1Metadata.readArray(meta.get(), attrs, store.location(), key));
  }

  @Override
  public GroupMetadata openGroup(String p) throws IOException {
    throw new ZarrException(store.location(), StoreKeys.join(p, V1Metadata.META_KEY), "Zarr v1 has no groups");
  }

  @Override
  public List<String> children(String p) throws IOException {
    List<String> out = new ArrayList<>();
    for (String name : store.listDir(StoreKeys.dir(p))) {
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
