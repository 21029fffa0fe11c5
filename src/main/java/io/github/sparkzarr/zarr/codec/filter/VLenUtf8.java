package io.github.sparkzarr.zarr.codec.filter;

import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** numcodecs VLenUTF8: String elements as strict UTF-8 (null is stored as ""). */
public final class VLenUtf8 extends VLenCodec {
  public static final String ID = "vlen-utf8";

  @Override
  public String id() {
    return ID;
  }

  @Override
  DataType.Kind elementKind() {
    return DataType.Kind.STRING;
  }

  @Override
  byte[] toBytes(Object element) throws CodecException {
    if (element == null) {
      return new byte[0];
    }
    if (!(element instanceof String s)) {
      throw new CodecException("codec 'vlen-utf8' expects String elements, got " + element.getClass());
    }
    try {
      ByteBuffer b =
          StandardCharsets.UTF_8.newEncoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .encode(CharBuffer.wrap(s));
      byte[] out = new byte[b.remaining()];
      b.get(out);
      return out;
    } catch (CharacterCodingException e) {
      throw new CodecException("codec 'vlen-utf8': string has an unpaired surrogate", e);
    }
  }

  @Override
  Object fromBytes(byte[] data, int offset, int length) throws CodecException {
    return Utf8.decode(data, offset, length, "codec 'vlen-utf8'");
  }
}
