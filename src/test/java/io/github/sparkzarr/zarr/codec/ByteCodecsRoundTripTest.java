package io.github.sparkzarr.zarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.compress.ZstdCodec;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Our encode, then our decode and numcodecs' decode, for every compressor and checksum. */
class ByteCodecsRoundTripTest {
  private static final String PYTHON = "/usr/bin/python3";

  @TestFactory
  List<DynamicTest> encodeThenDecodeGivesTheInput() throws Exception {
    List<DynamicTest> tests = new ArrayList<>();
    for (BytesCodec codec : CodecSamples.codecs()) {
      tests.add(
          DynamicTest.dynamicTest(
              codec.toConfig().toString(),
              () -> {
                for (Map.Entry<String, byte[]> input : CodecSamples.inputs().entrySet()) {
                  byte[] raw = input.getValue();
                  byte[] encoded = codec.encode(raw, 4);
                  assertArrayEquals(raw, codec.decode(encoded, raw.length), input.getKey());
                  assertArrayEquals(raw, codec.decode(encoded, -1), input.getKey() + ", size -1");
                }
              }));
    }
    return tests;
  }

  @Test
  void configRoundTripsThroughTheRegistry() throws Exception {
    for (BytesCodec codec : CodecSamples.codecs()) {
      Codec back = CodecRegistry.fromConfig(codec.toConfig());
      assertEquals(codec, back, codec.toConfig().toString());
      assertEquals(codec.hashCode(), back.hashCode());
      assertEquals(codec.toConfig(), back.toConfig());
    }
  }

  @Test
  void compressesCompressibleData() throws Exception {
    byte[] zeros = new byte[300_000];
    for (BytesCodec codec : CodecSamples.codecs()) {
      boolean stores = codec.getClass().getPackageName().endsWith("checksum")
          || codec.toConfig().path("level").asInt(-1) == 0 && !(codec instanceof ZstdCodec);
      int size = codec.encode(zeros, 1).length;
      assertTrue(stores ? size >= zeros.length : size < zeros.length / 50, codec + ": " + size);
    }
  }

  /**
   * Writes our encodings in the vector layout and has the real numcodecs decode them
   * (integration-tests/gen_codec_vectors.py --verify).
   */
  @Test
  void numcodecsDecodesOurEncodings() throws Exception {
    Assumptions.assumeTrue(
        new File(PYTHON).canExecute() && run(PYTHON, "-c", "import numcodecs").exitCode == 0,
        () -> {
          String reason = "skipped: " + PYTHON + " with numcodecs is not available";
          System.out.println(reason);
          return reason;
        });
    Path dir = Path.of("target", "codec-verify");
    ArrayNode vectors = CodecSamples.JSON.createArrayNode();
    Files.createDirectories(dir.resolve("inputs"));
    for (Map.Entry<String, byte[]> input : CodecSamples.inputs().entrySet()) {
      Files.write(dir.resolve("inputs/" + input.getKey() + ".bin"), input.getValue());
    }
    int n = 0;
    for (BytesCodec codec : CodecSamples.codecs()) {
      Path sub = Files.createDirectories(dir.resolve("codec" + n++));
      for (Map.Entry<String, byte[]> input : CodecSamples.inputs().entrySet()) {
        Files.write(sub.resolve(input.getKey() + ".bin"), codec.encode(input.getValue(), 1));
        ObjectNode v = vectors.addObject();
        v.put("name", codec.toConfig() + "/" + input.getKey());
        v.set("codec", codec.toConfig());
        v.put("input", "inputs/" + input.getKey() + ".bin");
        v.put("encoded", sub.getFileName() + "/" + input.getKey() + ".bin");
      }
    }
    ObjectNode manifest = CodecSamples.JSON.createObjectNode();
    manifest.set("vectors", vectors);
    CodecSamples.JSON.writeValue(dir.resolve("manifest.json").toFile(), manifest);

    Result result =
        run(PYTHON, "integration-tests/gen_codec_vectors.py", "--verify", dir.toString());
    System.out.println(result.output);
    assertEquals(0, result.exitCode, result.output);
  }

  private record Result(int exitCode, String output) {}

  private static Result run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException("timed out: " + String.join(" ", command));
    }
    return new Result(p.exitValue(), output);
  }
}
