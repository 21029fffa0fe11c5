package io.github.sparkzarr.zarr.v3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.MemoryStore;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** Broken v3 metadata and chunks: each is a ZarrException naming the store, the key and the problem. */
class V3BadInputTest {

  private static ObjectNode array(String codecs) throws Exception {
    return (ObjectNode) Json.parse(("{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[4,4],"
        + "\"data_type\":\"int32\",\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[4,4]}},"
        + "\"chunk_key_encoding\":{\"name\":\"default\"},\"fill_value\":0,\"codecs\":" + codecs + "}")
        .getBytes(StandardCharsets.UTF_8), "test", "zarr.json");
  }

  private static final String BYTES = "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]";
  private static final String SHARDED = "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[2,2],"
      + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],"
      + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],\"index_location\":\"end\"}}]";

  private static ZarrException openFails(ObjectNode doc, String expected) throws Exception {
    MemoryStore store = new MemoryStore("mem://bad");
    store.set("a/zarr.json", Json.write(doc));
    ZarrException e = assertThrows(ZarrException.class, () -> ZarrHierarchy.open(store).openArray("a"));
    assertEquals("a/zarr.json", e.key());
    assertTrue(e.getMessage().contains("mem://bad"), e.getMessage());
    assertTrue(e.getMessage().toLowerCase().contains(expected), e.getMessage());
    return e;
  }

  private static ObjectNode with(String codecs, Consumer<ObjectNode> change) throws Exception {
    ObjectNode doc = array(codecs);
    change.accept(doc);
    return doc;
  }

  @Test
  void badMetadataNamesTheProblem() throws Exception {
    openFails(array("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"frobnicate\"}]"), "unknown codec 'frobnicate'");
    openFails(with(BYTES, d -> d.put("data_type", "int128")), "unknown data_type");
    openFails(with(BYTES, d -> d.putObject("future_thing").put("must_understand", true)), "unsupported extension \"future_thing\"");
    openFails(with(BYTES, d -> d.put("node_type", "table")), "node_type");
    openFails(with(BYTES, d -> d.put("zarr_format", 4)), "zarr_format");
    openFails(with(BYTES, d -> d.putArray("storage_transformers").addObject().put("name", "chunk-manifest")), "storage transformer");
    openFails(with(BYTES, d -> d.put("fill_value", "lots")), "fill_value");
    openFails(with(BYTES, d -> d.putObject("chunk_grid").put("name", "rectilinear")), "chunk_grid");
    openFails(array("[{\"name\":\"gzip\",\"configuration\":{\"level\":1}}]"), "no array→bytes codec");
    openFails(array("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}}]"), "must come before");
    openFails(array(SHARDED.replace("[2,2]", "[3,3]")), "not a multiple");
  }

  private static String numcodecs(String name, String config, boolean first) {
    String codec = "{\"name\":\"numcodecs." + name + "\",\"configuration\":" + config + "}";
    String bytes = BYTES.substring(1, BYTES.length() - 1);
    return first ? "[" + codec + "," + bytes + "]" : "[" + bytes + "," + codec + "]";
  }

  /** zarr-python 3's numcodecs.* codecs (the array is int32). */
  @Test
  void numcodecsCodecsThatCannotWorkNameTheProblem() throws Exception {
    openFails(array(numcodecs("zfpy", "{\"mode\":4}", true)), "unsupported codec 'numcodecs.zfpy'");
    openFails(array(numcodecs("delta", "{\"dtype\":\"float32\"}", true)),
        "'numcodecs.delta' decodes to <f4 elements, but the chunk holds <i4");
    openFails(array(numcodecs("bitround", "{\"keepbits\":4}", true)), "'bitround' rounds only floats");
    openFails(array(numcodecs("delta", "{\"dtype\":\"int32\"}", false)), "must come before");
    openFails(array(numcodecs("zlib", "{\"id\":\"gzip\",\"level\":1}", false)), "does not match");
    openFails(array(numcodecs("zlib", "{\"level\":\"high\"}", false)), "codec 'numcodecs.zlib'");
    openFails(array(numcodecs("fixedscaleoffset",
        "{\"dtype\":\"<i4\",\"astype\":\">i2\",\"offset\":0,\"scale\":1}", true)), "big-endian");
    String astype = "{\"name\":\"numcodecs.astype\",\"configuration\":{\"encode_dtype\":\"int16\",\"decode_dtype\":\"int32\"}}";
    openFails(array("[" + astype + "," + SHARDED.substring(1)), "'sharding_indexed' after 'numcodecs.astype' is not supported");
    String scale = "{\"name\":\"scale_offset\",\"configuration\":{\"offset\":1}}";
    openFails(array("[" + scale + "," + SHARDED.substring(1)), "'sharding_indexed' after 'scale_offset'");
  }

  @Test
  void ignorableExtensionsAreIgnored() throws Exception {
    MemoryStore store = new MemoryStore();
    ObjectNode doc = array(BYTES);
    doc.putObject("future_thing").put("must_understand", false);
    doc.putArray("storage_transformers").addObject().put("name", "x").put("must_understand", false);
    store.set("a/zarr.json", Json.write(doc));
    assertEquals(3, ZarrHierarchy.open(store).openArray("a").metadata().zarrFormat());
  }

  @Test
  void badChunksNameTheKey() throws Exception {
    MemoryStore store = new MemoryStore("mem://chunks");
    store.set("a/zarr.json", Json.write(array(BYTES)));
    store.set("a/c/0/0", new byte[60]);
    ZarrArray a = ZarrArray.open(store, "a");
    ZarrException e = assertThrows(ZarrException.class, () -> a.readChunk(new long[] {0, 0}));
    assertEquals("a/c/0/0", e.key());
    assertTrue(e.getMessage().contains("60 bytes, expected 64"), e.getMessage());
  }

  /** A 4x4 shard of 2x2 inner chunks: 4 * 16 data bytes, then a 64-byte index. */
  private static MemoryStore shard(long[][] entries) throws Exception {
    MemoryStore store = new MemoryStore("mem://shard");
    store.set("a/zarr.json", Json.write(array(SHARDED)));
    ByteBuffer b = ByteBuffer.allocate(64 + 64).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < 16; i++) {
      b.putInt(i);
    }
    for (long[] e : entries) {
      b.putLong(e[0]).putLong(e[1]);
    }
    store.set("a/c/0/0", b.array());
    return store;
  }

  @Test
  void shardIndexOutsideOrOverlappingIsAnError() throws Exception {
    long[][] good = {{0, 16}, {16, 16}, {32, 16}, {48, 16}};
    int[] values = new int[16];
    ByteBuffer.wrap(ZarrArray.open(shard(good), "a").readAll().bytes()).order(ByteOrder.LITTLE_ENDIAN)
        .asIntBuffer().get(values);
    assertArrayEquals(new int[] {0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15}, values);
    long[][] outside = {{0, 16}, {16, 16}, {32, 16}, {60, 16}};
    long[][] overlap = {{0, 16}, {8, 16}, {32, 16}, {48, 16}};
    long[][] intoIndex = {{0, 16}, {16, 16}, {32, 16}, {100, 16}};
    for (long[][] bad : Arrays.asList(outside, overlap, intoIndex)) {
      for (boolean region : new boolean[] {false, true}) {
        ZarrArray a = ZarrArray.open(shard(bad), "a");
        ZarrException e = assertThrows(ZarrException.class, () -> {
          if (region) {
            a.read(new long[] {2, 2}, new int[] {2, 2});
          } else {
            a.readChunk(new long[] {0, 0});
          }
        });
        assertEquals("a/c/0/0", e.key());
        assertTrue(e.getMessage().contains("outside the shard") || e.getMessage().contains("overlap"), e.getMessage());
      }
    }
  }

  @Test
  void shardShorterThanItsIndexIsAnError() throws Exception {
    MemoryStore store = shard(new long[][] {{0, 16}, {16, 16}, {32, 16}, {48, 16}});
    store.set("a/c/0/0", new byte[10]);
    ZarrException e = assertThrows(ZarrException.class, () -> ZarrArray.open(store, "a").readAll());
    assertTrue(e.getMessage().contains("fewer than its 64-byte index"), e.getMessage());
  }
}
