package io.github.sparkzarr.spark.reliability;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.SparkTestBase;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A few hostile stores read through Spark: the query fails (at load for bad metadata, in the task
 * for bad chunks) with an error naming the store and the key, and options cannot reach outside
 * the store.
 */
class HostileStoresSparkTest extends SparkTestBase {
  private static final Path HOSTILE = Path.of("src/test/resources/corpus/hostile");

  @ParameterizedTest
  @CsvSource({
      "v2_dtype_number, a/.zarray, dtype",
      "v3_shape_product_overflows_long, a/zarr.json, elements",
      "v2_zlib_chunk_truncated, a/1, zlib",
      "v2_blosc_header_claims_2gib, a/1, blosc",
      "v2_vlen_bz2_bomb_1gib, a/0, bz2",
      "v1_zlib_bomb, a/1, zlib",
      "v3_shard_overlapping, a/c/0, overlap",
      "v3_shard_offset_outside_partial, a/c/0, outside",
      "v3draft_shape_product_overflows_long, meta/root/a.array.json, elements",
      "v3draft_bz2_bomb, data/root/a/c1, bz2"})
  void theQueryFailsNamingStoreAndKey(String store, String key, String problem) {
    String dir = HOSTILE.resolve(store).toAbsolutePath().toString();
    Exception e = assertThrows(Exception.class, () -> {
      var df = spark().read().format("zarr").option("array", "a").load(dir);
      // The partial case reads 4 of the shard's 16 elements: a pushed-down filter.
      df = store.endsWith("_partial") ? df.where("dim_0 >= 4 AND dim_0 < 8") : df;
      df.collect();
    });
    String text = Failures.fullText(e);
    assertTrue(text.contains(store) && text.contains("'" + key + "'")
        && text.toLowerCase().contains(problem), text);
  }

  /** Each escaping array option, in a v2 store and in a v3 draft store (meta/root/, data/root/). */
  static Stream<Arguments> escapingArrayOptions() {
    return Stream.of("v2_zlib_chunk_truncated", "v3draft_zlib_chunk_truncated")
        .flatMap(store -> Stream.of("../v2_dtype_number/a", "a/../../x", "a\\..\\..\\x", "./a")
            .map(array -> Arguments.of(store, array)));
  }

  @ParameterizedTest
  @MethodSource("escapingArrayOptions")
  void theArrayOptionCannotLeaveTheStore(String store, String array) {
    String dir = HOSTILE.resolve(store).toAbsolutePath().toString();
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> spark().read().format("zarr").option("array", array).load(dir).schema());
    assertTrue(e.getMessage().contains("'.' or '..'"), e.getMessage());
  }
}
