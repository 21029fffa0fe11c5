package io.github.sparkzarr.zarr.codec.blosc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The libblosc test vectors integration-tests/gen_blosc_vectors.py wrote to test resources. */
final class BloscVectors {
  record Vector(
      String frameFile,
      byte[] frame,
      byte[] raw,
      String cname,
      int clevel,
      int shuffle,
      int typeSize,
      int blockSize,
      String pattern) {

    BloscCodec codec() throws IOException {
      return new BloscCodec(
          BloscCname.fromName(cname), clevel, BloscShuffle.fromNumcodecs(shuffle), blockSize, 0);
    }

    @Override
    public String toString() {
      return frameFile
          + " "
          + cname
          + " clevel="
          + clevel
          + " shuffle="
          + shuffle
          + " typesize="
          + typeSize
          + " blocksize="
          + blockSize
          + " "
          + pattern
          + " nbytes="
          + raw.length;
    }
  }

  private static List<Vector> all;

  private BloscVectors() {}

  static synchronized List<Vector> all() {
    if (all == null) {
      all = load();
    }
    return all;
  }

  private static List<Vector> load() {
    try {
      Path dir = Path.of(BloscVectors.class.getResource("/blosc/manifest.json").toURI()).getParent();
      JsonNode manifest = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile());
      List<Vector> vectors = new ArrayList<>();
      for (JsonNode v : manifest.get("vectors")) {
        vectors.add(
            new Vector(
                v.get("frame").asText(),
                Files.readAllBytes(dir.resolve(v.get("frame").asText())),
                Files.readAllBytes(dir.resolve(v.get("raw").asText())),
                v.get("cname").asText(),
                v.get("clevel").asInt(),
                v.get("shuffle").asInt(),
                v.get("typesize").asInt(),
                v.get("blocksize").asInt(),
                v.get("pattern").asText()));
      }
      return vectors;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
