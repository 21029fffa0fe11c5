package io.github.sparkzarr.zarr.codec;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A numcodecs-style codec: either a {@link BytesCodec} (compressors, checksums) or an {@link
 * ArrayFilter} (filters and object codecs). Instances are immutable and thread-safe.
 */
public interface Codec {
  /** The numcodecs id, such as "blosc" or "delta". */
  String id();

  /** The configuration as numcodecs writes it in v2 metadata, including "id". */
  ObjectNode toConfig();
}
