package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.BytesCodec;

/**
 * A v3 bytes→bytes codec (gzip, zstd, blosc, crc32c): the same byte transformation as the
 * numcodecs codec it wraps, under its v3 name and configuration.
 *
 * @param configuration the v3 configuration as written back, or null for none
 */
public record BytesToBytesCodec(String name, JsonNode configuration, BytesCodec codec)
    implements V3Codec {

  @Override
  public ObjectNode toJson() {
    return V3Codec.entry(name, configuration);
  }
}
