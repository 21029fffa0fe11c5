import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * A spark-submit job: runs a SQL script (statements separated by ';') against a Zarr store and
 * prints every result. The script names the store as ${store}.
 *
 * <pre>
 * spark-submit --jars spark-zarr_2.13-0.1.0-SNAPSHOT-bundle.jar --class ZarrSqlJob zarr-job.jar \
 *     examples/queries.sql /data/era5_small.zarr
 * </pre>
 */
public class ZarrSqlJob {
  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: ZarrSqlJob <script.sql> <store path or URI>");
      System.exit(2);
    }
    SparkSession spark = SparkSession.builder()
        .appName("spark-zarr SQL job")
        .config("spark.sql.catalog.zarr", "io.github.sparkzarr.spark.ZarrCatalog")
        .getOrCreate();
    try {
      spark.conf().set("store", args[1]);
      for (String statement : statements(Files.readString(Path.of(args[0])))) {
        System.out.println("sql> " + statement);
        List<Row> rows = spark.sql(statement).collectAsList();
        rows.forEach(r -> System.out.println("  " + r));
      }
      // How many executors took part: more than one means the rows crossed JVMs.
      System.out.println("executors: " + (spark.sparkContext().getExecutorMemoryStatus().size() - 1));
    } finally {
      spark.stop();
    }
  }

  /** The statements of a script: '--' comment lines dropped, split at ';' ending a line. */
  static List<String> statements(String script) {
    StringBuilder current = new StringBuilder();
    List<String> out = new ArrayList<>();
    for (String line : script.split("\n")) {
      if (line.strip().startsWith("--")) {
        continue;
      }
      current.append(line).append('\n');
      if (line.strip().endsWith(";")) {
        String s = current.toString().strip();
        out.add(s.substring(0, s.length() - 1));
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      out.add(current.toString().strip());
    }
    return out;
  }
}
