package io.github.sparkzarr.zarr.codec;

/**
 * Whether SIMD code written with the Vector API (the JDK's incubator module, which Spark 4 adds to
 * its JVMs) may be used: the module is in the boot layer and {@code -Dsparkzarr.noVector=true} is
 * not set. Classes that use the API are loaded only when this says yes.
 */
public final class VectorApi {
  private VectorApi() {}

  public static boolean enabled() {
    return !Boolean.getBoolean("sparkzarr.noVector")
        && ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();
  }

  /**
   * A new instance of {@code className}, a SIMD implementation of {@code type}, when {@link
   * #enabled}; else (or if it cannot be loaded here) {@code fallback}, which must give the same
   * results.
   */
  public static <T> T choose(Class<T> type, String className, T fallback) {
    if (enabled()) {
      try {
        var constructor = Class.forName(className).getDeclaredConstructor();
        constructor.setAccessible(true); // package-private classes of other packages
        return type.cast(constructor.newInstance());
      } catch (ReflectiveOperationException | LinkageError e) {
        // The module is there but unusable here: the fallback gives the same results.
      }
    }
    return fallback;
  }
}
