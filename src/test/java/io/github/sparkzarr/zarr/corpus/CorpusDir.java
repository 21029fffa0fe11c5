package io.github.sparkzarr.zarr.corpus;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Where a corpus is: the committed copy under src/test/resources/corpus, or the freshly
 * regenerated one the system property {@code zarr.corpus.dir} names (the build's fresh-corpus run).
 */
public final class CorpusDir {
  private CorpusDir() {}

  /** The directory of corpus {@code name} ("v2", "v3", ...); skips the test when it is absent. */
  public static Path of(String name) {
    String override = System.getProperty("zarr.corpus.dir");
    Path base = override == null || override.isEmpty()
        ? Path.of("src/test/resources/corpus") : Path.of(override);
    Path dir = base.resolve(name);
    Assumptions.assumeTrue(Files.isDirectory(dir),
        "no corpus at " + dir + " (its generator was not available to regenerate it)");
    return dir;
  }
}
