package io.github.sparkzarr.spark.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Runs integration-tests/read_written_store.py: what zarr-python 2.13 and xarray read. */
final class PythonReader {
  private static final String PYTHON = "/usr/bin/python3";
  private static Boolean available;

  private PythonReader() {}

  /** Skips the calling test, saying why, when Debian's python3 lacks zarr or xarray. */
  static synchronized void assumeAvailable() throws Exception {
    if (available == null) {
      available = new File(PYTHON).canExecute()
          && new ProcessBuilder(PYTHON, "-c", "import zarr, xarray").start().waitFor() == 0;
      if (!available) {
        System.out.println("SKIPPED: " + PYTHON + " cannot import zarr and xarray (CI has them: "
            + "integration-tests/install-deps.sh)");
      }
    }
    Assumptions.assumeTrue(available, PYTHON + " with zarr and xarray is not installed");
  }

  static JsonNode read(String store) throws Exception {
    assumeAvailable();
    Process p = new ProcessBuilder(PYTHON, "integration-tests/read_written_store.py", store)
        .redirectError(ProcessBuilder.Redirect.PIPE).start();
    byte[] out = p.getInputStream().readAllBytes();
    String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("zarr-python could not read " + store + ":\n" + err);
    }
    return new ObjectMapper().readTree(out);
  }
}
