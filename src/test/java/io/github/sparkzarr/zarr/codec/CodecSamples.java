package io.github.sparkzarr.zarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sparkzarr.zarr.codec.checksum.Adler32Codec;
import io.github.sparkzarr.zarr.codec.checksum.Checksum32Codec.Location;
import io.github.sparkzarr.zarr.codec.checksum.Crc32Codec;
import io.github.sparkzarr.zarr.codec.checksum.Crc32cCodec;
import io.github.sparkzarr.zarr.codec.checksum.Fletcher32Codec;
import io.github.sparkzarr.zarr.codec.compress.Bz2Codec;
import io.github.sparkzarr.zarr.codec.compress.GzipCodec;
import io.github.sparkzarr.zarr.codec.compress.Lz4Codec;
import io.github.sparkzarr.zarr.codec.compress.LzmaCodec;
import io.github.sparkzarr.zarr.codec.compress.ZlibCodec;
import io.github.sparkzarr.zarr.codec.compress.ZstdCodec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** The codec configurations and inputs the compressor and checksum tests share. */
public final class CodecSamples {
  public static final ObjectMapper JSON = new ObjectMapper();

  private CodecSamples() {}

  /** Every compressor and checksum, in several configurations. */
  public static List<BytesCodec> codecs() throws Exception {
    return List.of(
        new ZlibCodec(1),
        new ZlibCodec(9),
        new ZlibCodec(0),
        new ZlibCodec(-1),
        new GzipCodec(1),
        new GzipCodec(9),
        new GzipCodec(0),
        new Bz2Codec(1),
        new Bz2Codec(9),
        new LzmaCodec(LzmaCodec.FORMAT_XZ, -1, null, null),
        new LzmaCodec(LzmaCodec.FORMAT_XZ, 1, 1L, null),
        new LzmaCodec(LzmaCodec.FORMAT_XZ, 10, 0x80000000L | 3, null),
        new LzmaCodec(LzmaCodec.FORMAT_XZ, 0, null, json("[{\"id\":3,\"dist\":2},{\"id\":33}]")),
        new LzmaCodec(LzmaCodec.FORMAT_ALONE, -1, null, null),
        new LzmaCodec(LzmaCodec.FORMAT_ALONE, -1, 2L, null),
        new LzmaCodec(
            LzmaCodec.FORMAT_ALONE, -1, null,
            json("[{\"id\":4611686018427387905,\"preset\":1,\"lc\":4,\"pb\":0}]")),
        new LzmaCodec(LzmaCodec.FORMAT_RAW, -1, null, json("[{\"id\":33,\"preset\":1}]")),
        new LzmaCodec(
            LzmaCodec.FORMAT_RAW, -1, null,
            json("[{\"id\":3,\"dist\":4},{\"id\":33,\"dict_size\":1048576,\"mode\":1,"
                + "\"nice_len\":32,\"mf\":4,\"depth\":8}]")),
        new ZstdCodec(0, false),
        new ZstdCodec(1, false),
        new ZstdCodec(-5, false),
        new ZstdCodec(19, false),
        new ZstdCodec(3, true),
        new Lz4Codec(1),
        new Lz4Codec(50),
        new Crc32Codec(Location.START),
        new Crc32Codec(Location.END),
        new Adler32Codec(Location.START),
        new Adler32Codec(Location.END),
        new Crc32cCodec(Location.START),
        Crc32cCodec.v3(),
        new Fletcher32Codec());
  }

  /** Inputs from empty to a few hundred kB, compressible and not. */
  public static Map<String, byte[]> inputs() {
    Map<String, byte[]> inputs = new LinkedHashMap<>();
    inputs.put("empty", new byte[0]);
    inputs.put("one", new byte[] {42});
    inputs.put("odd", "zarr!".getBytes(StandardCharsets.US_ASCII));
    inputs.put("random", random(10_000, 1));
    inputs.put("ints", ints(50_000));
    inputs.put("zeros", new byte[300_000]);
    return inputs;
  }

  public static byte[] random(int size, long seed) {
    byte[] b = new byte[size];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** 0, 1, 2, ... as little-endian int32, like numpy's arange. */
  public static byte[] ints(int count) {
    ByteBuffer b = ByteBuffer.allocate(count * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < count; i++) {
      b.putInt(i);
    }
    return b.array();
  }

  public static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(text, e);
    }
  }
}
