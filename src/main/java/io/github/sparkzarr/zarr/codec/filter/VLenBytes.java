package io.github.sparkzarr.zarr.codec.filter;

import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.util.Arrays;

/** numcodecs VLenBytes: byte[] elements as they are (null is stored as empty). */
public final class VLenBytes extends VLenCodec {
  public static final String ID = "vlen-bytes";

  @Override
  public String id() {
    return ID;
  }

  @Override
  DataType.Kind elementKind() {
    return DataType.Kind.VLEN_BYTES;
  }

  @Override
  byte[] toBytes(Object element) throws CodecException {
    if (element == null) {
      return new byte[0];
    }
    if (!(element instanceof byte[] b)) {
      throw new CodecException("codec 'vlen-bytes' expects byte[] elements, got " + element.getClass());
    }
    return b;
  }

  @Override
  Object fromBytes(byte[] data, int offset, int length) {
    return Arrays.copyOfRange(data, offset, offset + length);
  }
}
