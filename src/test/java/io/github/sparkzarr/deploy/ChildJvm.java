package io.github.sparkzarr.deploy;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a fresh JVM the way a user would: only Spark's jars (the provided-scope classpath Maven
 * wrote) plus the bundle jar, never target/classes or test dependencies.
 */
final class ChildJvm {
  private ChildJvm() {}

  /** The exit code and the merged stdout and stderr of a finished child JVM. */
  record Result(int exitCode, String output) {}

  static Path bundleJar() {
    Path jar = Path.of(System.getProperty("zarr.bundle.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: run the *IT tests with mvn verify");
    }
    return jar;
  }

  /** Spark's own jars: what spark-submit puts on the classpath before any --jars. */
  static List<String> sparkJars() throws IOException {
    String text = Files.readString(Path.of(System.getProperty("zarr.spark.classpath"))).trim();
    return List.of(text.split(File.pathSeparator));
  }

  /** java @examples/spark-jvm.options -cp classpath args..., killed after the timeout. */
  static Result run(List<String> classpath, Map<String, String> env, Path log, String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("@examples/spark-jvm.options");
    cmd.add("-Dlog4j2.configurationFile=examples/log4j2.properties");
    cmd.add("-cp");
    cmd.add(String.join(File.pathSeparator, classpath));
    cmd.addAll(List.of(args));
    Files.createDirectories(log.getParent());
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    try {
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        throw new IllegalStateException("child JVM timed out; output in " + log);
      }
    } finally {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }
}
