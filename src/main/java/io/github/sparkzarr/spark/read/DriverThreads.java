package io.github.sparkzarr.spark.read;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * Runs a few independent pieces of work on the driver's cores, for an answer Spark is waiting
 * for while it plans: in local mode the driver's cores are the ones tasks would run on.
 */
final class DriverThreads {
  private DriverThreads() {
  }

  /** {@code work(0) ... work(n - 1)}, on up to as many threads as cores, in order of i. */
  static <T> List<T> map(int n, IntFunction<T> work) {
    int threads = Math.min(n, Runtime.getRuntime().availableProcessors());
    List<T> out = new ArrayList<>(n);
    if (threads <= 1) {
      for (int i = 0; i < n; i++) {
        out.add(work.apply(i));
      }
      return out;
    }
    List<Future<T>> pending = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      int piece = i;
      pending.add(POOL.submit(() -> work.apply(piece)));
    }
    try {
      for (Future<T> f : pending) {
        out.add(result(f));
      }
      return out;
    } finally {
      pending.forEach(f -> f.cancel(true));
    }
  }

  /**
   * Kept from query to query, so that each thread's decoding state (zstd contexts, read buffers)
   * is reused as a task thread's is; daemon threads, idle between queries.
   */
  private static final ExecutorService POOL = Executors.newFixedThreadPool(
      Runtime.getRuntime().availableProcessors(), r -> {
        // Not inheriting the first caller's thread-locals (its Spark session among them).
        Thread t = new Thread(null, r, "zarr-driver-read", 0, false);
        t.setDaemon(true);
        return t;
      });

  /** The piece's result, or the exception it threw as it threw it (it names the store and key). */
  private static <T> T result(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading on the driver", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
