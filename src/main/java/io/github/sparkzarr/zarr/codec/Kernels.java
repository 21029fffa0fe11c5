package io.github.sparkzarr.zarr.codec;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Method handles through which SIMD loops are called so that C2 compiles each loop on its own.
 *
 * <p>C2 inlines a small method into its hot callers. A loop of Vector API calls inlined into a
 * large caller can take that compilation past C2's inlining budget; the calls it then leaves out
 * keep their vectors as heap objects, allocated on every step, and the query runs several times
 * slower. Whether that happens depended on which method C2 compiled first, so it changed from run
 * to run (docs/benchmarks.md, sessions 41–44). A method handle held in a field that is not final
 * is no constant to C2, so it cannot inline the call: the loop becomes a compilation of its own,
 * with a budget of its own. A call costs a few nanoseconds; the loops called this way each take a
 * run of elements.
 */
public final class Kernels {
  private Kernels() {}

  /**
   * The handle of the one static method named {@code name} of {@code lookup}'s class, which
   * callers must invoke with {@code invokeExact} and its exact parameter and return types.
   */
  public static MethodHandle find(MethodHandles.Lookup lookup, String name) {
    Method found = null;
    for (Method m : lookup.lookupClass().getDeclaredMethods()) {
      if (m.getName().equals(name) && Modifier.isStatic(m.getModifiers())) {
        if (found != null) {
          throw new IllegalStateException("two static methods " + name + " in " + lookup.lookupClass());
        }
        found = m;
      }
    }
    if (found == null) {
      throw new IllegalStateException("no static method " + name + " in " + lookup.lookupClass());
    }
    try {
      return lookup.unreflect(found);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * What a loop threw, for its caller to throw: a loop throws no checked exception, so anything
   * else is wrapped.
   */
  public static RuntimeException unchecked(Throwable t) {
    if (t instanceof Error e) {
      throw e;
    }
    return t instanceof RuntimeException r ? r : new IllegalStateException(t);
  }
}
