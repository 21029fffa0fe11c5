package io.github.sparkzarr.zarr.codec;

import java.io.IOException;

/** Bytes to bytes: v2 compressors and checksums, v3 bytes-to-bytes codecs. */
public interface BytesCodec extends Codec {

  /**
   * Encodes {@code input}.
   *
   * @param itemSize the size of the elements the bytes hold (blosc's typesize), 1 if unknown
   */
  byte[] encode(byte[] input, int itemSize) throws IOException;

  /**
   * Decodes {@code input}.
   *
   * @param decodedSize the exact decoded length when the caller knows it, else -1. Codecs use it
   *     to size buffers and must fail, not allocate, when the data claims to decode to more (a
   *     decompression bomb) or to a different length.
   * @throws CodecException on corrupt, truncated or mismatching data
   */
  byte[] decode(byte[] input, int decodedSize) throws IOException;
}
