package io.github.sparkzarr.spark.write;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.faults.FaultyFileSystem;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;

/**
 * Writes in which every state of the store says which write made it: generation g with length n
 * holds {@code v[t, y] = g * 1000 + t * 10 + y} for t below n and y below 3. An append of
 * generation g continues the formula, so the store after it is "generation g, length n + m".
 * {@link #observe} reads a store with the core API and names its state: "g/n", "absent", or what
 * is wrong with it.
 */
final class Generations {
  static final String ABSENT = "absent";
  private static final List<String> METADATA = List.of(".zarray", ".zgroup", ".zattrs", ".zmetadata",
      "zarr.json");
  private static final ObjectMapper JSON = new ObjectMapper();

  private Generations() {}

  /** Rows t = 0..n-1 of generation g, written at positions offset + t. */
  static Dataset<Row> rows(SparkSession spark, int g, int n, int offset) {
    return spark.sql("SELECT t, y, CAST(" + g + " * 1000 + (t + " + offset + ") * 10 + y AS DOUBLE) AS v "
        + "FROM range(" + n + ") a(t) CROSS JOIN range(3) b(y)");
  }

  /**
   * Writes {@link #rows} as array v (dimensions t, y; 2 x 2 chunks) to {@code uri}, with the
   * "faulty:" file system registered and {@code options} (name, value pairs) added.
   */
  static void write(SparkSession spark, String uri, int format, SaveMode mode, int g, int n, int offset,
      String... options) {
    var w = rows(spark, g, n, offset).write().format("zarr").mode(mode)
        .option("zarr_format", Integer.toString(format)).option("dimensions", "t,y").option("chunks", "2,2");
    String[] faulty = FaultyFileSystem.options();
    for (int i = 0; i < faulty.length; i += 2) {
      w = w.option(faulty[i], faulty[i + 1]);
    }
    for (int i = 0; i < options.length; i += 2) {
      w = w.option(options[i], options[i + 1]);
    }
    w.save(uri);
  }

  /** The state of the store at {@code dir}: "g/n", "absent" (no array v), or a problem. */
  static String observe(Path dir) {
    String unparseable = unparseableMetadata(dir);
    if (unparseable != null) {
      return "partial metadata: " + unparseable;
    }
    try {
      ZarrHierarchy h = ZarrHierarchy.open(new HadoopStore(dir.toUri().toString(), new Configuration()));
      if (h.nodeType("v").isEmpty()) {
        return ABSENT;
      }
      ZarrArray v = h.openArray("v");
      long[] shape = v.metadata().shape();
      ChunkData data = v.readAll();
      ByteBuffer buf = ByteBuffer.wrap(data.bytes()).order(ByteOrder.LITTLE_ENDIAN);
      if (shape.length != 2 || shape[1] != 3 || shape[0] == 0) {
        return "bad shape " + java.util.Arrays.toString(shape);
      }
      long g = Math.round(buf.getDouble(0) / 1000);
      for (int t = 0; t < shape[0]; t++) {
        for (int y = 0; y < 3; y++) {
          double got = buf.getDouble((t * 3 + y) * 8);
          if (got != g * 1000 + t * 10 + y) {
            return "mixed: generation " + g + " with length " + shape[0] + " has " + got + " at t=" + t
                + ", y=" + y;
          }
        }
      }
      return g + "/" + shape[0];
    } catch (IOException | RuntimeException e) {
      return "read failed: " + e;
    }
  }

  /** The first metadata document below {@code dir} that is not whole JSON, or null. */
  private static String unparseableMetadata(Path dir) {
    if (!Files.exists(dir)) {
      return null;
    }
    List<Path> docs;
    try (Stream<Path> walk = Files.walk(dir)) {
      docs = walk.filter(p -> METADATA.contains(p.getFileName().toString())).toList();
    } catch (IOException | java.io.UncheckedIOException e) {
      return null; // a directory vanished while listing: a concurrent write, not a bad document
    }
    for (Path doc : docs) {
      byte[] bytes;
      try {
        bytes = Files.readAllBytes(doc);
      } catch (NoSuchFileException gone) {
        continue;
      } catch (IOException e) {
        return doc + ": " + e;
      }
      try {
        if (!JSON.readTree(bytes).isObject()) {
          return doc + " is not a JSON object";
        }
      } catch (IOException e) {
        return doc + " (" + bytes.length + " bytes): " + e.getMessage();
      }
    }
    return null;
  }

  private static final List<String> READ_DEPENDS_ON = List.of(".zmetadata", "zarr.json", "v/.zarray",
      "v/zarr.json");
  /** The {@link #metadataVersion} of a store without any of these documents. */
  static final String NO_METADATA = String.join("=-\n", READ_DEPENDS_ON) + "=-\n";

  /** The bytes of the documents a read of v depends on, to tell whether they changed meanwhile. */
  static String metadataVersion(Path dir) {
    StringBuilder b = new StringBuilder();
    for (String key : READ_DEPENDS_ON) {
      b.append(key).append('=').append(read(dir.resolve(key)).map(String::new).orElse("-")).append('\n');
    }
    return b.toString();
  }

  private static Optional<byte[]> read(Path p) {
    try {
      return Optional.of(Files.readAllBytes(p));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
