package io.github.sparkzarr.zarr.store;

import io.github.sparkzarr.zarr.ZarrException;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.AccessControlException;

/**
 * Bounded retries of one store read: object stores fail transiently (throttling, resets), and one
 * such failure should not fail a whole Spark task. Only failures that may pass are retried; an
 * absent key, a range past the end, a refused permission, an interrupt or a problem with the data
 * is answered at once. After the last attempt the failure names the store and key.
 *
 * <p>Hadoop settings (also read options, as every {@code fs.*} option is): {@value #ATTEMPTS}
 * (default 3, 1 disables retries) and {@value #BACKOFF_MS} (default 100; doubled per retry).
 */
final class ReadRetry {
  static final String ATTEMPTS = "fs.zarr.read.attempts";
  static final String BACKOFF_MS = "fs.zarr.read.backoff.ms";

  interface Read<T> {
    T run() throws IOException;
  }

  private final int attempts;
  private final long backoffMs;

  ReadRetry(Configuration conf) {
    this.attempts = conf.getInt(ATTEMPTS, 3);
    this.backoffMs = conf.getLong(BACKOFF_MS, 100);
    if (attempts < 1 || backoffMs < 0) {
      throw new IllegalArgumentException(ATTEMPTS + " must be at least 1 and " + BACKOFF_MS
          + " at least 0, got " + attempts + " and " + backoffMs);
    }
  }

  <T> T run(String location, String key, Read<T> read) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        return read.run();
      } catch (IOException e) {
        if (!transientFailure(e)) {
          throw e;
        }
        if (attempt >= attempts) {
          throw new ZarrException(location, key, "read failed after " + attempt
              + (attempt == 1 ? " attempt: " : " attempts: ") + e, e);
        }
        sleep(backoffMs << (attempt - 1), e);
      }
    }
  }

  private static boolean transientFailure(IOException e) {
    return !(e instanceof FileNotFoundException || e instanceof EOFException
        || e instanceof ZarrException || e instanceof AccessDeniedException
        || e instanceof AccessControlException || e instanceof InterruptedIOException);
  }

  private static void sleep(long ms, IOException cause) throws InterruptedIOException {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      InterruptedIOException e = new InterruptedIOException("interrupted while retrying a read");
      e.addSuppressed(cause);
      throw e;
    }
  }
}
