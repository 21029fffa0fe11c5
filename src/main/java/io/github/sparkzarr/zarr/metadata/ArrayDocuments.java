package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrException;

/**
 * An array's metadata as the JSON documents of its own format and back: lets a driver ship
 * metadata it read once to executors (as text) whatever the format.
 */
public final class ArrayDocuments {
  private ArrayDocuments() {}

  /** The format's metadata document (for v3 it holds the attributes too). */
  public static ObjectNode metadata(ArrayMetadata md) {
    return switch (md.zarrFormat()) {
      case 1 -> V1Metadata.toMeta(md);
      case 2 -> V2Metadata.toZarray(md);
      case 3 -> V3Metadata.toJson(md);
      default -> throw new IllegalArgumentException("unknown zarr_format " + md.zarrFormat());
    };
  }

  /** Rebuilds the metadata from {@link #metadata} and the attributes. */
  public static ArrayMetadata read(int format, ObjectNode metadata, ObjectNode attributes,
      String location, String key) throws ZarrException {
    return switch (format) {
      case 1 -> V1Metadata.readArray(metadata, attributes, location, key);
      case 2 -> V2Metadata.readArray(metadata, attributes, location, key);
      case 3 -> V3Metadata.readArray(metadata, location, key);
      default -> throw new ZarrException(location, key, "unknown zarr_format " + format);
    };
  }
}
