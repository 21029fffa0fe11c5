package io.github.sparkzarr.zarr.codec.filter;

import static io.github.sparkzarr.zarr.codec.filter.FilterVectors.HEX;
import static io.github.sparkzarr.zarr.codec.filter.FilterVectors.JSON;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/** Our filters against numcodecs 0.11's own encodings and decodings, byte for byte. */
class FilterVectorsTest {
  private static final String PYTHON = "/usr/bin/python3";

  @TestFactory
  Stream<DynamicTest> encodeMatchesNumcodecs() throws IOException {
    return FilterVectors.cases().stream()
        .map(c -> DynamicTest.dynamicTest(c.get("name").asText(), () -> {
          ArrayFilter codec = FilterVectors.codec(c);
          byte[] ours = codec.encode(FilterVectors.decoded(c)).bytes();
          assertEquals(c.get("encoded").asText(), HEX.formatHex(ours));
        }));
  }

  @TestFactory
  Stream<DynamicTest> decodeMatchesNumcodecs() throws IOException {
    return FilterVectors.cases().stream()
        .map(c -> DynamicTest.dynamicTest(c.get("name").asText(), () -> {
          ArrayFilter codec = FilterVectors.codec(c);
          ChunkData input = FilterVectors.decoded(c);
          int count = input.elementCount();
          byte[] encoded = HEX.parseHex(c.get("encoded").asText());
          ChunkData ours = codec.decode(FilterVectors.encodedChunk(codec, input.type(), encoded), input.type(), count);
          if (FilterVectors.numeric(c)) {
            assertEquals(c.get("roundtrip").asText(), HEX.formatHex(ours.bytes()));
          } else {
            Object[] want = FilterVectors.items(c, c.get("roundtrip"));
            assertEquals(want.length, ours.objects().length);
            for (int i = 0; i < want.length; i++) {
              if (want[i] instanceof byte[] b) {
                assertArrayEquals(b, (byte[]) ours.objects()[i], "item " + i);
              } else {
                assertEquals(want[i], ours.objects()[i], "item " + i);
              }
            }
          }
        }));
  }

  /**
   * Filters that say decoding gives back its input (bitround, quantize and astype to their own
   * type), which scans then leave out, are those and only those; numcodecs' round trip of each is
   * its encoded bytes.
   */
  @TestFactory
  Stream<DynamicTest> filtersThatDecodeUnchangedAreThoseNumcodecsLeavesAsTheyAre() throws IOException {
    return FilterVectors.cases().stream().filter(FilterVectors::numeric)
        .map(c -> DynamicTest.dynamicTest(c.get("name").asText(), () -> {
          ArrayFilter codec = FilterVectors.codec(c);
          JsonNode config = c.get("config");
          String id = config.get("id").asText();
          boolean expected = id.equals("bitround")
              || id.equals("quantize") && config.get("dtype").equals(config.get("astype"))
                  && NumpyDtype.parse(config.get("dtype").asText()).equals(FilterVectors.decoded(c).type());
          assertEquals(expected, codec.decodesUnchanged(FilterVectors.decoded(c).type()));
          if (expected) {
            assertEquals(c.get("encoded").asText(), c.get("roundtrip").asText());
          }
        }));
  }

  @Test
  void astypeDecodesUnchangedOnlyToItsOwnType() throws IOException {
    ArrayFilter same = (ArrayFilter) CodecRegistry.fromConfig(JSON.readTree(
        "{\"id\": \"astype\", \"encode_dtype\": \"<f4\", \"decode_dtype\": \"<f4\"}"));
    ArrayFilter narrowing = (ArrayFilter) CodecRegistry.fromConfig(JSON.readTree(
        "{\"id\": \"astype\", \"encode_dtype\": \"<f2\", \"decode_dtype\": \"<f4\"}"));
    assertEquals(true, same.decodesUnchanged(NumpyDtype.parse("<f4")));
    assertEquals(false, same.decodesUnchanged(NumpyDtype.parse(">f4")));
    assertEquals(false, narrowing.decodesUnchanged(NumpyDtype.parse("<f4")));
  }

  @TestFactory
  Stream<DynamicTest> configRoundTrips() throws IOException {
    return FilterVectors.cases().stream()
        .map(c -> DynamicTest.dynamicTest(c.get("name").asText(), () -> {
          ObjectNode ours = FilterVectors.codec(c).toConfig();
          assertEquals(normalized(c.get("config")), normalized(ours));
          assertEquals(normalized(ours), normalized(CodecRegistry.fromConfig(ours).toConfig()));
        }));
  }

  /** Parsed back from text, so an int read as IntNode equals one we built as LongNode. */
  private static JsonNode normalized(JsonNode config) throws IOException {
    return JSON.readTree(config.toString());
  }

  @Test
  void quantizeBitsMatchPythonFloatFunctions() throws IOException {
    JsonNode table = FilterVectors.manifest().get("quantize_bits");
    for (Iterator<Map.Entry<String, JsonNode>> it = table.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      assertEquals(e.getValue().asInt(), Quantize.bits(Integer.parseInt(e.getKey())), "digits " + e.getKey());
    }
  }

  /** Our encodings, decoded by numcodecs itself (gen_filter_vectors.py --verify). */
  @Test
  void numcodecsReadsOurChunks(@TempDir Path dir) throws Exception {
    assumeTrue(new File(PYTHON).canExecute(), () -> skip(PYTHON + " is not installed"));
    assumeTrue(run(List.of(PYTHON, "-c", "import numcodecs")).exitCode == 0,
        () -> skip("numcodecs is not importable by " + PYTHON));
    ArrayNode ours = JSON.createArrayNode();
    for (JsonNode c : FilterVectors.cases()) {
      ArrayFilter codec = FilterVectors.codec(c);
      ChunkData input = FilterVectors.decoded(c);
      ObjectNode entry = ((ObjectNode) c.deepCopy()).put("encoded", HEX.formatHex(codec.encode(input).bytes()));
      entry.set("config", codec.toConfig());
      if (FilterVectors.numeric(c)) {
        DataType t = codec.encodedType(input.type());
        entry.put("encoded_dtype", t.kind() == DataType.Kind.RAW ? "|u1" : NumpyDtype.toText(t));
      }
      ours.add(entry);
    }
    Files.writeString(dir.resolve("ours.json"), ours.toString());
    Result r = run(List.of(PYTHON, "integration-tests/gen_filter_vectors.py", "--verify", dir.toString()));
    System.out.println(r.output);
    assertEquals(0, r.exitCode, r.output);
  }

  private static String skip(String reason) {
    String message = "skipping the numcodecs cross-check: " + reason;
    System.out.println(message);
    return message;
  }

  private record Result(int exitCode, String output) {}

  private static Result run(List<String> command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Result(-1, "timed out: " + command);
    }
    return new Result(p.exitValue(), out);
  }
}
