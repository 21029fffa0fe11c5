package io.github.sparkzarr.spark.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.store.Store;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Zarr v2: `.zarray`/`.zgroup`/`.zattrs`, object arrays through vlen codecs, `.zmetadata`. */
final class V2ArrayFormat implements ArrayFormat {

  @Override
  public int version() {
    return 2;
  }

  @Override
  public ArrayMetadata newArray(long[] shape, int[] chunks, DataType type, JsonNode fill,
      ObjectNode compressor, List<ObjectNode> filterConfigs, List<String> dimensions, ObjectNode attributes) {
    try {
      List<ArrayFilter> filters = new ArrayList<>();
      switch (type.kind()) {
        case STRING -> filters.add((ArrayFilter) CodecRegistry.fromConfig(Json.object().put("id", "vlen-utf8")));
        case VLEN_BYTES -> filters.add((ArrayFilter) CodecRegistry.fromConfig(Json.object().put("id", "vlen-bytes")));
        default -> {
          for (ObjectNode f : filterConfigs) {
            filters.add((ArrayFilter) CodecRegistry.fromConfig(f));
          }
        }
      }
      BytesCodec c = compressor == null ? null : (BytesCodec) CodecRegistry.fromConfig(compressor);
      V2ChunkCodec codec = new V2ChunkCodec(type, false, filters, c);
      return new ArrayMetadata(2, shape, chunks, type, FillValue.parseV2(fill, type), codec,
          ChunkKeyEncoding.v2('.'), dimensions, attributes == null ? Json.object() : attributes);
    } catch (CodecException e) {
      throw new IllegalArgumentException("cannot build the codecs of a " + type + " array: "
          + e.getMessage(), e);
    }
  }

  @Override
  public void writeArray(Store store, String path, ArrayMetadata md) throws IOException {
    ZarrHierarchy.writeArrayV2(store, path, md);
  }

  @Override
  public void writeGroup(Store store, String path, ObjectNode attributes) throws IOException {
    ZarrHierarchy.writeGroupV2(store, path, attributes);
  }

  @Override
  public void consolidate(Store store) throws IOException {
    ZarrHierarchy.consolidateV2(store);
  }

  @Override
  public boolean isMetadataKey(String key) {
    String name = key.substring(key.lastIndexOf('/') + 1);
    return name.equals(V2Metadata.ARRAY_KEY) || name.equals(V2Metadata.GROUP_KEY)
        || name.equals(V2Metadata.ATTRS_KEY) || name.equals(V2Metadata.CONSOLIDATED_KEY);
  }
}
