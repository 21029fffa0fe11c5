package io.github.sparkzarr.zarr.store;

/**
 * Validation and joining of store keys, done once here so that no other class has to trust a key
 * that came from metadata or options.
 */
public final class StoreKeys {
  private StoreKeys() {}

  /**
   * Checks that {@code key} is relative, has no empty, '.' or '..' segments, and uses only
   * printable characters. Returns the key.
   */
  public static String validate(String key) {
    if (key == null) {
      throw new IllegalArgumentException("store key is null");
    }
    if (key.isEmpty()) {
      return key;
    }
    if (key.startsWith("/")) {
      throw new IllegalArgumentException("store key '" + key + "' is absolute");
    }
    if (key.indexOf('\\') >= 0) {
      throw new IllegalArgumentException("store key '" + key + "' contains a backslash");
    }
    String body = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
    for (String segment : body.split("/", -1)) {
      if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException(
            "store key '" + key + "' has an empty, '.' or '..' segment");
      }
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        throw new IllegalArgumentException("store key '" + key + "' contains a control character");
      }
    }
    return key;
  }

  /** Joins a node path ("" for the root, "a/b" otherwise) and a key below it. */
  public static String join(String path, String key) {
    if (path == null || path.isEmpty()) {
      return key;
    }
    if (key.isEmpty()) {
      return path;
    }
    return path.endsWith("/") ? path + key : path + "/" + key;
  }

  /**
   * Normalizes a logical node path as the v2 spec says: '\\' becomes '/', leading and trailing
   * slashes and repeated slashes are dropped; '.' and '..' segments are an error.
   */
  public static String normalizePath(String path) {
    if (path == null) {
      return "";
    }
    String p = path.replace('\\', '/');
    StringBuilder out = new StringBuilder();
    for (String segment : p.split("/")) {
      if (segment.isEmpty()) {
        continue;
      }
      if (segment.equals(".") || segment.equals("..")) {
        throw new IllegalArgumentException("path '" + path + "' has a '.' or '..' segment");
      }
      if (out.length() > 0) {
        out.append('/');
      }
      out.append(segment);
    }
    return validate(out.toString());
  }

  /** The directory form of a node path: "" for the root, "a/b/" otherwise. */
  public static String dir(String path) {
    return path.isEmpty() || path.endsWith("/") ? path : path + "/";
  }
}
