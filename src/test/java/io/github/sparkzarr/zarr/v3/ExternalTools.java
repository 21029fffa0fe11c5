package io.github.sparkzarr.zarr.v3;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Runs the independent implementations' verifier scripts; skips (with the reason) when absent. */
public final class ExternalTools {
  private ExternalTools() {}

  static final Path ZARRITA = Path.of("integration-tests/zarrita");

  /** Runs verify_with_zarrita.mjs on {@code manifest}; fails with its output on disagreement. */
  public static void verifyWithZarrita(Path manifest) throws Exception {
    assumeZarrita();
    run(List.of("node", ZARRITA.resolve("verify_with_zarrita.mjs").toString(),
        manifest.toAbsolutePath().toString()), "zarrita");
  }

  /**
   * The standard output of the zarrita script {@code script} (in integration-tests/zarrita) run on
   * {@code args}; fails with its error output when it exits with an error.
   */
  public static String zarritaOutput(String script, String... args) throws Exception {
    assumeZarrita();
    List<String> cmd = new java.util.ArrayList<>(List.of("node", ZARRITA.resolve(script).toString()));
    cmd.addAll(List.of(args));
    return output(cmd, script);
  }

  /** The standard output of a script run by Debian's python3 with numcodecs (skips without it). */
  public static String pythonOutput(String script, String... args) throws Exception {
    File python = new File("/usr/bin/python3");
    Assumptions.assumeTrue(python.canExecute()
        && new ProcessBuilder(python.getPath(), "-c", "import numcodecs").start().waitFor() == 0,
        "no /usr/bin/python3 with numcodecs: " + script + " skipped");
    List<String> cmd = new java.util.ArrayList<>(List.of(python.getPath(), script));
    cmd.addAll(List.of(args));
    return output(cmd, script);
  }

  private static String output(List<String> cmd, String script) throws Exception {
    Path err = Files.createTempFile("tool", ".err");
    try {
      Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(10, TimeUnit.MINUTES)) {
        p.destroyForcibly();
      }
      assertEquals(0, p.exitValue(), script + " failed:\n" + Files.readString(err));
      return output;
    } finally {
      Files.deleteIfExists(err);
    }
  }

  private static void assumeZarrita() {
    Assumptions.assumeTrue(onPath("node"), "node is not installed: zarrita check skipped");
    Assumptions.assumeTrue(Files.isDirectory(ZARRITA.resolve("node_modules/zarrita")),
        "zarrita is not installed (run integration-tests/install-deps.sh): zarrita check skipped");
  }

  /** Runs a script with Debian's python3 (zarr-python 2.13 and numcodecs) and checks it passes. */
  public static void runPython(String what, String... args) throws Exception {
    File python = new File("/usr/bin/python3");
    Assumptions.assumeTrue(python.canExecute(), "no /usr/bin/python3: " + what + " skipped");
    Process check = new ProcessBuilder(python.getPath(), "-c", "import zarr, numcodecs").start();
    Assumptions.assumeTrue(check.waitFor() == 0, "zarr-python is not installed: " + what + " skipped");
    List<String> cmd = new java.util.ArrayList<>(List.of(python.getPath()));
    cmd.addAll(List.of(args));
    run(cmd, what);
  }

  private static void run(List<String> cmd, String who) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().put("ZARR_V3_EXPERIMENTAL_API", "1");
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
    }
    System.out.println(who + ": " + lastLine(output));
    assertEquals(0, p.exitValue(), who + " disagrees:\n" + output);
  }

  private static String lastLine(String output) {
    String[] lines = output.strip().split("\n");
    return lines[lines.length - 1];
  }

  private static boolean onPath(String tool) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (new File(dir, tool).canExecute()) {
        return true;
      }
    }
    return false;
  }
}
