package io.github.sparkzarr.zarr.metadata;

import io.github.sparkzarr.zarr.store.StoreKeys;

/**
 * How chunk grid coordinates become store keys: v2 style ("1.2", or "1/2"), v3 default style
 * ("c/1/2", or "c.1.2"), or the 2022 v3 draft's ("c1/2", below a data directory of its own).
 *
 * @param prefix "c" for v3 default and draft encodings, "" for v2 encoding
 * @param separator '.' or '/'
 * @param gluedPrefix true when the first coordinate follows the prefix directly ("c1/2", the
 *     draft, where a 0-d array's one chunk is "c0"), false for "c/1/2"
 * @param root the key directory chunks live in, or null for the array's own path (the draft
 *     keeps chunks under {@code data/root/<path>}, apart from the metadata)
 */
public record ChunkKeyEncoding(String prefix, char separator, boolean gluedPrefix, String root) {

  public ChunkKeyEncoding {
    if (separator != '.' && separator != '/') {
      throw new IllegalArgumentException("chunk key separator must be '.' or '/': " + separator);
    }
    root = root == null ? null : StoreKeys.normalizePath(root);
  }

  /** Chunk keys below the array's own path. */
  public ChunkKeyEncoding(String prefix, char separator) {
    this(prefix, separator, false, null);
  }

  public static ChunkKeyEncoding v2(char separator) {
    return new ChunkKeyEncoding("", separator);
  }

  public static ChunkKeyEncoding v3Default(char separator) {
    return new ChunkKeyEncoding("c", separator);
  }

  /** The 2022 v3 draft: keys "c0/1" (or "c0.1") below {@code root}, e.g. "data/root/a/b". */
  public static ChunkKeyEncoding v3Draft(char separator, String root) {
    return new ChunkKeyEncoding("c", separator, true, root);
  }

  /** The key of the chunk at grid coordinates {@code coords}, relative to the chunk directory. */
  public String key(long[] coords) {
    if (gluedPrefix) {
      return prefix + (coords.length == 0 ? "0" : join(coords));
    }
    if (coords.length == 0) {
      return prefix.isEmpty() ? "0" : prefix;
    }
    return prefix.isEmpty() ? join(coords) : prefix + separator + join(coords);
  }

  private String join(long[] coords) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < coords.length; i++) {
      if (i > 0) {
        s.append(separator);
      }
      s.append(coords[i]);
    }
    return s.toString();
  }

  /** The store key of the chunk at {@code coords} of the array at {@code arrayPath}. */
  public String storeKey(String arrayPath, long[] coords) {
    return StoreKeys.join(root == null ? arrayPath : root, key(coords));
  }
}
