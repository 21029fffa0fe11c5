package io.github.sparkzarr.spark.read;

import java.lang.management.ManagementFactory;
import java.util.Locale;

/**
 * Whether the float sum kernel allocates (its vectors left as heap objects) when its first calls
 * each take a whole chunk, so that its loop is compiled on stack replacement before the method is:
 * {@code KernelOsrProbe [ELEMENTS] [CALLS]}. Prints the bytes allocated and the time per call.
 */
public final class KernelOsrProbe {
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 262_144;
    int calls = args.length > 1 ? Integer.parseInt(args[1]) : 3000;
    byte[] b = new byte[4 * n];
    java.util.Random r = new java.util.Random(1);
    for (int i = 0; i < n; i++) {
      int bits = Float.floatToIntBits(r.nextFloat());
      b[4 * i] = (byte) bits;
      b[4 * i + 1] = (byte) (bits >> 8);
      b[4 * i + 2] = (byte) (bits >> 16);
      b[4 * i + 3] = (byte) (bits >> 24);
    }
    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long me = Thread.currentThread().getId();
    VectorLaneSums sums = new VectorLaneSums();
    double[] acc = new double[8];
    long a0 = threads.getThreadAllocatedBytes(me);
    long t0 = System.nanoTime();
    int last = 0;
    for (int c = 1; c <= calls; c++) {
      sums.addFloats(b, 0, n, acc, 0);
      if (c == 1 || c == 10 || c == 100 || c % 500 == 0) {
        long a1 = threads.getThreadAllocatedBytes(me);
        long t1 = System.nanoTime();
        int k = c - last;
        System.out.printf(Locale.ROOT, "calls to %5d: %10.0f bytes/call %8.1f us/call%n", c, (a1 - a0) / 1.0 / k,
            (t1 - t0) / 1e3 / k);
        a0 = a1;
        t0 = t1;
        last = c;
      }
    }
    System.out.println("sum " + (acc[0] + acc[7]));
  }

  private KernelOsrProbe() {}
}
