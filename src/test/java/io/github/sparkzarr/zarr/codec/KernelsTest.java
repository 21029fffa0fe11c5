package io.github.sparkzarr.zarr.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import org.junit.jupiter.api.Test;

class KernelsTest {
  private static int twice(int x) {
    return 2 * x;
  }

  private static void overloaded(int x) {
  }

  private static void overloaded(long x) {
  }

  @Test
  void findsThePrivateStaticMethodOfItsName() throws Throwable {
    MethodHandle twice = Kernels.find(MethodHandles.lookup(), "twice");
    assertEquals(42, (int) twice.invokeExact(21));
  }

  @Test
  void aMissingOrOverloadedNameIsAnError() {
    IllegalStateException missing =
        assertThrows(IllegalStateException.class, () -> Kernels.find(MethodHandles.lookup(), "thrice"));
    assertTrue(missing.getMessage().contains("no static method thrice"), missing.getMessage());
    IllegalStateException two =
        assertThrows(IllegalStateException.class, () -> Kernels.find(MethodHandles.lookup(), "overloaded"));
    assertTrue(two.getMessage().contains("two static methods overloaded"), two.getMessage());
  }

  @Test
  void uncheckedKeepsRuntimeExceptionsRethrowsErrorsAndWrapsTheRest() {
    IllegalArgumentException runtime = new IllegalArgumentException("bad layout");
    assertSame(runtime, Kernels.unchecked(runtime));
    OutOfMemoryError error = new OutOfMemoryError();
    assertSame(error, assertThrows(OutOfMemoryError.class, () -> Kernels.unchecked(error)));
    IOException checked = new IOException("read");
    assertSame(checked, Kernels.unchecked(checked).getCause());
  }
}
