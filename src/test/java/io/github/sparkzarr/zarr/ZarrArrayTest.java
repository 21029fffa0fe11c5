package io.github.sparkzarr.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.BlockSink;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscCname;
import io.github.sparkzarr.zarr.codec.blosc.BloscCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscShuffle;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.codec.v3.V3Codecs;
import io.github.sparkzarr.zarr.codec.compress.GzipCodec;
import io.github.sparkzarr.zarr.codec.compress.ZstdCodec;
import io.github.sparkzarr.zarr.codec.v3.ArrayToArrayCodec;
import io.github.sparkzarr.zarr.codec.v3.BytesToBytesCodec;
import io.github.sparkzarr.zarr.codec.v3.EndianCodec;
import io.github.sparkzarr.zarr.codec.v3.TransposeCodec;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.HadoopStore;
import io.github.sparkzarr.zarr.store.MemoryStore;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ZarrArrayTest {

  private static ArrayMetadata int32(long[] shape, int[] chunks, String dtype, boolean fortran, int fill)
      throws Exception {
    DataType type = NumpyDtype.parse(dtype);
    return new ArrayMetadata(2, shape, chunks, type,
        FillValue.parseV2(Json.nodes().numberNode(fill), type),
        new V2ChunkCodec(type, fortran, List.of(), null), ChunkKeyEncoding.v2('.'),
        List.of("y", "x"), Json.object());
  }

  /** A 5x7 array of value 100*i+j, written chunk by chunk from the whole. */
  private static int[] writeRamp(ZarrArray a) throws Exception {
    long[] shape = a.metadata().shape();
    int[] chunk = a.metadata().chunkShape();
    int[] values = new int[(int) (shape[0] * shape[1])];
    for (int i = 0; i < shape[0]; i++) {
      for (int j = 0; j < shape[1]; j++) {
        values[(int) (i * shape[1] + j)] = 100 * i + j;
      }
    }
    long[] grid = a.metadata().gridShape();
    for (long ci = 0; ci < grid[0]; ci++) {
      for (long cj = 0; cj < grid[1]; cj++) {
        if (ci == 1 && cj == 1) {
          continue; // leave one chunk missing
        }
        ByteBuffer b = ByteBuffer.allocate(chunk[0] * chunk[1] * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < chunk[0]; i++) {
          for (int j = 0; j < chunk[1]; j++) {
            long gi = ci * chunk[0] + i;
            long gj = cj * chunk[1] + j;
            b.putInt(gi < shape[0] && gj < shape[1] ? values[(int) (gi * shape[1] + gj)] : -7);
          }
        }
        a.writeChunk(new long[] {ci, cj}, ChunkData.ofBytes(a.memoryType(), chunk, b.array()));
      }
    }
    return values;
  }

  private static int[] ints(ChunkData c) {
    int[] out = new int[c.elementCount()];
    ByteBuffer.wrap(c.bytes()).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
    return out;
  }

  @Test
  void roundTripsEveryLayoutWithEdgeAndMissingChunks() throws Exception {
    for (String dtype : new String[] {"<i4", ">i4"}) {
      for (boolean fortran : new boolean[] {false, true}) {
        MemoryStore store = new MemoryStore();
        ZarrArray written = ZarrHierarchy.writeArrayV2(store, "g/a",
            int32(new long[] {5, 7}, new int[] {2, 3}, dtype, fortran, 42));
        int[] values = writeRamp(written);
        ZarrArray a = ZarrArray.open(store, "g/a");
        assertEquals(List.of("y", "x"), a.metadata().dimensionNames());
        int[] got = ints(a.readAll());
        for (int i = 0; i < 5; i++) {
          for (int j = 0; j < 7; j++) {
            boolean missing = i >= 2 && i < 4 && j >= 3 && j < 6;
            assertEquals(missing ? 42 : values[i * 7 + j], got[i * 7 + j],
                dtype + " fortran=" + fortran + " at " + i + "," + j);
          }
        }
        int[] region = ints(a.read(new long[] {1, 2}, new int[] {3, 2}));
        assertArrayEquals(new int[] {102, 103, 202, 42, 302, 42}, region);
        assertFalse(a.readChunkIfPresent(new long[] {1, 1}).isPresent());
        assertTrue(store.exists("g/a/2.2"));
      }
    }
  }

  @Test
  void zstdChunksDecodeIntoOneReusedBufferWithTheSameBytes() throws Exception {
    MemoryStore store = new MemoryStore("mem://zstd");
    DataType type = NumpyDtype.parse("<i4");
    ZarrArray written = ZarrHierarchy.writeArrayV2(store, "a", new ArrayMetadata(2,
        new long[] {5, 7}, new int[] {2, 3}, type, FillValue.parseV2(Json.nodes().numberNode(42), type),
        new V2ChunkCodec(type, false, List.of(), new ZstdCodec(1, false)), ChunkKeyEncoding.v2('.'),
        List.of("y", "x"), Json.object()));
    writeRamp(written);
    ZarrArray a = ZarrArray.open(store, "a");
    DecodeBuffers buffers = new DecodeBuffers();
    byte[][] seen = new byte[1][];
    BlockSink sink = (buffer, offset, start, length) -> {
      assertEquals(0, start);
      assertEquals(2 * 3 * 4, length);
      assertTrue(seen[0] == null || seen[0] == buffer, "one buffer for every chunk");
      seen[0] = buffer;
      assertArrayEquals(a.readChunk(new long[] {0, 2}).bytes(), Arrays.copyOfRange(buffer, offset, offset + length));
    };
    for (int k = 0; k < 3; k++) {
      assertTrue(a.readChunkBlocks(new long[] {0, 2}, buffers, sink));
    }
    assertFalse(a.readChunkBlocks(new long[] {1, 1}, buffers, sink), "missing chunk");
    byte[] stored = store.get("a/0.2").orElseThrow();
    store.set("a/0.2", Arrays.copyOf(stored, stored.length - 2));
    ZarrException e = assertThrows(ZarrException.class, () -> a.readChunkBlocks(new long[] {0, 2}, buffers, sink));
    assertTrue(e.getMessage().contains("mem://zstd") && e.getMessage().contains("a/0.2"), e.getMessage());
  }

  /**
   * Filters that only work when encoding (bitround, quantize to its own type) are left out when
   * reading: blosc chunks are handed out block by block, holding the values the filter wrote. A
   * quantize that narrows to float16 is not left out: its chunks decode whole, widened back to
   * float32.
   */
  @ParameterizedTest
  @CsvSource(delimiter = ';', value = {
      "2;{\"id\": \"bitround\", \"keepbits\": 7};true",
      "2;{\"id\": \"quantize\", \"digits\": 2, \"dtype\": \"<f4\", \"astype\": \"<f4\"};true",
      "2;{\"id\": \"quantize\", \"digits\": 2, \"dtype\": \"<f4\", \"astype\": \"<f2\"};false",
      "3;{\"id\": \"bitround\", \"keepbits\": 7};true",
      "3;{\"id\": \"quantize\", \"digits\": 2, \"dtype\": \"float32\"};true",
      "3;{\"id\": \"quantize\", \"digits\": 2, \"dtype\": \"<f4\", \"astype\": \"<f2\"};false"})
  void filtersThatOnlyEncodeAreLeftOutWhenReading(int format, String filterJson, boolean leftOut) throws Exception {
    MemoryStore store = new MemoryStore("mem://filters");
    DataType type = NumpyDtype.parse("<f4");
    ObjectNode filterConfig = (ObjectNode) Json.parse(filterJson.getBytes(StandardCharsets.UTF_8), "test", "filter");
    ArrayFilter filter = (ArrayFilter) CodecRegistry.fromConfig(filterConfig);
    int[] chunk = {128, 512}; // 256 KiB: blosc splits it into blocks of 64 KiB
    FillValue fill = FillValue.parseV2(Json.nodes().numberNode(0), type);
    ZarrArray a = format == 2
        ? ZarrHierarchy.writeArrayV2(store, "a", new ArrayMetadata(2, new long[] {256, 512}, chunk, type, fill,
            new V2ChunkCodec(type, false, List.of(filter), new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 1024, 4)),
            ChunkKeyEncoding.v2('.'), List.of("y", "x"), Json.object()))
        // zarr-python 3's numcodecs.* codecs: the filter as an array→array codec, numcodecs' blosc after "bytes"
        : ZarrHierarchy.writeArrayV3(store, "a", new ArrayMetadata(3, new long[] {256, 512}, chunk, type, fill,
            V3Codecs.parse(numcodecsChain(filterConfig), type, fill, chunk),
            ChunkKeyEncoding.v3Default('/'), List.of("y", "x"), Json.object()));
    java.util.Random random = new java.util.Random(11);
    byte[][] written = new byte[2][];
    for (int c = 0; c < 2; c++) {
      ByteBuffer values = ByteBuffer.allocate(128 * 512 * 4).order(ByteOrder.LITTLE_ENDIAN);
      for (int i = 0; i < 128 * 512; i++) {
        values.putFloat(280f + i / 512 + 0.3f * (float) random.nextGaussian());
      }
      ChunkData data = ChunkData.ofBytes(type, chunk, values.array());
      a.writeChunk(new long[] {c, 0}, data);
      // what the filter stores, then widened back to float32 as zarr-python reads it
      ChunkData encoded = filter.encode(ChunkData.ofBytes(type, new int[] {128 * 512}, values.array()));
      written[c] = filter.decode(encoded, type, 128 * 512).bytes();
    }
    DecodeBuffers buffers = new DecodeBuffers();
    for (int c = 0; c < 2; c++) {
      long[] at = {c, 0};
      assertArrayEquals(written[c], a.readChunk(at).bytes(), filterJson);
      byte[] whole = a.readChunkBytes(at, buffers);
      assertArrayEquals(written[c], Arrays.copyOf(whole, written[c].length), filterJson);
      int[] pieces = {0};
      byte[] got = new byte[written[c].length];
      assertTrue(a.readChunkBlocks(at, buffers, (buffer, offset, start, length) -> {
        pieces[0]++;
        System.arraycopy(buffer, offset, got, start, length);
      }));
      assertArrayEquals(written[c], got, filterJson);
      assertEquals(leftOut ? 4 : 1, pieces[0], "blocks of 64 KiB, or the whole chunk");
    }
  }

  /** [numcodecs.{@code filter}, bytes, numcodecs.blosc lz4 with shuffle], as zarr-python 3 writes it. */
  private static com.fasterxml.jackson.databind.node.ArrayNode numcodecsChain(ObjectNode filter) {
    ObjectNode config = filter.deepCopy();
    String id = config.remove("id").asText();
    var chain = Json.nodes().arrayNode();
    chain.addObject().put("name", "numcodecs." + id).set("configuration", config);
    chain.addObject().put("name", "bytes").putObject("configuration").put("endian", "little");
    chain.addObject().put("name", "numcodecs.blosc").putObject("configuration")
        .put("cname", "lz4").put("clevel", 5).put("shuffle", 1).put("blocksize", 1024);
    return chain;
  }

  /**
   * Chunks read through one reused array (a Hadoop store on local files) from a large stored chunk
   * to smaller ones, so old bytes follow each value: every chain decodes them as reading the chunk
   * alone does, and a truncated chunk fails naming the store and key.
   */
  @ParameterizedTest
  @CsvSource({"2,none,<i4,C", "2,zstd,<i4,C", "2,blosc,<i4,C", "2,gzip,<i4,C", "2,none,>i4,C",
      "2,zstd,>i4,C", "2,blosc,>i4,C", "2,gzip,>i4,C", "3,none,>i4,C", "3,zstd,>i4,C",
      "3,blosc,>i4,C", "3,zstd,<i4,C", "2,none,<i4,F", "2,blosc,<i4,F", "2,zstd,>i4,F",
      "2,gzip,<i4,F", "3,none,<i4,F", "3,zstd,<i4,F", "3,blosc,>i4,F"})
  void chunksReadIntoAReusedArrayDecodeAsAlone(int format, String compressor, String dtype,
      char order, @TempDir java.nio.file.Path dir) throws Exception {
    HadoopStore store = new HadoopStore(dir.toUri().toString(), new Configuration());
    DataType storedType = NumpyDtype.parse(dtype);
    DataType type = storedType.littleEndian();
    BytesCodec codec = switch (compressor) {
      case "zstd" -> new ZstdCodec(1, false);
      case "blosc" -> new BloscCodec(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 1024, 4);
      case "gzip" -> new GzipCodec(1);
      default -> null;
    };
    FillValue fill = FillValue.parseV2(Json.nodes().numberNode(0), type);
    int[] chunk = {32, 16}; // not square, so that a chunk's shape and its transposed shape differ
    ZarrArray a;
    if (format == 2) {
      a = ZarrHierarchy.writeArrayV2(store, "a", new ArrayMetadata(2, new long[] {64, 64},
          chunk, storedType, FillValue.parseV2(Json.nodes().numberNode(0), storedType),
          new V2ChunkCodec(storedType, order == 'F', List.of(), codec), ChunkKeyEncoding.v2('.'), List.of("y", "x"),
          Json.object()));
    } else {
      // v3: the "bytes" codec holds the byte order
      EndianCodec bytes = storedType.needsSwap() ? new EndianCodec(ByteOrder.BIG_ENDIAN) : EndianCodec.little();
      List<BytesToBytesCodec> compressors = codec == null ? List.of()
          : List.of(new BytesToBytesCodec(compressor, Json.object(), codec));
      // order F: a "transpose" codec stores the chunk's axes reversed
      List<ArrayToArrayCodec> transpose = order == 'F' ? List.of(new TransposeCodec(new int[] {1, 0}, 2)) : List.of();
      a = ZarrHierarchy.writeArrayV3(store, "a", new ArrayMetadata(3, new long[] {64, 64},
          chunk, type, fill, new V3ChunkCodec(type, transpose, bytes, compressors),
          ChunkKeyEncoding.v3Default('/'), List.of("y", "x"), Json.object()));
    }
    writeRamp(a);
    java.util.Random random = new java.util.Random(3);
    int size = 32 * 16 * 4;
    byte[] noise = new byte[size];
    random.nextBytes(noise);
    byte[] constant = new byte[size];
    Arrays.fill(constant, (byte) 5);
    a.writeChunk(new long[] {0, 0}, ChunkData.ofBytes(type, chunk, noise));
    a.writeChunk(new long[] {0, 1}, ChunkData.ofBytes(type, chunk, constant));
    DecodeBuffers buffers = new DecodeBuffers();
    long[][] visits = {{0, 0}, {0, 1}, {1, 0}, {0, 0}, {0, 1}};
    for (long[] c : visits) {
      byte[] got = new byte[size];
      assertTrue(a.readChunkBlocks(c, buffers, (buffer, offset, start, length) ->
          System.arraycopy(buffer, offset, got, start, length)));
      assertArrayEquals(a.readChunk(c).bytes(), got, compressor + " order " + order + " chunk " + Arrays.toString(c));
    }
    assertFalse(a.readChunkBlocks(new long[] {1, 1}, buffers, (b, o, s, l) -> fail("missing chunk")));
    // whole chunks: one buffer from chunk to chunk, but where the chain decodes only into new arrays
    DecodeBuffers wholeBuffers = new DecodeBuffers();
    byte[] first = null;
    for (long[] c : visits) {
      byte[] got = a.readChunkBytes(c, wholeBuffers);
      assertArrayEquals(a.readChunk(c).bytes(), Arrays.copyOf(got, size), compressor + " chunk " + Arrays.toString(c));
      if (first == null) {
        first = got;
      } else if (!compressor.equals("gzip")) {
        assertSame(first, got, compressor + ": the chunk buffer is reused");
      }
    }
    assertNull(a.readChunkBytes(new long[] {1, 1}, wholeBuffers));
    String key = a.chunkKey(new long[] {0, 1});
    byte[] stored = store.get(key).orElseThrow();
    store.set(key, Arrays.copyOf(stored, stored.length - 3));
    assertTrue(a.readChunkBlocks(new long[] {0, 0}, buffers, (b, o, s, l) -> { }));
    ZarrException e = assertThrows(ZarrException.class,
        () -> a.readChunkBlocks(new long[] {0, 1}, buffers, (b, o, s, l) -> { }));
    assertTrue(e.getMessage().contains(store.location()) && e.getMessage().contains(key),
        e.getMessage());
    assertNotNull(a.readChunkBytes(new long[] {0, 0}, wholeBuffers));
    e = assertThrows(ZarrException.class, () -> a.readChunkBytes(new long[] {0, 1}, wholeBuffers));
    assertTrue(e.getMessage().contains(store.location()) && e.getMessage().contains(key),
        e.getMessage());
  }

  @Test
  void bigEndianChunksAreStoredBigEndian() throws Exception {
    MemoryStore store = new MemoryStore();
    ZarrArray a = ZarrHierarchy.writeArrayV2(store, "a",
        int32(new long[] {1, 1}, new int[] {1, 1}, ">i4", false, 0));
    a.writeChunk(new long[] {0, 0}, ChunkData.ofBytes(a.memoryType(), new int[] {1, 1}, new byte[] {1, 2, 3, 4}));
    assertArrayEquals(new byte[] {4, 3, 2, 1}, store.get("a/0.0").orElseThrow());
  }

  @Test
  void wrongSizedChunkNamesStoreAndKey() throws Exception {
    MemoryStore store = new MemoryStore("mem://test");
    ZarrHierarchy.writeArrayV2(store, "a", int32(new long[] {4, 4}, new int[] {2, 2}, "<i4", false, 0));
    store.set("a/0.1", new byte[5]);
    ZarrException e = assertThrows(ZarrException.class, () -> ZarrArray.open(store, "a").readAll());
    assertTrue(e.getMessage().contains("mem://test"), e.getMessage());
    assertTrue(e.getMessage().contains("a/0.1"), e.getMessage());
    assertTrue(e.getMessage().contains("expected 16"), e.getMessage());
  }

  @Test
  void badMetadataNamesTheProblem() throws Exception {
    MemoryStore store = new MemoryStore("mem://bad");
    store.set("a/.zarray", ("{\"zarr_format\":2,\"shape\":[4],\"chunks\":[0],\"dtype\":\"<i4\","
        + "\"compressor\":null,\"fill_value\":0,\"order\":\"C\",\"filters\":null}").getBytes(StandardCharsets.UTF_8));
    ZarrException e = assertThrows(ZarrException.class, () -> ZarrArray.open(store, "a"));
    assertTrue(e.getMessage().contains("a/.zarray") && e.getMessage().contains("positive"), e.getMessage());
    store.set("b/.zarray", "{\"zarr_format\":2,".getBytes(StandardCharsets.UTF_8));
    e = assertThrows(ZarrException.class, () -> ZarrArray.open(store, "b"));
    assertTrue(e.getMessage().contains("malformed JSON"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> ZarrArray.open(store, "../x"));
  }

  @Test
  void consolidatedMetadataServesChildren() throws Exception {
    MemoryStore store = new MemoryStore();
    ZarrHierarchy.writeGroupV2(store, "", Json.object().put("title", "t"));
    ZarrHierarchy.writeGroupV2(store, "g", null);
    ZarrHierarchy.writeArrayV2(store, "g/a", int32(new long[] {2, 2}, new int[] {2, 2}, "<i4", false, 0));
    ZarrHierarchy.consolidateV2(store);
    store.delete("g/a/.zarray"); // only the consolidated copy remains
    ZarrHierarchy h = ZarrHierarchy.open(store);
    assertTrue(h.isConsolidated());
    assertEquals(List.of("g"), h.children(""));
    assertEquals(List.of("g/a"), h.children("g"));
    assertEquals("t", h.openGroup("").attributes().get("title").asText());
    assertArrayEquals(new long[] {2, 2}, h.openArray("g/a").metadata().shape());
  }
}
