package io.github.sparkzarr.zarr.codec.blosc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Frames our encoder writes must decode with libblosc: writes them to target/blosc-java and runs
 * gen_blosc_vectors.py --verify with Debian's python (skipped when it or numcodecs is missing).
 */
class BloscLibbloscVerifyTest {
  private static final Path PYTHON = Path.of("/usr/bin/python3");
  private static final Path SCRIPT = Path.of("integration-tests/gen_blosc_vectors.py");
  private static final Path OUT = Path.of("target/blosc-java");

  @Test
  void libbloscDecodesOurFrames() throws Exception {
    String missing = missingPrerequisite();
    if (missing != null) {
      System.out.println("BloscLibbloscVerifyTest skipped: " + missing);
    }
    assumeTrue(missing == null, missing);

    Files.createDirectories(OUT.resolve("frames"));
    Files.createDirectories(OUT.resolve("raw"));
    ArrayNode list = new ObjectMapper().createArrayNode();
    int n = 0;
    for (var v : BloscVectors.all()) {
      n = write(list, n, v.codec(), v.raw(), v.typeSize());
    }
    // Inputs that exercise the blosclz encoder harder: far and long matches, big blocks.
    for (byte[] raw : stressInputs()) {
      for (BloscCname cname : BloscCname.values()) {
        for (BloscShuffle shuffle : BloscShuffle.values()) {
          for (int typeSize : new int[] {1, 4, 8}) {
            n = write(list, n, new BloscCodec(cname, 5, shuffle, 0, 0), raw, typeSize);
          }
        }
      }
    }
    ObjectNode manifest = new ObjectMapper().createObjectNode();
    manifest.set("vectors", list);
    Files.writeString(OUT.resolve("manifest.json"), manifest.toString());

    Process p =
        new ProcessBuilder(PYTHON.toString(), SCRIPT.toString(), "--verify", OUT.toString())
            .redirectErrorStream(true)
            .start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assumeTrue(p.waitFor(300, TimeUnit.SECONDS), "verify script timed out");
    System.out.print(output);
    assertEquals(0, p.exitValue(), output);
  }

  private static int write(ArrayNode list, int n, BloscCodec codec, byte[] raw, int itemSize)
      throws IOException {
    String frame = String.format("frames/%05d.blosc", n);
    String rawName = String.format("raw/%05d.bin", n);
    Files.write(OUT.resolve(frame), codec.encode(raw, itemSize));
    Files.write(OUT.resolve(rawName), raw);
    list.addObject()
        .put("frame", frame)
        .put("raw", rawName)
        .put("name", codec + " itemSize=" + itemSize + " nbytes=" + raw.length);
    return n + 1;
  }

  static byte[][] stressInputs() {
    Random random = new Random(42);
    byte[] farRepeats = new byte[300_000];
    byte[] chunk = new byte[9_000]; // repeats beyond blosclz's 8191-byte near distance
    random.nextBytes(chunk);
    for (int i = 0; i < farRepeats.length; i++) {
      farRepeats[i] = chunk[i % chunk.length];
    }
    byte[] longRuns = new byte[200_000]; // long zero runs between random islands
    for (int i = 0; i < longRuns.length; i += 5000) {
      for (int k = 0; k < 40 && i + k < longRuns.length; k++) {
        longRuns[i + k] = (byte) random.nextInt();
      }
    }
    byte[] text = new byte[150_000];
    String words = "zarr chunk blosc shuffle spark array compress ";
    for (int i = 0; i < text.length; i++) {
      text[i] = (byte) words.charAt((i * 7 + random.nextInt(3)) % words.length());
    }
    byte[] noise = new byte[70_001];
    random.nextBytes(noise);
    return new byte[][] {farRepeats, longRuns, text, noise};
  }

  private static String missingPrerequisite() throws InterruptedException {
    if (!Files.isExecutable(PYTHON)) {
      return PYTHON + " does not exist";
    }
    if (!Files.exists(SCRIPT)) {
      return SCRIPT.toAbsolutePath() + " does not exist";
    }
    try {
      Process p =
          new ProcessBuilder(PYTHON.toString(), "-c", "import numcodecs.blosc")
              .redirectErrorStream(true)
              .start();
      String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return PYTHON + " cannot import numcodecs.blosc: " + output.strip();
      }
    } catch (IOException e) {
      return "cannot run " + PYTHON + ": " + e.getMessage();
    }
    return null;
  }
}
