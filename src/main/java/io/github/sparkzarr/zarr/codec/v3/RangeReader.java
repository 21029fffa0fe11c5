package io.github.sparkzarr.zarr.codec.v3;

import java.io.IOException;
import java.util.Optional;

/** Byte ranges of one stored value, so a codec can read part of it without knowing the store. */
public interface RangeReader {
  /** The value's size, or empty if it is absent. */
  Optional<Long> size() throws IOException;

  /** {@code length} bytes from {@code offset}, or empty if the value is absent. */
  Optional<byte[]> read(long offset, int length) throws IOException;
}
