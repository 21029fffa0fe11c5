package io.github.sparkzarr.zarr.codec.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.codec.CodecSamples;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Decodes what the real numcodecs encoded: src/test/resources/codecs, written by
 * integration-tests/gen_codec_vectors.py with Debian's numcodecs 0.11.
 */
class NumcodecsVectorsTest {

  private static byte[] resource(String path) throws Exception {
    try (InputStream in = NumcodecsVectorsTest.class.getResourceAsStream("/codecs/" + path)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource codecs/" + path);
      }
      return in.readAllBytes();
    }
  }

  @TestFactory
  List<DynamicTest> decodesEveryNumcodecsVector() throws Exception {
    JsonNode manifest = CodecSamples.JSON.readTree(resource("manifest.json"));
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode v : manifest.get("vectors")) {
      tests.add(
          DynamicTest.dynamicTest(
              v.get("name").asText(),
              () -> {
                JsonNode config = v.get("codec");
                BytesCodec codec = (BytesCodec) CodecRegistry.fromConfig(config);
                byte[] raw = resource(v.get("input").asText());
                byte[] encoded = resource(v.get("encoded").asText());
                assertArrayEquals(raw, codec.decode(encoded, raw.length), "known size");
                assertArrayEquals(raw, codec.decode(encoded, -1), "unknown size");
                assertEquals(config, codec.toConfig(), "toConfig() is numcodecs' get_config()");
              }));
    }
    assertTrue(tests.size() > 100, "manifest lists " + tests.size() + " vectors");
    return tests;
  }
}
