package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A codec of a Zarr v3 chain, which writes itself back as {@code {"name", "configuration"}}. */
public interface V3Codec {
  String name();

  /** The codec's entry in a v3 "codecs" list. */
  ObjectNode toJson();
}
