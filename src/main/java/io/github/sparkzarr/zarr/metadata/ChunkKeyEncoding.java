package io.github.sparkzarr.zarr.metadata;

/**
 * How chunk grid coordinates become store keys below the array: v2 style ("1.2", or "1/2") or v3
 * default style ("c/1/2", or "c.1.2").
 *
 * @param prefix "c" for v3 default encoding, "" for v2 encoding
 * @param separator '.' or '/'
 */
public record ChunkKeyEncoding(String prefix, char separator) {

  public ChunkKeyEncoding {
    if (separator != '.' && separator != '/') {
      throw new IllegalArgumentException("chunk key separator must be '.' or '/': " + separator);
    }
  }

  public static ChunkKeyEncoding v2(char separator) {
    return new ChunkKeyEncoding("", separator);
  }

  public static ChunkKeyEncoding v3Default(char separator) {
    return new ChunkKeyEncoding("c", separator);
  }

  /** The key of the chunk at grid coordinates {@code coords}, relative to the array. */
  public String key(long[] coords) {
    StringBuilder s = new StringBuilder(prefix);
    if (coords.length == 0) {
      return prefix.isEmpty() ? "0" : prefix;
    }
    for (int i = 0; i < coords.length; i++) {
      if (s.length() > 0) {
        s.append(separator);
      }
      s.append(coords[i]);
    }
    return s.toString();
  }
}
