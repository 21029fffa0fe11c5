package io.github.sparkzarr.spark.write;

import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.metadata.V3Metadata;
import java.util.Comparator;

/**
 * What a store key holds, as far as the order of a publish cares, in any Zarr format (an
 * overwrite may replace a store of another format).
 */
enum KeyKind {
  /** v2 {@code .zmetadata}, or the root {@code zarr.json} (v3 keeps consolidated metadata there). */
  CONSOLIDATED,
  /** The document that makes a node exist: {@code .zarray}, {@code .zgroup}, {@code zarr.json}, v1 {@code meta}. */
  NODE,
  /** v2 {@code .zattrs}, v1 {@code attrs}. */
  ATTRIBUTES,
  CHUNK;

  static KeyKind of(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    if (name.equals(V2Metadata.CONSOLIDATED_KEY) || key.equals(V3Metadata.KEY)) {
      return CONSOLIDATED;
    }
    if (name.equals(V2Metadata.ARRAY_KEY) || name.equals(V2Metadata.GROUP_KEY)
        || name.equals(V3Metadata.KEY) || name.equals("meta")) {
      return NODE;
    }
    if (name.equals(V2Metadata.ATTRS_KEY) || name.equals("attrs")) {
      return ATTRIBUTES;
    }
    return CHUNK;
  }

  /**
   * Old keys leave in this order: what readers look at first goes first (consolidated metadata,
   * then each node's document), so no reader finds old metadata once a chunk has changed.
   */
  static final Comparator<String> MOVE_ASIDE_ORDER =
      Comparator.comparing(KeyKind::of).thenComparing(Comparator.naturalOrder());

  /**
   * New keys arrive in the opposite order: chunks, attributes, node documents (deepest first, so
   * a group appears with its arrays), consolidated metadata last.
   */
  static final Comparator<String> PUBLISH_ORDER =
      Comparator.comparing(KeyKind::of, Comparator.reverseOrder())
          .thenComparing(KeyKind::depth, Comparator.reverseOrder())
          .thenComparing(Comparator.naturalOrder());

  private static int depth(String key) {
    return (int) key.chars().filter(c -> c == '/').count();
  }
}
