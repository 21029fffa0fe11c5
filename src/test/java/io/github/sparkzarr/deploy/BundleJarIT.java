package io.github.sparkzarr.deploy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/** The bundle jar alone, next to Spark's jars, is enough for spark-shell --jars. */
class BundleJarIT {

  @Test
  void relocatesBundledLibrariesAndLeavesSparksAlone() throws Exception {
    try (ZipFile zip = new ZipFile(ChildJvm.bundleJar().toFile())) {
      Set<String> classes = zip.stream().map(ZipEntry::getName).filter(n -> n.endsWith(".class"))
          .collect(Collectors.toSet());
      assertTrue(classes.contains("io/github/sparkzarr/spark/ZarrDataSource.class"));
      assertTrue(classes.contains(
          "io/github/sparkzarr/shaded/io/airlift/compress/snappy/SnappyDecompressor.class"));
      assertTrue(classes.contains("io/github/sparkzarr/shaded/org/tukaani/xz/XZInputStream.class"));
      List<String> foreign = classes.stream().filter(n -> !n.startsWith("io/github/sparkzarr/"))
          .sorted().toList();
      assertEquals(List.of(), foreign, "only our own and relocated classes");
      assertTrue(zip.getEntry("META-INF/services/org.apache.spark.sql.sources.DataSourceRegister")
          != null, "format(\"zarr\") needs the service registration");
      assertTrue(zip.getEntry("META-INF/services/org.apache.spark.sql.SparkSessionExtensionsProvider")
          != null, "small aggregates run no job only with the session extension (DriverAnswerStrategy)");
    }
  }

  @Test
  void quickstartRunsWithOnlySparkJarsAndTheBundle() throws Exception {
    List<String> cp = new ArrayList<>(ChildJvm.sparkJars());
    assertFalse(cp.stream().anyMatch(j -> j.contains("aircompressor") || j.contains("tukaani")
        || j.endsWith("classes")), "the bundle must bring its own relocated libraries: " + cp);
    cp.add(ChildJvm.bundleJar().toString());
    Path store = Path.of("target/it/bundle-quickstart/era5-sample.zarr").toAbsolutePath();
    ChildJvm.Result r = ChildJvm.run(cp, Map.of(), Path.of("target/it/bundle-quickstart.log"),
        "examples/Quickstart.java", store.toString());
    assertEquals(0, r.exitCode(), r.output());
    assertTrue(r.output().contains("Quickstart OK"), r.output());
  }
}
