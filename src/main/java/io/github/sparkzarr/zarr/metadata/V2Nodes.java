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

/** Zarr v2 nodes: {@code .zarray}, {@code .zgroup}, {@code .zattrs}, consolidated {@code .zmetadata}. */
public final class V2Nodes implements NodeReader {
  private final Store store;
  private final MetadataDocuments documents;

  public V2Nodes(Store store) throws IOException {
    this.store = store;
    this.documents = MetadataDocuments.open(store);
  }

  @Override
  public boolean isConsolidated() {
    return documents.isConsolidated();
  }

  @Override
  public Optional<NodeType> nodeType(String p) throws IOException {
    if (documents.read(StoreKeys.join(p, V2Metadata.ARRAY_KEY)).isPresent()) {
      return Optional.of(NodeType.ARRAY);
    }
    if (documents.read(StoreKeys.join(p, V2Metadata.GROUP_KEY)).isPresent()) {
      return Optional.of(NodeType.GROUP);
    }
    return Optional.empty();
  }

  @Override
  public ZarrArray openArray(String p) throws IOException {
    String key = StoreKeys.join(p, V2Metadata.ARRAY_KEY);
    Optional<ObjectNode> zarray = documents.read(key);
    if (zarray.isEmpty()) {
      String what = documents.read(StoreKeys.join(p, V2Metadata.GROUP_KEY)).isPresent()
          ? "this is a group, not an array" : "no array here (no " + key + ")";
      throw new ZarrException(store.location(), key, what);
    }
    ArrayMetadata md = V2Metadata.readArray(zarray.get(), attributes(p), store.location(), key);
    return new ZarrArray(store, p, md);
  }

  @Override
  public GroupMetadata openGroup(String p) throws IOException {
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

  @Override
  public List<String> children(String p) throws IOException {
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
}
