package io.github.sparkzarr.spark.stores;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.sparkzarr.spark.SparkTestBase;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Read-only http:// through Hadoop's HttpFileSystem, served by the JDK's HTTP server on loopback.
 * HTTP cannot list, so the store must carry consolidated metadata; the server answers plain GETs
 * (no ranges, no directory listings), as a static file host does.
 */
class HttpStoreTest extends SparkTestBase {
  private static final Path SERVED = Path.of("target/http-root").toAbsolutePath();
  private static final List<String> REQUESTS = new CopyOnWriteArrayList<>();
  private static HttpServer server;
  private static String root;

  @BeforeAll
  static void startHttp() throws IOException {
    Path store = SERVED.resolve("sample.zarr");
    try (HadoopStore local = new HadoopStore(store.toUri().toString(), new Configuration())) {
      local.deletePrefix("");
      SampleDataset.write(local);
    }
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", HttpStoreTest::serveFile);
    server.start();
    root = "http://127.0.0.1:" + server.getAddress().getPort() + "/sample.zarr";
  }

  @AfterAll
  static void stopHttp() {
    if (server != null) {
      server.stop(0);
    }
  }

  @BeforeEach
  void clearLog() {
    REQUESTS.clear();
  }

  private static void serveFile(HttpExchange ex) throws IOException {
    try (ex) {
      REQUESTS.add(ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
      Path file = SERVED.resolve(ex.getRequestURI().getPath().substring(1)).normalize();
      if (!ex.getRequestMethod().equals("GET") || !file.startsWith(SERVED)
          || !Files.isRegularFile(file)) {
        ex.sendResponseHeaders(404, -1);
        return;
      }
      byte[] body = Files.readAllBytes(file);
      ex.sendResponseHeaders(200, body.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Test
  void sparkReadsAConsolidatedStoreOverHttp() {
    SampleDataset.assertReadsCorrectly(spark().read().format("zarr").load(root));
    assertTrue(REQUESTS.contains("GET /sample.zarr/.zmetadata"), REQUESTS.toString());
    assertTrue(REQUESTS.contains("GET /sample.zarr/value/2.1"), REQUESTS.toString());
  }

  @Test
  void storeAnswersAbsentSizeAndRangesOverHttp() throws IOException {
    try (HadoopStore store = new HadoopStore(root, new Configuration())) {
      byte[] whole = store.get("value/0.0").orElseThrow();
      assertEquals(Optional.empty(), store.get("value/9.9"));
      assertEquals(Optional.empty(), store.size("value/9.9"));
      assertEquals(Optional.of((long) whole.length), store.size("value/0.0"));
      byte[] expected = new byte[5];
      System.arraycopy(whole, 3, expected, 0, 5);
      assertArrayEquals(expected, store.getRange("value/0.0", 3, 5).orElseThrow());
      assertEquals(Optional.empty(), store.getRange("value/9.9", 0, 1));
      assertThrows(EOFException.class, () -> store.getRange("value/0.0", whole.length - 2, 5));
    }
  }
}
