package io.github.sparkzarr.zarr.v3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.store.CountingStore;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Reads the sharded arrays zarr-java wrote (copied from shared/fixtures/zarr-v3-sharded): whole
 * arrays, sample elements, and regions, and proves region reads fetch only the inner chunks they
 * need.
 */
class ShardedFixtureTest {
  static final Path DIR = Path.of("src/test/resources/corpus/v3-sharded");

  static HadoopStore store() throws Exception {
    return new HadoopStore(DIR.toUri().toString(), new Configuration());
  }

  @TestFactory
  List<DynamicTest> everyArrayMatchesZarrJava() throws Exception {
    JsonNode manifest = V3CorpusTest.JSON.readTree(DIR.resolve("manifest.json").toFile());
    List<DynamicTest> tests = new ArrayList<>();
    for (JsonNode entry : manifest.get("entries")) {
      tests.add(DynamicTest.dynamicTest(entry.get("path").asText(), () -> check(entry)));
    }
    assertEquals(8, tests.size());
    return tests;
  }

  private static void check(JsonNode entry) throws Exception {
    JsonNode expected = entry.get("expected");
    byte[] raw = Files.readAllBytes(DIR.resolve(expected.get("raw").get("file").asText()));
    try (HadoopStore s = store()) {
      ZarrArray array = ZarrArray.open(s, entry.get("path").asText());
      long[] shape = V3CorpusTest.JSON.treeToValue(expected.get("shape"), long[].class);
      assertArrayEquals(shape, array.metadata().shape());
      assertArrayEquals(raw, array.readAll().bytes(), "whole array");
      int size = array.memoryType().size();
      for (JsonNode e : expected.get("elements")) {
        long[] at = V3CorpusTest.JSON.treeToValue(e.get("index"), long[].class);
        int[] one = new int[at.length];
        Arrays.fill(one, 1);
        byte[] got = array.read(at, one).bytes();
        ByteBuffer b = ByteBuffer.wrap(got).order(ByteOrder.LITTLE_ENDIAN);
        double value = switch (expected.get("numpy_dtype").asText()) {
          case "<i4" -> b.getInt();
          case "<u2" -> b.getShort() & 0xffff;
          case "<f4" -> b.getFloat();
          default -> b.getDouble();
        };
        assertEquals(e.get("value").asDouble(), value, "element " + e.get("index"));
        assertEquals(size, got.length);
      }
      // every region of a sliding window matches the raw file, across shard and inner chunk edges
      for (long offset = 0; offset + 3 <= shape[0]; offset += 5) {
        long[] start = new long[shape.length];
        int[] box = new int[shape.length];
        start[0] = offset;
        box[0] = 3;
        for (int d = 1; d < shape.length; d++) {
          start[d] = shape[d] / 3;
          box[d] = (int) (shape[d] / 2);
        }
        assertArrayEquals(slice(raw, shape, start, box, size), array.read(start, box).bytes(),
            "region at " + Arrays.toString(start));
      }
    }
  }

  /** The C-order bytes of the box [start, start+box) of a C-order array. */
  static byte[] slice(byte[] raw, long[] shape, long[] start, int[] box, int size) {
    int n = (int) ChunkData.count(box);
    byte[] out = new byte[n * size];
    int[] idx = new int[box.length];
    for (int i = 0; i < n; i++) {
      long src = 0;
      for (int d = 0; d < box.length; d++) {
        src = src * shape[d] + start[d] + idx[d];
      }
      System.arraycopy(raw, (int) src * size, out, i * size, size);
      for (int d = box.length - 1; d >= 0 && ++idx[d] == box[d]; d--) {
        idx[d] = 0;
      }
    }
    return out;
  }

  @Test
  void regionReadFetchesTheIndexAndOneInnerChunkOnly() throws Exception {
    // int32_raw_bytes_be: shards 8x10 of uncompressed 4x5 inner chunks (80 bytes each), index of
    // 4 entries with crc32c at the end (4 * 16 + 4 = 68 bytes); a shard is 4 * 80 + 68 = 388 bytes.
    try (CountingStore s = new CountingStore(store())) {
      ZarrArray array = ZarrArray.open(s, "arrays/int32_raw_bytes_be");
      String shard = array.chunkKey(new long[] {1, 1});
      assertEquals(388L, s.size(shard).orElseThrow());
      s.reset();
      ChunkData region = array.read(new long[] {13, 16}, new int[] {2, 3});
      assertEquals(68 + 80, s.bytesRead(), "the index and one inner chunk");
      assertEquals(3, s.requests(), "size, index range, inner chunk range");
      byte[] raw = Files.readAllBytes(DIR.resolve(
          "expected/7d314dec59210768b4b84822abb55d4431662b1864161b1901dbafffd1c87e3a.bin"));
      assertArrayEquals(slice(raw, new long[] {16, 20}, new long[] {13, 16}, new int[] {2, 3}, 4), region.bytes());
      s.reset();
      array.readChunk(new long[] {1, 1});
      assertEquals(388, s.bytesRead(), "a whole-chunk read fetches the whole shard");
    }
  }

  @Test
  void indexAtStartIsReadFromTheStartAndMissingInnerChunksCostNothing() throws Exception {
    try (CountingStore s = new CountingStore(store())) {
      ZarrArray sparse = ZarrArray.open(s, "arrays/int32_sparse_fill_m1");
      s.reset();
      ChunkData region = sparse.read(new long[] {4, 5}, new int[] {4, 5});
      assertTrue(s.bytesRead() <= 68, "only the index of the shard, got " + s.bytesRead());
      int[] values = new int[20];
      ByteBuffer.wrap(region.bytes()).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(values);
      int[] fill = new int[20];
      Arrays.fill(fill, -1);
      assertArrayEquals(fill, values);
    }
  }
}
