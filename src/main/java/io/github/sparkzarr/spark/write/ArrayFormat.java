package io.github.sparkzarr.spark.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.store.Store;
import java.io.IOException;
import java.util.List;

/**
 * The one place a write depends on the Zarr format: building array metadata and writing the
 * metadata documents. Everything else (chunk assembly, staging, commit) is format-independent.
 */
public interface ArrayFormat {

  /** The format of {@code zarrFormat} (2 or 3), unsharded. */
  static ArrayFormat of(int zarrFormat) {
    return of(zarrFormat, null);
  }

  /**
   * The format of {@code zarrFormat}; with {@code innerChunks}, v3 arrays are sharded: their
   * chunk grid is the shard grid and {@code innerChunks} the chunk shape inside a shard.
   */
  static ArrayFormat of(int zarrFormat, int[] innerChunks) {
    if (zarrFormat == 3) {
      return new V3ArrayFormat(innerChunks);
    }
    if (innerChunks != null) {
      throw new IllegalArgumentException("sharding (option 'shards') needs zarr_format 3");
    }
    if (zarrFormat == 2) {
      return new V2ArrayFormat();
    }
    throw new IllegalArgumentException("Zarr format " + zarrFormat + " cannot be written by Spark; use 2 or 3");
  }

  int version();

  /**
   * The metadata of a new array.
   *
   * @param compressor a numcodecs compressor configuration, or null for none
   * @param filters numcodecs filter configurations applied before the compressor (v3: numcodecs.*
   *     codecs before "bytes"), empty for none
   * @param fill the fill value as JSON (null node for none)
   */
  ArrayMetadata newArray(long[] shape, int[] chunks, DataType type, JsonNode fill,
      ObjectNode compressor, List<ObjectNode> filters, List<String> dimensions, ObjectNode attributes);

  /** Writes the metadata documents of an array (replacing any). */
  void writeArray(Store store, String path, ArrayMetadata md) throws IOException;

  /** Writes the metadata document of a group (replacing any). */
  void writeGroup(Store store, String path, ObjectNode attributes) throws IOException;

  /** Writes what readers look at first after every node is written (v2: `.zmetadata`). */
  void consolidate(Store store) throws IOException;

  /** Whether {@code key} (a store key) is a metadata document of this format. */
  boolean isMetadataKey(String key);
}
