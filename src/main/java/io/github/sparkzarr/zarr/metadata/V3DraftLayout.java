package io.github.sparkzarr.zarr.metadata;

import io.github.sparkzarr.zarr.store.Store;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;

/**
 * Where the 2022 v3 draft keeps a node's metadata and chunks. zarr-python 2.13 (and the draft it
 * follows) puts every node below a {@code root/} segment: {@code meta/root/a/b.array.json},
 * chunks under {@code data/root/a/b/}; a later text of the draft dropped that segment
 * ({@code meta/a/b.array.json}, {@code data/a/b/}). In both, the root node's documents are
 * {@code meta/root.group.json} / {@code meta/root.array.json}.
 *
 * @param withRootSegment true for the {@code meta/root/...} layout zarr-python 2.13 writes
 * @param suffix the entry point's metadata_key_suffix (".json")
 */
public record V3DraftLayout(boolean withRootSegment, String suffix) {

  public static final String META = "meta/";
  public static final String DATA = "data/";

  /**
   * The layout of an existing store: the {@code root/} segment when {@code meta/root/} or {@code
   * data/root/} holds anything (a store without the segment whose top-level node is named "root"
   * is indistinguishable and read with it).
   */
  public static V3DraftLayout of(Store store, String suffix) throws IOException {
    boolean withRoot = store.listDir(META).contains("root/") || store.listDir(DATA).contains("root/");
    boolean without = !withRoot && (hasNodes(store) || !store.listDir(DATA).isEmpty());
    return new V3DraftLayout(!without, suffix);
  }

  /** True when {@code meta/} holds documents or directories other than the root's own. */
  private static boolean hasNodes(Store store) throws IOException {
    for (String name : store.listDir(META)) {
      if (!name.startsWith("root.")) {
        return true;
      }
    }
    return false;
  }

  /** The key of the node's document, {@code kind} being "array" or "group". */
  public String metaKey(String path, String kind) {
    String name = "." + kind + suffix;
    if (path.isEmpty()) {
      return META + "root" + name;
    }
    return META + (withRootSegment ? "root/" : "") + path + name;
  }

  /** The directory ("meta/root/a/") holding the documents of the node's children. */
  public String metaDir(String path) {
    return META + (withRootSegment ? "root/" : "") + StoreKeys.dir(path);
  }

  /** The key directory holding the chunks of the array at {@code path}. */
  public String dataRoot(String path) {
    String base = withRootSegment ? DATA + "root" : "data";
    return StoreKeys.join(base, path);
  }
}
