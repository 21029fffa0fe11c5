package io.github.sparkzarr.zarr.v3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.v3.BytesToBytesCodec;
import io.github.sparkzarr.zarr.codec.v3.EndianCodec;
import io.github.sparkzarr.zarr.codec.v3.TransposeCodec;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.codec.v3.V3Codecs;
import io.github.sparkzarr.zarr.codec.blosc.BloscCodec;
import io.github.sparkzarr.zarr.codec.checksum.Crc32cCodec;
import io.github.sparkzarr.zarr.codec.compress.GzipCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.V3DataTypes;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.metadata.V3FillValues;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * Writes v3 arrays (every zarrita-readable data type, each codec, sharding, strings, missing
 * chunks, both key encodings, a consolidated store), reads them back, then has zarrita read them
 * (integration-tests/zarrita/verify_with_zarrita.mjs).
 */
class V3RoundTripTest {
  private static final Path OUT = Path.of("target/roundtrip-v3");
  private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

  private final ObjectNode manifest = Json.object();
  private final ArrayNode arrays = manifest.putArray("arrays");

  @Test
  void ourV3StoresReadBackAndZarritaAgrees() throws Exception {
    deleteRecursively(OUT.toFile());
    Files.createDirectories(OUT);
    String[] types = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
        "uint64", "float32", "float64"};
    try (HadoopStore store = new HadoopStore(OUT.resolve("ours.zarr").toUri().toString(), new Configuration())) {
      ZarrHierarchy.writeGroupV3(store, "", Json.object().put("written_by", "spark-zarr"));
      for (String t : types) {
        DataType type = V3DataTypes.parse(Json.nodes().textNode(t));
        FillValue fill = zero(type);
        write(store, "dtypes/" + t, type, fill, V3Codecs.standard(type), new long[] {9, 11}, new int[] {4, 5}, true);
        write(store, "sharded/" + t, type, fill,
            V3Codecs.sharded(type, fill, new int[] {2, 5}, V3Codecs.standard(type)),
            new long[] {9, 11}, new int[] {4, 10}, true);
      }
      DataType f8 = V3DataTypes.parse(Json.nodes().textNode("float64"));
      DataType i4 = V3DataTypes.parse(Json.nodes().textNode("int32"));
      FillValue nan = V3FillValues.parse(Json.nodes().textNode("NaN"), f8);
      write(store, "codecs/be_gzip", i4, zero(i4), chain(i4, List.of(), new EndianCodec(ByteOrder.BIG_ENDIAN),
          new BytesToBytesCodec("gzip", Json.object().put("level", 6), new GzipCodec(6))), new long[] {7, 6}, new int[] {3, 3}, true);
      write(store, "codecs/blosc", f8, nan, chain(f8, List.of(), EndianCodec.little(),
          new BytesToBytesCodec("blosc", Json.object().put("cname", "zstd").put("clevel", 3)
              .put("shuffle", "bitshuffle").put("typesize", 8).put("blocksize", 0),
              BloscCodec.fromV3Config(Json.object().put("cname", "zstd").put("clevel", 3)
                  .put("shuffle", "bitshuffle").put("typesize", 8)))), new long[] {7, 6}, new int[] {3, 3}, true);
      write(store, "codecs/transpose_crc32c", i4, zero(i4), chain(i4, List.of(new TransposeCodec(new int[] {1, 0}, 2)),
          new EndianCodec(ByteOrder.BIG_ENDIAN), new BytesToBytesCodec("crc32c", null, Crc32cCodec.v3())),
          new long[] {7, 6}, new int[] {3, 4}, true);
      write(store, "fill/nan_missing", f8, nan, V3Codecs.standard(f8), new long[] {8, 8}, new int[] {3, 3}, false);
      write(store, "sharded/plain_index_missing", f8, nan, plainIndex(f8, nan), new long[] {8, 8}, new int[] {4, 4}, false);
      write(store, "keys/v2_dot", i4, zero(i4), V3Codecs.standard(i4), new long[] {5, 5}, new int[] {2, 2}, true,
          ChunkKeyEncoding.v2('.'));
      write(store, "keys/default_dot", i4, zero(i4), V3Codecs.standard(i4), new long[] {5, 5}, new int[] {2, 2}, true,
          ChunkKeyEncoding.v3Default('.'));
      DataType str = V3DataTypes.parse(Json.nodes().textNode("string"));
      write(store, "strings/vlen_utf8", str, V3FillValues.parse(Json.nodes().textNode(""), str),
          V3Codecs.standard(str), new long[] {5, 3}, new int[] {2, 2}, true);
    }
    try (HadoopStore store = new HadoopStore(OUT.resolve("consolidated.zarr").toUri().toString(), new Configuration())) {
      ZarrHierarchy.writeGroupV3(store, "", null);
      DataType u2 = V3DataTypes.parse(Json.nodes().textNode("uint16"));
      write(store, "g/a", u2, zero(u2), V3Codecs.standard(u2), new long[] {6}, new int[] {4}, true);
      ZarrHierarchy.writeGroupV3(store, "g", Json.object().put("k", "v"));
      ZarrHierarchy.consolidateV3(store);
      ZarrHierarchy h = ZarrHierarchy.open(store);
      assertTrue(h.isConsolidated());
      assertEquals(List.of("g/a"), h.children("g"));
      assertEquals("v", h.openGroup("g").attributes().get("k").asText());
      for (var e : arrays) {
        if (e.get("store").asText().equals("consolidated.zarr")) {
          ((ObjectNode) e).put("consolidated", true);
        }
      }
    }
    Path manifestFile = OUT.resolve("manifest.json");
    Files.write(manifestFile, Json.write(manifest));
    ExternalTools.verifyWithZarrita(manifestFile);
  }

  private static FillValue zero(DataType type) {
    return V3FillValues.parse(type.kind() == DataType.Kind.BOOL ? Json.nodes().booleanNode(false)
        : Json.nodes().numberNode(0), type);
  }

  private static V3ChunkCodec chain(DataType type, List<io.github.sparkzarr.zarr.codec.v3.ArrayToArrayCodec> arrays,
      io.github.sparkzarr.zarr.codec.v3.ArrayToBytesCodec serializer, BytesToBytesCodec bytes) {
    return new V3ChunkCodec(type, arrays, serializer, List.of(bytes));
  }

  /** Sharding with an index without checksum (zarrita ignores index_location, so it stays at the end). */
  private static V3ChunkCodec plainIndex(DataType type, FillValue fill) throws Exception {
    ObjectNode config = Json.object();
    config.putArray("chunk_shape").add(2).add(2);
    config.set("codecs", V3Codecs.standard(type).toJson());
    config.set("index_codecs", Json.nodes().arrayNode().add(EndianCodec.little().toJson()));
    config.put("index_location", "end");
    ArrayNode codecs = Json.nodes().arrayNode();
    codecs.add(Json.object().put("name", "sharding_indexed").set("configuration", config));
    return V3Codecs.parse(codecs, type, fill, new int[] {4, 4});
  }

  private void write(HadoopStore store, String path, DataType type, FillValue fill, V3ChunkCodec codec,
      long[] shape, int[] chunks, boolean whole) throws Exception {
    write(store, path, type, fill, codec, shape, chunks, whole, ChunkKeyEncoding.v3Default('/'));
  }

  /** Writes random values over the whole array, or its first row of chunks only. */
  private void write(HadoopStore store, String path, DataType type, FillValue fill, V3ChunkCodec codec,
      long[] shape, int[] chunks, boolean whole, ChunkKeyEncoding keys) throws Exception {
    List<String> dims = shape.length == 2 ? List.of("y", "x") : null;
    ArrayMetadata md = new ArrayMetadata(3, shape, chunks, type, fill, codec, keys, dims,
        Json.object().put("case", path));
    ZarrArray array = ZarrHierarchy.writeArrayV3(store, path, md);
    int[] region = new int[shape.length];
    for (int i = 0; i < shape.length; i++) {
      region[i] = (int) shape[i];
    }
    if (!whole) {
      region[0] = chunks[0];
    }
    ChunkData data = random(type, region, new Random(path.hashCode()));
    array.write(new long[shape.length], data);
    ZarrArray reopened = ZarrHierarchy.open(store).openArray(path);
    assertEquals(dims, reopened.metadata().dimensionNames());
    ChunkData back = reopened.read(new long[shape.length], region);
    if (data.holdsObjects()) {
      assertArrayEquals(data.objects(), back.objects(), path);
    } else {
      assertArrayEquals(data.bytes(), back.bytes(), path);
    }
    ChunkData all = reopened.readAll();
    ObjectNode e = arrays.addObject();
    e.put("store", store.root().getName());
    e.put("path", path);
    e.put("zarr_format", 3);
    ArrayNode s = e.putArray("shape");
    for (long d : shape) {
      s.add(d);
    }
    ArrayNode c = e.putArray("chunks");
    for (int d : chunks) {
      c.add(d);
    }
    codec.sharding().ifPresent(sh -> {
      ArrayNode inner = e.putArray("inner_chunks");
      for (int d : sh.innerShape()) {
        inner.add(d);
      }
    });
    e.set("data_type", V3DataTypes.toJson(type));
    e.set("attributes", Json.object().put("case", path));
    boolean json = all.holdsObjects();
    byte[] expected = json ? Json.write(Json.nodes().arrayNode().addAll(
        java.util.Arrays.stream(all.objects()).map(o -> Json.nodes().textNode((String) o)).toList()))
        : all.bytes();
    Path file = OUT.resolve("expected").resolve(path + (json ? ".json" : ".bin"));
    Files.createDirectories(file.getParent());
    Files.write(file, expected);
    ObjectNode ex = e.putObject("expected");
    ex.put("file", OUT.relativize(file).toString());
    ex.put("format", json ? "json" : "raw");
    ex.put("sha256", HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(expected)));
  }

  private static ChunkData random(DataType type, int[] shape, Random r) {
    int n = (int) ChunkData.count(shape);
    if (type.kind() == DataType.Kind.STRING) {
      Object[] s = new Object[n];
      for (int i = 0; i < n; i++) {
        s[i] = i % 4 == 0 ? "" : "s" + r.nextInt(1000) + (i % 3 == 0 ? " é ✓" : "");
      }
      return ChunkData.ofObjects(type, shape, s);
    }
    ByteBuffer b = ByteBuffer.allocate(n * type.size()).order(LE);
    for (int i = 0; i < n; i++) {
      switch (type.kind()) {
        case BOOL -> b.put((byte) r.nextInt(2));
        case FLOAT -> {
          if (type.size() == 4) {
            b.putFloat((float) r.nextGaussian() * 100);
          } else {
            b.putDouble(r.nextGaussian() * 1e6);
          }
        }
        default -> {
          byte[] bytes = new byte[type.size()];
          r.nextBytes(bytes);
          b.put(bytes);
        }
      }
    }
    return ChunkData.ofBytes(type, shape, b.array());
  }

  static void deleteRecursively(java.io.File f) {
    java.io.File[] children = f.listFiles();
    if (children != null) {
      for (java.io.File c : children) {
        deleteRecursively(c);
      }
    }
    f.delete();
  }
}
