package io.github.sparkzarr.zarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.codec.blosc.BloscCodec;
import io.github.sparkzarr.zarr.codec.checksum.Adler32Codec;
import io.github.sparkzarr.zarr.codec.checksum.Crc32Codec;
import io.github.sparkzarr.zarr.codec.checksum.Crc32cCodec;
import io.github.sparkzarr.zarr.codec.checksum.Fletcher32Codec;
import io.github.sparkzarr.zarr.codec.compress.Bz2Codec;
import io.github.sparkzarr.zarr.codec.compress.GzipCodec;
import io.github.sparkzarr.zarr.codec.compress.Lz4Codec;
import io.github.sparkzarr.zarr.codec.compress.LzmaCodec;
import io.github.sparkzarr.zarr.codec.compress.ZlibCodec;
import io.github.sparkzarr.zarr.codec.compress.ZstdCodec;
import io.github.sparkzarr.zarr.codec.filter.AsType;
import io.github.sparkzarr.zarr.codec.filter.BitRound;
import io.github.sparkzarr.zarr.codec.filter.Categorize;
import io.github.sparkzarr.zarr.codec.filter.Delta;
import io.github.sparkzarr.zarr.codec.filter.FixedScaleOffset;
import io.github.sparkzarr.zarr.codec.filter.Json2;
import io.github.sparkzarr.zarr.codec.filter.PackBits;
import io.github.sparkzarr.zarr.codec.filter.Quantize;
import io.github.sparkzarr.zarr.codec.filter.Shuffle;
import io.github.sparkzarr.zarr.codec.filter.VLenBytes;
import io.github.sparkzarr.zarr.codec.filter.VLenUtf8;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Maps numcodecs ids to codec factories: the one place that knows every codec. */
public final class CodecRegistry {

  /** Builds a codec from its numcodecs configuration (the JSON object with "id"). */
  @FunctionalInterface
  public interface Factory {
    Codec create(JsonNode config) throws CodecException;
  }

  private static final Map<String, Factory> BY_ID = new HashMap<>();

  static {
    // compressors and checksums (codec/compress, codec/checksum)
    register(ZlibCodec.ID, ZlibCodec::fromConfig);
    register(GzipCodec.ID, GzipCodec::fromConfig);
    register(Bz2Codec.ID, Bz2Codec::fromConfig);
    register(LzmaCodec.ID, LzmaCodec::fromConfig);
    register(ZstdCodec.ID, ZstdCodec::fromConfig);
    register(Lz4Codec.ID, Lz4Codec::fromConfig);
    register(Crc32Codec.ID, Crc32Codec::fromConfig);
    register(Adler32Codec.ID, Adler32Codec::fromConfig);
    register(Crc32cCodec.ID, Crc32cCodec::fromConfig);
    register(Fletcher32Codec.ID, Fletcher32Codec::fromConfig);

    // blosc (codec/blosc)
    register(BloscCodec.ID, BloscCodec::fromConfig);

    // filters and object codecs (codec/filter)
    register(Delta.ID, Delta::fromConfig);
    register(FixedScaleOffset.ID, FixedScaleOffset::fromConfig);
    register(Quantize.ID, Quantize::fromConfig);
    register(AsType.ID, AsType::fromConfig);
    register(PackBits.ID, config -> new PackBits());
    register(Categorize.ID, Categorize::fromConfig);
    register(BitRound.ID, BitRound::fromConfig);
    register(Shuffle.ID, Shuffle::fromConfig);
    register(VLenUtf8.ID, config -> new VLenUtf8());
    register(VLenBytes.ID, config -> new VLenBytes());
    register(Json2.ID, Json2::fromConfig);

  }

  private CodecRegistry() {}

  private static void register(String id, Factory factory) {
    if (BY_ID.put(id, factory) != null) {
      throw new IllegalStateException("codec id registered twice: " + id);
    }
  }

  /** The ids this build understands. */
  public static Set<String> ids() {
    return Collections.unmodifiableSet(new TreeSet<>(BY_ID.keySet()));
  }

  /** The codec a numcodecs configuration describes. */
  public static Codec fromConfig(JsonNode config) throws CodecException {
    if (config == null || !config.isObject()) {
      throw new CodecException("codec configuration must be a JSON object, got " + config);
    }
    JsonNode id = config.get("id");
    if (id == null || !id.isTextual()) {
      throw new CodecException("codec configuration has no \"id\": " + config);
    }
    Factory factory = BY_ID.get(id.asText());
    if (factory == null) {
      throw new CodecException(
          "unknown codec id '" + id.asText() + "' (supported: " + String.join(", ", ids()) + ")");
    }
    return factory.create(config);
  }
}
