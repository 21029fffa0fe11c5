package io.github.sparkzarr.zarr.codec.filter;

import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;
import java.nio.ByteOrder;

/** numpy fixed-width unicode ('U') elements: UCS-4 code points, NUL padded, in the dtype's order. */
final class UnicodeText {
  private UnicodeText() {}

  /** The strings in {@code bytes} (viewed as {@code type}), without the trailing NULs numpy ignores. */
  static String[] read(DataType type, byte[] bytes) throws CodecException {
    if (bytes.length % type.size() != 0) {
      throw new CodecException(bytes.length + " bytes are not whole " + FilterConfig.text(type) + " elements");
    }
    NumericArray units = NumericArray.wrap(codeUnitType(type), bytes);
    int width = type.size() / 4;
    String[] out = new String[bytes.length / type.size()];
    for (int i = 0; i < out.length; i++) {
      int end = width;
      while (end > 0 && units.getLong(i * width + end - 1) == 0) {
        end--;
      }
      StringBuilder s = new StringBuilder(end);
      for (int k = 0; k < end; k++) {
        long cp = units.getLong(i * width + k);
        if (cp > Character.MAX_CODE_POINT) {
          throw new CodecException("invalid code point " + cp + " in a unicode element");
        }
        s.appendCodePoint((int) cp);
      }
      out[i] = s.toString();
    }
    return out;
  }

  /** The strings as {@code type} elements, each cut to the width as numpy's assignment does. */
  static byte[] write(DataType type, String[] values) {
    int width = type.size() / 4;
    NumericArray units = NumericArray.allocate(codeUnitType(type), values.length * width);
    for (int i = 0; i < values.length; i++) {
      int[] cps = values[i].codePoints().limit(width).toArray();
      for (int k = 0; k < cps.length; k++) {
        units.setLong(i * width + k, cps[k]);
      }
    }
    return units.bytes();
  }

  private static DataType codeUnitType(DataType type) {
    ByteOrder order = type.order() == null ? ByteOrder.LITTLE_ENDIAN : type.order();
    return DataType.numeric(DataType.Kind.UINT, 4, order);
  }
}
