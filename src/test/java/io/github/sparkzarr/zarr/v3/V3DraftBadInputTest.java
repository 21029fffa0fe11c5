package io.github.sparkzarr.zarr.v3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.ZarrFormat;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.metadata.ArrayDocuments;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.MemoryStore;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * Broken 2022 v3 draft stores: each is a ZarrException naming the store, the key and the problem;
 * plus the format option and the metadata documents Spark ships to executors.
 */
class V3DraftBadInputTest {
  private static final String ENTRY = "{\"zarr_format\":\"https://purl.org/zarr/spec/protocol/core/3.0\","
      + "\"metadata_encoding\":\"https://purl.org/zarr/spec/protocol/core/3.0\",\"metadata_key_suffix\":\".json\","
      + "\"extensions\":[]}";
  private static final String ARRAY_KEY = "meta/root/a.array.json";

  private static ObjectNode array() throws Exception {
    return (ObjectNode) Json.parse(("{\"shape\":[4],\"data_type\":\"<i4\",\"chunk_grid\":{\"type\":\"regular\","
        + "\"chunk_shape\":[2],\"separator\":\"/\"},\"chunk_memory_layout\":\"C\",\"fill_value\":0,"
        + "\"compressor\":{\"codec\":\"https://purl.org/zarr/spec/codec/zlib/1.0\",\"configuration\":{\"level\":1}},"
        + "\"attributes\":{},\"extensions\":[]}").getBytes(StandardCharsets.UTF_8), "test", ARRAY_KEY);
  }

  private static MemoryStore store(String entry, byte[] arrayDoc) {
    MemoryStore store = new MemoryStore("mem://draft");
    store.set("zarr.json", entry.getBytes(StandardCharsets.UTF_8));
    store.set(ARRAY_KEY, arrayDoc);
    return store;
  }

  private static void openFails(MemoryStore store, String key, String expected) {
    ZarrException e = assertThrows(ZarrException.class, () -> ZarrHierarchy.open(store).openArray("a"));
    assertEquals(key, e.key());
    assertTrue(e.getMessage().contains("mem://draft"), e.getMessage());
    assertTrue(e.getMessage().toLowerCase().contains(expected), e.getMessage());
  }

  private static void arrayFails(Consumer<ObjectNode> change, String expected) throws Exception {
    ObjectNode doc = array();
    change.accept(doc);
    openFails(store(ENTRY, Json.write(doc)), ARRAY_KEY, expected);
  }

  @Test
  void badArrayDocumentsNameTheProblem() throws Exception {
    openFails(store(ENTRY, "{\"shape\": [4".getBytes(StandardCharsets.UTF_8)), ARRAY_KEY, "malformed json");
    arrayFails(d -> d.remove("shape"), "\"shape\" is missing");
    arrayFails(d -> d.put("data_type", "<q9"), "data_type");
    arrayFails(d -> d.put("data_type", "|O"), "object arrays are not supported");
    arrayFails(d -> d.put("chunk_memory_layout", "X"), "chunk_memory_layout");
    arrayFails(d -> d.remove("fill_value"), "fill_value");
    arrayFails(d -> ((ObjectNode) d.get("chunk_grid")).put("type", "rectangular"), "chunk_grid");
    arrayFails(d -> ((ObjectNode) d.get("chunk_grid")).put("separator", "-"), "separator");
    arrayFails(d -> ((ObjectNode) d.get("compressor")).put("codec", "https://purl.org/zarr/spec/codec/frob/1.0"),
        "unknown codec");
    arrayFails(d -> d.putArray("storage_transformers").addObject().put("type", "sharding"), "storage_transformers");
    arrayFails(d -> d.putArray("extensions").addObject().put("extension", "x").put("must_understand", true),
        "unsupported extension");
  }

  @Test
  void anEntryPointExtensionWeMustUnderstandIsRefused() {
    MemoryStore store = new MemoryStore("mem://draft");
    store.set("zarr.json", ENTRY.replace("[]", "[{\"extension\":\"https://x\",\"must_understand\":true}]")
        .getBytes(StandardCharsets.UTF_8));
    ZarrException e = assertThrows(ZarrException.class, () -> ZarrHierarchy.open(store));
    assertEquals("zarr.json", e.key());
    assertTrue(e.getMessage().contains("unsupported extension"), e.getMessage());
  }

  @Test
  void aCorruptChunkNamesItsDataKey() throws Exception {
    MemoryStore store = store(ENTRY, Json.write(array()));
    store.set("data/root/a/c1", new byte[] {0x78, 0x01, 0x00});
    ZarrArray a = ZarrHierarchy.open(store).openArray("a");
    ZarrException e = assertThrows(ZarrException.class, a::readAll);
    assertEquals("data/root/a/c1", e.key());
    assertTrue(e.getMessage().contains("cannot decode chunk"), e.getMessage());
  }

  @Test
  void theDraftOptionNeedsTheEntryPoint() throws Exception {
    assertEquals(ZarrFormat.V3_DRAFT, ZarrFormat.parse("3draft"));
    assertEquals(ZarrFormat.V3_DRAFT, ZarrFormat.parse("V3-Draft"));
    MemoryStore store = new MemoryStore("mem://draft");
    store.set("zarr.json", "{\"zarr_format\":3,\"node_type\":\"group\"}".getBytes(StandardCharsets.UTF_8));
    ZarrException e = assertThrows(ZarrException.class,
        () -> ZarrHierarchy.open(store, ZarrFormat.V3_DRAFT).openArray("a"));
    assertEquals("zarr.json", e.key());
    assertTrue(e.getMessage().contains("no v3 draft hierarchy"), e.getMessage());
    assertEquals(Optional.of(ZarrHierarchy.NodeType.GROUP), ZarrHierarchy.open(store).nodeType(""),
        "a final v3 zarr.json is not the draft's entry point");
  }

  @Test
  void writingACodecTheDraftCannotNameIsRefused() throws Exception {
    MemoryStore store = new MemoryStore("mem://draft");
    ObjectNode doc = array();
    doc.set("compressor", null);
    store.set("zarr.json", ENTRY.getBytes(StandardCharsets.UTF_8));
    store.set(ARRAY_KEY, Json.write(doc));
    ArrayMetadata plain = ZarrHierarchy.open(store).openArray("a").metadata();
    ObjectNode zstd = (ObjectNode) Json.parse("{\"id\":\"zstd\",\"level\":1}".getBytes(StandardCharsets.UTF_8), "", "");
    ArrayMetadata withZstd = new ArrayMetadata(3, plain.shape(), plain.chunkShape(), plain.dataType(),
        plain.fillValue(), new V2ChunkCodec(plain.dataType(), false, List.of(), (BytesCodec) CodecRegistry.fromConfig(zstd)),
        plain.chunkKeyEncoding(), null, Json.object());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> ZarrHierarchy.writeArrayV3Draft(new MemoryStore(), "b", withZstd));
    assertTrue(e.getMessage().contains("no codec 'zstd'"), e.getMessage());
  }

  @Test
  void shippedDocumentsKeepWhereTheChunksAre() throws Exception {
    MemoryStore store = store(ENTRY, Json.write(array()));
    ZarrArray a = ZarrHierarchy.open(store).openArray("a");
    a.write(new long[] {0}, ChunkData.ofBytes(a.memoryType(), new int[] {4}, new byte[] {1, 0, 0, 0, 2, 0, 0, 0,
        3, 0, 0, 0, 4, 0, 0, 0}));
    ArrayMetadata shipped = ArrayDocuments.read(3, ArrayDocuments.metadata(a.metadata()), Json.object(), "", "a");
    ZarrArray rebuilt = new ZarrArray(store, "a", shipped);
    assertEquals("data/root/a/c1", rebuilt.chunkKey(new long[] {1}));
    assertArrayEquals(a.readAll().bytes(), rebuilt.readAll().bytes());
  }
}
