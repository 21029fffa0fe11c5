package io.github.sparkzarr.zarr;

import java.util.Locale;

/** The Zarr formats this library reads and writes. */
public enum ZarrFormat {
  /** Zarr storage specification version 1 ({@code meta}, {@code attrs}). */
  V1,
  /** Zarr v2 ({@code .zarray}, {@code .zgroup}, {@code .zattrs}, {@code .zmetadata}). */
  V2,
  /** Zarr v3, the final specification ({@code zarr.json} per node). */
  V3;

  /**
   * Parses an option value: "1", "2", "3" (or "v1", "v2", "v3"), case-insensitive;
   * "auto" or null gives null (detect per node).
   */
  public static ZarrFormat parse(String value) {
    if (value == null) {
      return null;
    }
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "auto", "" -> null;
      case "1", "v1" -> V1;
      case "2", "v2" -> V2;
      case "3", "v3" -> V3;
      default -> throw new IllegalArgumentException(
          "unknown zarr_format '" + value + "' (use 1, 2, 3 or auto)");
    };
  }
}
