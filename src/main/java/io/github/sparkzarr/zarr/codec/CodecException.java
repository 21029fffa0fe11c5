package io.github.sparkzarr.zarr.codec;

import java.io.IOException;

/**
 * A codec could not encode or decode its input (corrupt or truncated data, bad configuration).
 * Codecs do not know which store or key they work on; the array layer wraps this exception into a
 * {@link io.github.sparkzarr.zarr.ZarrException} that names them.
 */
public class CodecException extends IOException {
  public CodecException(String message) {
    super(message);
  }

  public CodecException(String message, Throwable cause) {
    super(message, cause);
  }
}
