package io.github.sparkzarr.zarr;

import java.io.IOException;

/**
 * A problem with a Zarr store: bad metadata, a corrupt chunk, an unsupported feature.
 * The message always names the store, the key and what is wrong, so users can find the culprit.
 */
public class ZarrException extends IOException {
  private final String location;
  private final String key;

  public ZarrException(String location, String key, String problem) {
    this(location, key, problem, null);
  }

  public ZarrException(String location, String key, String problem, Throwable cause) {
    super(format(location, key, problem), cause);
    this.location = location;
    this.key = key;
  }

  private static String format(String location, String key, String problem) {
    return "Zarr store " + location + ", key '" + (key == null ? "" : key) + "': " + problem;
  }

  /** The store's location, without credentials. */
  public String location() {
    return location;
  }

  /** The key the problem was found at ("" for the store root). */
  public String key() {
    return key;
  }
}
