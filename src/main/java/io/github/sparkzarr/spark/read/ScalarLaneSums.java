package io.github.sparkzarr.spark.read;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** {@link LaneSums} in plain Java, for JVMs without the Vector API. */
final class ScalarLaneSums implements LaneSums {
  private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

  @Override
  public void addFloats(byte[] b, int offset, int n, double[] sums, int at) {
    double[] s = load(sums, at);
    for (int j = 0; j < n; j++) {
      s[j & (LANES - 1)] += (float) FLOAT.get(b, offset + 4 * j);
    }
    System.arraycopy(s, 0, sums, at, LANES);
  }

  @Override
  public void addDoubles(byte[] b, int offset, int n, double[] sums, int at) {
    double[] s = load(sums, at);
    for (int j = 0; j < n; j++) {
      s[j & (LANES - 1)] += (double) DOUBLE.get(b, offset + 8 * j);
    }
    System.arraycopy(s, 0, sums, at, LANES);
  }

  @Override
  public void addShuffledFloats(byte[] b, int offset, int plane, int n, double[] sums, int at) {
    double[] s = load(sums, at);
    for (int j = 0; j < n; j++) {
      int p = offset + j;
      s[j & (LANES - 1)] += Float.intBitsToFloat((b[p] & 0xFF) | (b[p + plane] & 0xFF) << 8
          | (b[p + 2 * plane] & 0xFF) << 16 | b[p + 3 * plane] << 24);
    }
    System.arraycopy(s, 0, sums, at, LANES);
  }

  @Override
  public void addShuffledDoubles(byte[] b, int offset, int plane, int n, double[] sums, int at) {
    double[] s = load(sums, at);
    for (int j = 0; j < n; j++) {
      long bits = 0;
      for (int k = 0; k < 8; k++) {
        bits |= (b[offset + k * plane + j] & 0xFFL) << (8 * k);
      }
      s[j & (LANES - 1)] += Double.longBitsToDouble(bits);
    }
    System.arraycopy(s, 0, sums, at, LANES);
  }

  private static double[] load(double[] sums, int at) {
    double[] s = new double[LANES];
    System.arraycopy(sums, at, s, 0, LANES);
    return s;
  }
}
