package io.github.sparkzarr.spark.schema;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.ArrayDocuments;
import io.github.sparkzarr.zarr.store.Store;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * An array's path and metadata documents, small enough to ship to executors: they rebuild the
 * array from it without reading metadata again (the driver read it once).
 */
public final class ArraySpec implements Serializable {
  private final String path;
  private final int format;
  private final String document;
  private final String attributes;
  private transient ArrayMetadata metadata;

  public ArraySpec(ZarrArray array) {
    this.path = array.path();
    this.format = array.metadata().zarrFormat();
    this.document = text(ArrayDocuments.metadata(array.metadata()));
    this.attributes = text(array.metadata().attributes());
    this.metadata = array.metadata();
  }

  private static String text(ObjectNode node) {
    return new String(Json.write(node), StandardCharsets.UTF_8);
  }

  /** The array's path in the store ("" at the root). */
  public String path() {
    return path;
  }

  /** The last path segment, or "" for an array at the store root. */
  public String name() {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  public ArrayMetadata metadata() {
    if (metadata == null) {
      try {
        byte[] d = document.getBytes(StandardCharsets.UTF_8);
        byte[] a = attributes.getBytes(StandardCharsets.UTF_8);
        metadata = ArrayDocuments.read(format, Json.parseObject(d, "", path),
            Json.parseObject(a, "", path), "", path);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return metadata;
  }

  /** The array in {@code store}, built from the shipped metadata. */
  public ZarrArray open(Store store) {
    return new ZarrArray(store, path, metadata());
  }
}
