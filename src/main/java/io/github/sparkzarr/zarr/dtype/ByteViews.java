package io.github.sparkzarr.zarr.dtype;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Views of a byte[] as 2-, 4- and 8-byte words in either byte order. Callers name one handle per
 * branch: the JIT compiles an access inline only through a constant handle.
 */
public final class ByteViews {
  public static final VarHandle SHORT_LE = view(short[].class, ByteOrder.LITTLE_ENDIAN);
  public static final VarHandle SHORT_BE = view(short[].class, ByteOrder.BIG_ENDIAN);
  public static final VarHandle INT_LE = view(int[].class, ByteOrder.LITTLE_ENDIAN);
  public static final VarHandle INT_BE = view(int[].class, ByteOrder.BIG_ENDIAN);
  public static final VarHandle LONG_LE = view(long[].class, ByteOrder.LITTLE_ENDIAN);
  public static final VarHandle LONG_BE = view(long[].class, ByteOrder.BIG_ENDIAN);

  private ByteViews() {}

  private static VarHandle view(Class<?> arrayType, ByteOrder order) {
    return MethodHandles.byteArrayViewVarHandle(arrayType, order);
  }
}
