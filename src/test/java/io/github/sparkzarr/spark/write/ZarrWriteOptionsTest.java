package io.github.sparkzarr.spark.write;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.options.ZarrWriteOptions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ZarrWriteOptionsTest {
  private static String error(Map<String, String> options) {
    return assertThrows(IllegalArgumentException.class, () -> ZarrWriteOptions.parse(options)).getMessage();
  }

  @Test
  void parsesEveryOptionCaseInsensitively() {
    ZarrWriteOptions o = ZarrWriteOptions.parse(Map.of("Dimensions", "time, lat", "CHUNKS", "24,180",
        "shape", "48,180", "compressor", "blosc", "compression_level", "7", "fill_value", "-1",
        "attributes", "{\"title\":\"t\"}", "append_dim", "time", "fs.s3a.secret.key", "hidden"));
    assertEquals(List.of("time", "lat"), o.dimensions());
    assertArrayEquals(new int[] {24, 180}, o.chunks());
    assertArrayEquals(new long[] {48, 180}, o.shape());
    assertEquals(7, o.compressorConfig().get("clevel").asInt());
    assertEquals(-1, o.fillValue().asInt());
    assertEquals("t", o.attributes().get("title").asText());
    assertEquals(3, o.zarrFormat());
    assertTrue(!o.toString().contains("hidden"), o.toString());
  }

  @Test
  void defaultsAreZstdAndNoFixedShape() {
    ZarrWriteOptions o = ZarrWriteOptions.parse(Map.of());
    assertEquals("zstd", o.compressorConfig().get("id").asText());
    assertNull(o.shape());
    assertNull(ZarrWriteOptions.parse(Map.of("compressor", "none")).compressorConfig());
  }

  @Test
  void badValuesAreClearErrors() {
    assertTrue(error(Map.of("chunk", "1")).contains("Unknown zarr write option 'chunk'"));
    assertTrue(error(Map.of("dimensions", "a,b", "chunks", "1")).contains("has 1 lengths but there are 2"));
    assertTrue(error(Map.of("chunks", "0,2")).contains("positive integers"));
    assertTrue(error(Map.of("compressor", "snappy")).contains("must be one of zstd, blosc"));
    assertTrue(error(Map.of("compressor", "lz4", "compression_level", "3")).contains("does not apply"));
    assertTrue(error(Map.of("attributes", "[1]")).contains("must be a JSON object"));
    assertTrue(error(Map.of("dimensions", "a,a")).contains("distinct names"));
    assertTrue(error(Map.of("zarr_format", "4")).contains("must be 2 or 3"));
    assertTrue(error(Map.of("dimensions", "a", "append_dim", "b")).contains("not one of the dimensions"));
  }

  @Test
  void v3IsTheDefaultAndShardsNeedIt() {
    assertEquals(3, ZarrWriteOptions.parse(Map.of()).zarrFormat());
    assertTrue(error(Map.of("zarr_format", "2", "shards", "4")).contains("needs zarr_format 3"));
    assertArrayEquals(new int[] {8, 4},
        ZarrWriteOptions.parse(Map.of("dimensions", "a,b", "shards", "8,4")).shards());
    assertTrue(error(Map.of("dimensions", "a", "shards", "8,4")).contains("2 lengths"));
  }

  /** Filters apply to floating-point types only, their dtype completed from the array's type. */
  @Test
  void filtersAreNumcodecsFiltersForFloats() {
    ZarrWriteOptions o = ZarrWriteOptions.parse(Map.of("filters",
        "[{\"id\": \"quantize\", \"digits\": 2}, {\"id\": \"astype\", \"encode_dtype\": \"<f4\"}]"));
    var f8 = io.github.sparkzarr.zarr.dtype.NumpyDtype.parse("<f8");
    assertEquals("[{\"id\":\"quantize\",\"digits\":2,\"dtype\":\"<f8\"}, "
        + "{\"id\":\"astype\",\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\"}]", o.filters(f8).toString());
    assertEquals(List.of(), o.filters(io.github.sparkzarr.zarr.dtype.NumpyDtype.parse("<i4")));
    assertEquals(List.of(), ZarrWriteOptions.parse(Map.of()).filters(f8));
    assertTrue(error(Map.of("filters", "{\"id\": \"bitround\"}")).contains("must be a JSON list"));
    assertTrue(error(Map.of("filters", "[{\"id\": \"zstd\"}]")).contains("one of [bitround"));
    assertTrue(error(Map.of("filters", "[{\"id\": \"bitround\"}]")).contains("keepbits"));
    assertTrue(error(Map.of("filters", "[{\"id\": \"bitround\", \"keepbits\": 99}]")).contains("too large"));
  }
}
