package io.github.sparkzarr.zarr;

import java.util.Locale;

/** The Zarr formats this library reads and writes. */
public enum ZarrFormat {
  /** Zarr storage specification version 1 ({@code meta}, {@code attrs}). */
  V1,
  /** Zarr v2 ({@code .zarray}, {@code .zgroup}, {@code .zattrs}, {@code .zmetadata}). */
  V2,
  /** Zarr v3, the final specification ({@code zarr.json} per node). */
  V3,
  /**
   * The 2022 v3 editor's draft as zarr-python 2.13 writes it: a {@code zarr.json} entry point,
   * {@code meta/root/<path>.array.json} / {@code .group.json}, chunks under {@code data/root/}.
   */
  V3_DRAFT;

  /**
   * Parses an option value: "1", "2", "3" (or "v1", "v2", "v3"), "3draft" (or "v3-draft",
   * "v3_draft", "v3draft", "3-draft"), case-insensitive;
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
      case "3draft", "3-draft", "v3draft", "v3-draft", "v3_draft" -> V3_DRAFT;
      default -> throw new IllegalArgumentException(
          "unknown zarr_format '" + value + "' (use 1, 2, 3, 3draft or auto)");
    };
  }
}
