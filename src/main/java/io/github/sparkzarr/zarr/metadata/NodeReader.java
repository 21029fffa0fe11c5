package io.github.sparkzarr.zarr.metadata;

import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy.NodeType;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/** One format's view of a hierarchy: which nodes exist and what their metadata says. */
public interface NodeReader {

  /** What node of this format is at {@code path} (normalized), or empty. */
  Optional<NodeType> nodeType(String path) throws IOException;

  /** The array at {@code path}; a ZarrException naming the store and key if there is none. */
  ZarrArray openArray(String path) throws IOException;

  /** The group at {@code path}; a ZarrException naming the store and key if there is none. */
  GroupMetadata openGroup(String path) throws IOException;

  /** Paths of the nodes of this format directly inside the group at {@code path}. */
  List<String> children(String path) throws IOException;

  /** True when metadata comes from a consolidated document. */
  boolean isConsolidated();
}
