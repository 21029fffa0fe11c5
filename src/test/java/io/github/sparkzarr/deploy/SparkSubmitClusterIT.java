package io.github.sparkzarr.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * examples/ZarrSqlJob.java submitted with Spark's own SparkSubmit to a local-cluster master: a
 * master, two workers and two executor JVMs, the bundle shipped with --jars as in production.
 * Executors need a Spark home with a jars/ directory; Maven Central has no Spark distribution,
 * so the test links Spark's jars into target/it/spark-home/jars.
 */
class SparkSubmitClusterIT {
  private static final Path WORK = Path.of("target/it/cluster").toAbsolutePath();

  @Test
  void sqlJobRunsOnTwoExecutorJvms() throws Exception {
    Path sparkHome = sparkHome();
    Path appJar = compileJob();
    String store = Path.of("src/test/resources/corpus/datasets/era5_small.zarr").toAbsolutePath()
        .toString();
    ChildJvm.Result r = ChildJvm.run(ChildJvm.sparkJars(),
        Map.of("SPARK_HOME", sparkHome.toString(), "SPARK_SCALA_VERSION", "2.13",
            "SPARK_LOCAL_IP", "127.0.0.1"),
        WORK.resolve("submit.log"),
        "org.apache.spark.deploy.SparkSubmit",
        "--master", "local-cluster[2,1,1024]",
        "--conf", "spark.ui.enabled=false",
        "--conf", "spark.driver.host=127.0.0.1",
        "--conf", "spark.executor.memory=512m",
        // Schedule nothing until both executor JVMs have registered, so both get tasks.
        "--conf", "spark.scheduler.minRegisteredResourcesRatio=1.0",
        "--conf", "spark.scheduler.maxRegisteredResourcesWaitingTime=120s",
        // One partition per chunk: scans then have several tasks, which the scheduler hands to
        // both executors at once (a one-partition scan, as aggregates computed in the scan give
        // this small store, can leave one executor idle for the whole job).
        "--conf", "spark.sql.files.maxPartitionBytes=1",
        // Aggregates in tasks too: the driver would compute ones this small itself.
        "--conf", "spark.sql.catalog.zarr.driverAggregateMaxBytes=0",
        "--jars", ChildJvm.bundleJar().toString(),
        "--class", "ZarrSqlJob", appJar.toString(),
        "examples/queries.sql", store);
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("executors: 2"), r.output());
    assertTrue(r.output().contains("[124416,"), "count of cells: " + r.output());
    List<Path> executorLogs;
    try (Stream<Path> files = Files.walk(sparkHome.resolve("work"))) {
      executorLogs = files.filter(p -> p.getFileName().toString().equals("stderr")).toList();
    }
    assertEquals(2, executorLogs.size(), "one log per executor JVM: " + executorLogs);
    for (Path log : executorLogs) {
      assertTrue(Files.readString(log).contains("Finished task"), "idle executor: " + log);
    }
  }

  /** A Spark home whose jars/ holds Spark's jars (symbolic links), with a fresh work/. */
  private static Path sparkHome() throws IOException {
    Path home = WORK.resolve("spark-home");
    Path jars = home.resolve("jars");
    deleteRecursively(home);
    Files.createDirectories(jars);
    for (String jar : ChildJvm.sparkJars()) {
      Path target = Path.of(jar);
      Files.createSymbolicLink(jars.resolve(target.getFileName()), target);
    }
    return home;
  }

  /** Compiles the example against Spark's jars and the bundle, as a user's build would. */
  private static Path compileJob() throws IOException {
    Path classes = WORK.resolve("job-classes");
    deleteRecursively(classes);
    Files.createDirectories(classes);
    List<String> cp = new ArrayList<>(ChildJvm.sparkJars());
    cp.add(ChildJvm.bundleJar().toString());
    int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(),
        "-cp", String.join(java.io.File.pathSeparator, cp), "examples/ZarrSqlJob.java");
    assertEquals(0, rc, "examples/ZarrSqlJob.java does not compile");
    Path jar = WORK.resolve("zarr-sql-job.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
        Stream<Path> files = Files.list(classes)) {
      for (Path c : files.toList()) {
        out.putNextEntry(new JarEntry(c.getFileName().toString()));
        Files.copy(c, out);
        out.closeEntry();
      }
    }
    return jar;
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : files.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.delete(p);
      }
    }
  }
}
