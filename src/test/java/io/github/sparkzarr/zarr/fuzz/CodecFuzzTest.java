package io.github.sparkzarr.zarr.fuzz;

import static io.github.sparkzarr.zarr.fuzz.Fuzzing.onlyDocumentedFailures;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V2Metadata;
import io.github.sparkzarr.zarr.metadata.V3Metadata;
import io.github.sparkzarr.zarr.store.MemoryStore;
import io.github.sparkzarr.zarr.store.Store;
import java.nio.charset.StandardCharsets;

/**
 * Each codec decoder on arbitrary chunk bytes, through the chunk codec chain an array with that
 * codec uses (so sizes, filters and checksums are checked as in a real read). Seeds:
 * CodecFuzzTestInputs/&lt;method&gt;/ (integration-tests/make_fuzz_seeds.py).
 */
class CodecFuzzTest {
  private static final String LOCATION = "memory://fuzz";

  /** A v2 int32 array of 16-element chunks with this compressor and these filters. */
  private static ArrayMetadata v2(String dtype, String compressor, String filters) {
    String json = "{\"zarr_format\":2,\"shape\":[32],\"chunks\":[16],\"dtype\":\"" + dtype + "\","
        + "\"compressor\":" + compressor + ",\"fill_value\":null,\"order\":\"C\",\"filters\":"
        + filters + "}";
    try {
      return V2Metadata.readArray(Json.parseObject(bytes(json), LOCATION, ".zarray"), null,
          LOCATION, ".zarray");
    } catch (ZarrException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ArrayMetadata v3(String codecs) {
    String json = "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[16],\"data_type\":"
        + "\"int32\",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[16]}},"
        + "\"chunk_key_encoding\":{\"name\":\"default\"},\"fill_value\":0,\"codecs\":" + codecs + "}";
    try {
      return V3Metadata.readArray(Json.parseObject(bytes(json), LOCATION, "zarr.json"),
          LOCATION, "zarr.json");
    } catch (ZarrException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static final ArrayMetadata BLOSC =
      v2("<i4", "{\"id\":\"blosc\",\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":1}", "null");
  private static final ArrayMetadata ZLIB = v2("<i4", "{\"id\":\"zlib\",\"level\":1}", "null");
  private static final ArrayMetadata GZIP = v2("<i4", "{\"id\":\"gzip\",\"level\":1}", "null");
  private static final ArrayMetadata BZ2 = v2("<i4", "{\"id\":\"bz2\",\"level\":1}", "null");
  private static final ArrayMetadata LZMA = v2("<i4", "{\"id\":\"lzma\",\"format\":1,"
      + "\"check\":-1,\"preset\":null,\"filters\":null}", "null");
  private static final ArrayMetadata ZSTD = v2("<i4", "{\"id\":\"zstd\",\"level\":1}", "null");
  private static final ArrayMetadata LZ4 = v2("<i4", "{\"id\":\"lz4\",\"acceleration\":1}", "null");
  private static final ArrayMetadata[] CHECKSUMS = {
      v2("<i4", "null", "[{\"id\":\"crc32\"}]"), v2("<i4", "null", "[{\"id\":\"adler32\"}]"),
      v2("<i4", "null", "[{\"id\":\"crc32c\"}]"), v2("<i4", "null", "[{\"id\":\"fletcher32\"}]")};
  private static final ArrayMetadata[] FILTERS = {
      v2("<i4", "null", "[{\"id\":\"delta\",\"dtype\":\"<i4\"}]"),
      v2("<f8", "null", "[{\"id\":\"fixedscaleoffset\",\"offset\":1,\"scale\":10,"
          + "\"dtype\":\"<f8\",\"astype\":\"<i2\"}]"),
      v2("|b1", "null", "[{\"id\":\"packbits\"}]"),
      v2("<i4", "null", "[{\"id\":\"shuffle\",\"elementsize\":4}]")};
  private static final ArrayMetadata[] VLEN = {
      v2("|O", "null", "[{\"id\":\"vlen-utf8\"}]"), v2("|O", "null", "[{\"id\":\"vlen-bytes\"}]"),
      v2("|O", "null", "[{\"id\":\"json2\"}]"), v2("|O", "{\"id\":\"zlib\",\"level\":1}",
          "[{\"id\":\"vlen-utf8\"}]")};
  private static final String LE_BYTES =
      "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
  private static final ArrayMetadata SHARDED = v3("[{\"name\":\"sharding_indexed\","
      + "\"configuration\":{\"chunk_shape\":[4],\"codecs\":[" + LE_BYTES + "],"
      + "\"index_codecs\":[" + LE_BYTES + ",{\"name\":\"crc32c\"}],\"index_location\":\"end\"}}]");

  private static void decode(ArrayMetadata md, byte[] data) {
    onlyDocumentedFailures(() -> md.codec().decode(data, md.chunkShape()));
  }

  @FuzzTest(maxDuration = "30s")
  void blosc(byte[] data) {
    decode(BLOSC, data);
  }

  @FuzzTest(maxDuration = "30s")
  void zlib(byte[] data) {
    decode(ZLIB, data);
  }

  @FuzzTest(maxDuration = "30s")
  void gzip(byte[] data) {
    decode(GZIP, data);
  }

  @FuzzTest(maxDuration = "30s")
  void bz2(byte[] data) {
    decode(BZ2, data);
  }

  @FuzzTest(maxDuration = "30s")
  void lzma(byte[] data) {
    decode(LZMA, data);
  }

  @FuzzTest(maxDuration = "30s")
  void zstd(byte[] data) {
    decode(ZSTD, data);
  }

  @FuzzTest(maxDuration = "30s")
  void lz4(byte[] data) {
    decode(LZ4, data);
  }

  @FuzzTest(maxDuration = "30s")
  void checksums(byte[] data) {
    for (ArrayMetadata md : CHECKSUMS) {
      decode(md, data);
    }
  }

  @FuzzTest(maxDuration = "30s")
  void filters(byte[] data) {
    for (ArrayMetadata md : FILTERS) {
      decode(md, data);
    }
  }

  @FuzzTest(maxDuration = "30s")
  void vlen(byte[] data) {
    for (ArrayMetadata md : VLEN) {
      decode(md, data);
    }
  }

  /** A whole shard, and a partial read of it (index and one inner chunk only). */
  @FuzzTest(maxDuration = "30s")
  void sharding(byte[] data) {
    decode(SHARDED, data);
    onlyDocumentedFailures(() -> {
      Store store = new MemoryStore("fuzz");
      store.set("a/c/0", data);
      new ZarrArray(store, "a", SHARDED).read(new long[] {4}, new int[] {4});
    });
  }
}
