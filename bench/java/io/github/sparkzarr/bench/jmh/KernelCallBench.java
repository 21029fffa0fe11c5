package io.github.sparkzarr.bench.jmh;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What calling a loop through a method handle in a non-final field costs (the connector's
 * {@code Kernels}, which keeps C2 from inlining its SIMD loops) against calling it directly: 1 MiB
 * of doubles added row by row into per-row sums, a map's row loop, rows of {@code n} elements.
 * The time per operation divided by {@code 2^17 / n} rows is the time per row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class KernelCallBench {
  private static final int ELEMENTS = 1 << 17;
  // Not final, as in Kernels: no constant to C2, so the call is never inlined.
  private static MethodHandle row;

  static {
    try {
      row = MethodHandles.lookup().findStatic(KernelCallBench.class, "addRow",
          MethodType.methodType(void.class, double[].class, int.class, int.class, double[].class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Param({"32", "128", "1024"})
  public int n;

  double[] values;
  double[] sums;

  @Setup
  public void setUp() {
    values = new double[ELEMENTS];
    for (int i = 0; i < ELEMENTS; i++) {
      values[i] = i % 1000 * 0.25;
    }
    sums = new double[n];
  }

  private static void addRow(double[] values, int from, int n, double[] sums) {
    for (int j = 0; j < n; j++) {
      sums[j] += values[from + j];
    }
  }

  @Benchmark
  public double[] direct() {
    for (int from = 0; from < ELEMENTS; from += n) {
      addRow(values, from, n, sums);
    }
    return sums;
  }

  @Benchmark
  public double[] throughHandle() throws Throwable {
    for (int from = 0; from < ELEMENTS; from += n) {
      row.invokeExact(values, from, n, sums);
    }
    return sums;
  }
}
