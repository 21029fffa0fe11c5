package io.github.sparkzarr.zarr.codec.blosc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian int and long access to byte arrays (blosc stores every integer this way). */
final class LittleEndian {
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private LittleEndian() {}

  static int readInt(byte[] b, int off) {
    return (int) INT.get(b, off);
  }

  static void writeInt(byte[] b, int off, int v) {
    INT.set(b, off, v);
  }

  static long readLong(byte[] b, int off) {
    return (long) LONG.get(b, off);
  }

  static void writeLong(byte[] b, int off, long v) {
    LONG.set(b, off, v);
  }
}
