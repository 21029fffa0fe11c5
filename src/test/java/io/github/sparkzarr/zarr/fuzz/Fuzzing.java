package io.github.sparkzarr.zarr.fuzz;

import java.io.IOException;

/**
 * The fuzzing invariant: a reader given any bytes either succeeds or throws one of its documented
 * exceptions (ZarrException and CodecException are IOExceptions). Anything else escaping, an
 * OutOfMemoryError or a hang is a finding that Jazzer reports.
 */
final class Fuzzing {
  private Fuzzing() {}

  interface Action {
    void run() throws IOException;
  }

  static void onlyDocumentedFailures(Action action) {
    try {
      action.run();
    } catch (IOException expected) {
      // ZarrException, CodecException or a store's IOException: the documented answer to bad bytes.
    }
  }
}
