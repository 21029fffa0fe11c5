package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;

/**
 * An array's metadata as the JSON documents of its own format and back: lets a driver ship
 * metadata it read once to executors (as text) whatever the format.
 */
public final class ArrayDocuments {
  private ArrayDocuments() {}

  /** The draft keeps chunks apart from metadata, so its document travels with their location. */
  private static final String DRAFT_ARRAY = "v3_draft_array";
  private static final String DRAFT_DATA_ROOT = "data_root";

  /**
   * The format's metadata document (for v3 it holds the attributes too; for the 2022 v3 draft,
   * whose chain is the v1/v2 pipeline, it is wrapped with the key directory of its chunks).
   */
  public static ObjectNode metadata(ArrayMetadata md) {
    return switch (md.zarrFormat()) {
      case 1 -> V1Metadata.toMeta(md);
      case 2 -> V2Metadata.toZarray(md);
      case 3 -> md.codec() instanceof V2ChunkCodec ? draft(md) : V3Metadata.toJson(md);
      default -> throw new IllegalArgumentException("unknown zarr_format " + md.zarrFormat());
    };
  }

  /** Rebuilds the metadata from {@link #metadata} and the attributes. */
  public static ArrayMetadata read(int format, ObjectNode metadata, ObjectNode attributes,
      String location, String key) throws ZarrException {
    return switch (format) {
      case 1 -> V1Metadata.readArray(metadata, attributes, location, key);
      case 2 -> V2Metadata.readArray(metadata, attributes, location, key);
      case 3 -> metadata.has(DRAFT_ARRAY)
          ? V3DraftMetadata.readArray((ObjectNode) metadata.get(DRAFT_ARRAY),
              metadata.path(DRAFT_DATA_ROOT).asText(), location, key)
          : V3Metadata.readArray(metadata, location, key);
      default -> throw new ZarrException(location, key, "unknown zarr_format " + format);
    };
  }

  private static ObjectNode draft(ArrayMetadata md) {
    ObjectNode wrapped = Json.object();
    wrapped.set(DRAFT_ARRAY, V3DraftMetadata.toJson(md));
    wrapped.put(DRAFT_DATA_ROOT, md.chunkKeyEncoding().root());
    return wrapped;
  }
}
