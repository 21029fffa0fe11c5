package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** A group's metadata: its format and user attributes. */
public record GroupMetadata(int zarrFormat, ObjectNode attributes) {}
