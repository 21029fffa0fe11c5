package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.Codec;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.util.Set;
import java.util.TreeSet;

/**
 * zarr-python 3's {@code numcodecs.*} codecs: a numcodecs codec named {@code "numcodecs." + id},
 * configured as numcodecs configures it in v2 metadata less the "id". Which stage of the chain
 * each one is comes from zarr-python ({@code zarr.codecs.numcodecs}), not from the codec.
 */
final class NumcodecsCodecs {
  static final String PREFIX = "numcodecs.";

  private static final Set<String> ON_BYTES = Set.of("blosc", "lz4", "zstd", "zlib", "gzip", "bz2",
      "lzma", "shuffle", "crc32", "crc32c", "adler32", "fletcher32");
  private static final Set<String> ON_ARRAYS =
      Set.of("delta", "bitround", "fixedscaleoffset", "quantize", "packbits", "astype");

  private NumcodecsCodecs() {}

  static boolean names(String name) {
    return name.startsWith(PREFIX);
  }

  /** Whether {@code name} is an array→array codec; else it is bytes→bytes. */
  static boolean onArrays(String name) {
    return ON_ARRAYS.contains(name.substring(PREFIX.length()));
  }

  /** The bytes→bytes codec {@code name} (a compressor, a checksum or shuffle). */
  static BytesToBytesCodec bytesCodec(String name, JsonNode configuration) throws CodecException {
    Codec codec = create(name, configuration);
    BytesCodec bytes = codec instanceof BytesCodec b ? b : new FilterBytesCodec((ArrayFilter) codec);
    return new BytesToBytesCodec(name, configuration, bytes);
  }

  /** The array→array codec {@code name}, encoding elements of {@code decodedType}. */
  static FilterArrayCodec arrayCodec(String name, JsonNode configuration, DataType decodedType)
      throws CodecException {
    return new FilterArrayCodec(name, configuration, (ArrayFilter) create(name, configuration), decodedType);
  }

  private static Codec create(String name, JsonNode configuration) throws CodecException {
    String id = name.substring(PREFIX.length());
    if (!ON_BYTES.contains(id) && !ON_ARRAYS.contains(id)) {
      Set<String> all = new TreeSet<>(ON_BYTES);
      all.addAll(ON_ARRAYS);
      throw new CodecException("unsupported codec '" + name + "' (supported numcodecs codecs: "
          + String.join(", ", all) + ")");
    }
    if (configuration.has("id") && !configuration.get("id").asText().equals(id)) {
      throw new CodecException("codec '" + name + "': configuration \"id\" " + configuration.get("id")
          + " does not match the name");
    }
    ObjectNode config = ((ObjectNode) configuration).deepCopy();
    config.put("id", id);
    try {
      return CodecRegistry.fromConfig(config);
    } catch (CodecException e) {
      throw new CodecException("codec '" + name + "': " + e.getMessage(), e);
    }
  }
}
