package io.github.sparkzarr.zarr.codec.filter;

import io.github.sparkzarr.zarr.codec.CodecException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Strict UTF-8 decoding, failing like Python's instead of inserting replacement characters. */
final class Utf8 {
  private Utf8() {}

  static String decode(byte[] data, int offset, int length, String who) throws CodecException {
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(data, offset, length))
          .toString();
    } catch (CharacterCodingException e) {
      throw new CodecException(who + ": invalid UTF-8", e);
    }
  }
}
