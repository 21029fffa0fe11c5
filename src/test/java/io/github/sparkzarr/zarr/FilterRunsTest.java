package io.github.sparkzarr.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.codec.v3.V3Codecs;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Filter chains decoded a run at a time after the compressor ({@link
 * io.github.sparkzarr.zarr.codec.FilterRuns}), whole and block by block, against the chain's own
 * decoding of the same stored chunk, on chunks that end inside a run and span several.
 */
class FilterRunsTest {
  private static final int[] COUNTS = {1, 4095, 4096, 4097, 3 * 4096 + 17};
  private static final String[] COMPRESSORS = {
    null, "{\"id\":\"zstd\",\"level\":1}",
    "{\"id\":\"blosc\",\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":1,\"blocksize\":0}",
    "{\"id\":\"lz4\",\"acceleration\":1}"
  };

  /** dtype, then the filters in encoding order. */
  private static final String[][] CHAINS = {
    {"<i4", "{\"id\":\"delta\",\"dtype\":\"<i4\"}"},
    {"|i1", "{\"id\":\"delta\",\"dtype\":\"|i1\"}"},
    {"<i8", "{\"id\":\"delta\",\"dtype\":\"<i8\",\"astype\":\"<i2\"}"},
    {"<u2", "{\"id\":\"delta\",\"dtype\":\"<u2\",\"astype\":\"|u1\"}"},
    {"<i4", "{\"id\":\"delta\",\"dtype\":\"<i4\",\"astype\":\"<u2\"}"},
    {"<f4", "{\"id\":\"delta\",\"dtype\":\"<f4\"}"},
    {"<f8", "{\"id\":\"delta\",\"dtype\":\"<f8\"}"},
    {"<u2", "{\"id\":\"delta\",\"dtype\":\"<u2\"}"},
    {"<i8", "{\"id\":\"delta\",\"dtype\":\"<i8\"}"},
    {"<f4", "{\"id\":\"fixedscaleoffset\",\"offset\":250,\"scale\":100,\"dtype\":\"<f4\",\"astype\":\"<u2\"}"},
    {"<f8", "{\"id\":\"fixedscaleoffset\",\"offset\":-1.5,\"scale\":0.25,\"dtype\":\"<f8\",\"astype\":\"<i4\"}"},
    {"<f8", "{\"id\":\"astype\",\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\"}"},
    {"<f4", "{\"id\":\"astype\",\"encode_dtype\":\"<f8\",\"decode_dtype\":\"<f4\"}"},
    {"<f4", "{\"id\":\"astype\",\"encode_dtype\":\"|u1\",\"decode_dtype\":\"<f4\"}"},
    // two filters that change values, with one that decodes unchanged between them
    {"<f8",
      "{\"id\":\"fixedscaleoffset\",\"offset\":10,\"scale\":8,\"dtype\":\"<f8\",\"astype\":\"<i4\"}",
      "{\"id\":\"astype\",\"encode_dtype\":\"<i4\",\"decode_dtype\":\"<i4\"}",
      "{\"id\":\"delta\",\"dtype\":\"<i4\"}"},
    {"<f8", "{\"id\":\"astype\",\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\"}",
      "{\"id\":\"astype\",\"encode_dtype\":\"<i2\",\"decode_dtype\":\"<f4\"}"},
  };

  @Test
  void runsGiveWhatTheChainDecodes() throws Exception {
    forEachChunk(CHAINS, 7, (c, buffers) -> {
      byte[] whole = c.decoding().decodeWhole(c.padded(), c.length(), buffers);
      assertArrayEquals(c.expected(), Arrays.copyOf(whole, c.expected().length), c.what());
      assertArrayEquals(c.expected(), blocks(c.decoding(), c.padded(), c.length(), c.count(), buffers), c.what());
    });
  }

  /** A chunk a chain encoded, what the chain decodes it to, and our decoding of the chain. */
  private record Chunk(String what, V2ChunkCodec codec, int count, byte[] padded, int length,
      byte[] expected, ChunkDecoding decoding) {}

  private interface ChunkCheck {
    void check(Chunk chunk, DecodeBuffers buffers) throws Exception;
  }

  /**
   * Encodes a random chunk of every count with every chain and compressor, checks that our
   * decoding takes the runs, and hands it to {@code check} with the stored bytes in a longer
   * buffer, as the read buffer holds them.
   */
  private static void forEachChunk(String[][] chains, long seed, ChunkCheck check) throws Exception {
    Random rng = new Random(seed);
    for (String[] chain : chains) {
      for (String compressor : COMPRESSORS) {
        V2ChunkCodec codec = codec(chain, compressor);
        for (int count : COUNTS) {
          String what = Arrays.toString(chain) + " " + compressor + ", " + count + " elements";
          byte[] stored = codec.encode(randomChunk(codec.storageType(), count, rng));
          byte[] expected = codec.decode(stored, new int[] {count}).bytes();
          ChunkDecoding decoding = new ChunkDecoding(codec.storageType(), codec, new int[] {count});
          assertTrue(decoding.byBlock(), what + ": not decoded by runs");
          byte[] padded = Arrays.copyOf(stored, stored.length + 13);
          DecodeBuffers buffers = DecodeBuffers.borrow();
          check.check(new Chunk(what, codec, count, padded, stored.length, expected, decoding), buffers);
          buffers.release();
        }
      }
    }
  }

  /**
   * Float Delta switches to numpy's steps at the first NaN or infinity, in the middle of a run or
   * at its start, and keeps their bits (payloads, signs) as the chain's own decoding does.
   */
  @Test
  void floatDeltaKeepsNumpysBitsAfterNaNAndInfinity() throws Exception {
    long[] specials32 = {0x7fc00000L, 0xffc00001L, 0x7f800001L, 0x7f800000L, 0xff800000L, 0x80000000L};
    long[] specials64 = {0x7ff8000000000000L, 0xfff8000000000001L, 0x7ff0000000000001L,
      0x7ff0000000000000L, 0xfff0000000000000L, 0x8000000000000000L};
    int count = 3 * 4096 + 5;
    int[][] placements = {{0}, {1}, {100}, {4095}, {4096}, {4097, 9000}, {count - 1}, {50, 51}};
    Random rng = new Random(11);
    for (int size : new int[] {4, 8}) {
      V2ChunkCodec codec = codec(new String[] {"<f" + size, "{\"id\":\"delta\",\"dtype\":\"<f" + size + "\"}"},
          COMPRESSORS[1]);
      BytesCodec zstd = codec.compressor();
      ChunkDecoding decoding = new ChunkDecoding(codec.storageType(), codec, new int[] {count});
      for (long special : size == 4 ? specials32 : specials64) {
        for (int[] at : placements) {
          var encoded = java.nio.ByteBuffer.allocate(count * size).order(java.nio.ByteOrder.LITTLE_ENDIAN);
          for (int i = 0; i < count; i++) {
            double v = rng.nextGaussian() * 1e3;
            if (size == 4) {
              encoded.putFloat(i * 4, (float) v);
            } else {
              encoded.putDouble(i * 8, v);
            }
          }
          for (int i : at) {
            if (size == 4) {
              encoded.putInt(i * 4, (int) special);
            } else {
              encoded.putLong(i * 8, special);
            }
          }
          byte[] stored = zstd.encode(encoded.array(), size);
          String what = "f" + size + " " + Long.toHexString(special) + " at " + Arrays.toString(at);
          byte[] expected = codec.decode(stored, new int[] {count}).bytes();
          DecodeBuffers buffers = DecodeBuffers.borrow();
          assertArrayEquals(expected,
              Arrays.copyOf(decoding.decodeWhole(stored, stored.length, buffers), expected.length), what);
          assertArrayEquals(expected, blocks(decoding, stored, stored.length, count, buffers), what);
          buffers.release();
        }
      }
    }
  }

  /** zarr-python 3's numcodecs filters in v3 chains (2-D chunks) take the same runs. */
  @Test
  void v3ChainsRunAsV2Ones() throws Exception {
    String bytes = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
    String zstd = "{\"name\":\"numcodecs.zstd\",\"configuration\":{\"level\":1}}";
    String[][] chains = {
      {"<i4", "{\"name\":\"numcodecs.delta\",\"configuration\":{\"dtype\":\"int32\"}}", bytes, zstd},
      {"<f8", "{\"name\":\"numcodecs.fixedscaleoffset\",\"configuration\":"
          + "{\"offset\":200,\"scale\":100,\"dtype\":\"float64\",\"astype\":\"uint16\"}}", bytes},
      {"<f8", "{\"name\":\"numcodecs.astype\",\"configuration\":"
          + "{\"encode_dtype\":\"float32\",\"decode_dtype\":\"float64\"}}", bytes, zstd},
    };
    int[] shape = {37, 301};
    Random rng = new Random(5);
    for (String[] chain : chains) {
      V3ChunkCodec codec = v3(chain, shape);
      String what = Arrays.toString(chain);
      ChunkDecoding decoding = new ChunkDecoding(codec.type(), codec, shape);
      assertTrue(decoding.byBlock(), what + ": not decoded by runs");
      ChunkData chunk = randomChunk(codec.type(), shape[0] * shape[1], rng).reshape(shape);
      byte[] stored = codec.encode(chunk);
      byte[] expected = codec.decode(stored, shape).bytes();
      DecodeBuffers buffers = DecodeBuffers.borrow();
      assertArrayEquals(expected,
          Arrays.copyOf(decoding.decodeWhole(stored, stored.length, buffers), expected.length), what);
      assertArrayEquals(expected, blocks(decoding, stored, stored.length, shape[0] * shape[1], buffers), what);
      buffers.release();
    }
    String delta = chains[0][1];
    String[][] whole = {
      {"<i4", delta, "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}", zstd},
      {"<i4", "{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}}", delta, bytes, zstd},
      {"<i4", delta, bytes, zstd, "{\"name\":\"numcodecs.zlib\",\"configuration\":{\"level\":1}}"},
    };
    for (String[] chain : whole) {
      V3ChunkCodec codec = v3(chain, shape);
      assertFalse(new ChunkDecoding(codec.type(), codec, shape).byBlock(), Arrays.toString(chain));
    }
  }

  private static V3ChunkCodec v3(String[] chain, int[] shape) throws Exception {
    DataType type = NumpyDtype.parse(chain[0]);
    String codecs = "[" + String.join(",", Arrays.copyOfRange(chain, 1, chain.length)) + "]";
    return V3Codecs.parse(Json.parse(codecs.getBytes(StandardCharsets.UTF_8), "test", "codecs"), type,
        FillValue.ofElement(type, new byte[type.size()], null), shape);
  }

  /**
   * A numcodecs Shuffle decoded right after the compressor (its element size the dtype's): the
   * chunk is un-shuffled whole, then the other filters run; alone, the chunk goes to a sink that
   * reads byte-shuffled blocks as one such block.
   */
  @Test
  void shuffleFilterDecodesBeforeTheRuns() throws Exception {
    String[][] chains = {
      {"<f4", "{\"id\":\"shuffle\",\"elementsize\":4}"},
      {"<f8", "{\"id\":\"shuffle\",\"elementsize\":8}"},
      {"<i2", "{\"id\":\"shuffle\",\"elementsize\":2}"},
      {"<i4", "{\"id\":\"delta\",\"dtype\":\"<i4\"}", "{\"id\":\"shuffle\",\"elementsize\":4}"},
      {"<f4", "{\"id\":\"fixedscaleoffset\",\"offset\":250,\"scale\":100,\"dtype\":\"<f4\",\"astype\":\"<u2\"}",
        "{\"id\":\"shuffle\",\"elementsize\":2}"},
    };
    forEachChunk(chains, 5, (c, buffers) -> {
      String what = c.what();
      boolean alone = c.codec().filters().size() == 1;
      int size = c.codec().storageType().size();
      assertArrayEquals(c.expected(), Arrays.copyOf(c.decoding().decodeWhole(c.padded(), c.length(), buffers),
          c.expected().length), what);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      c.decoding().decodeBlocks(c.padded(), c.length(), buffers, (buffer, offset, start, len) -> {
        assertEquals(out.size(), start, what);
        out.write(buffer, offset, len);
      });
      assertArrayEquals(c.expected(), out.toByteArray(), what);
      // a sink of shuffled blocks gets the chunk as one, which un-shuffles to the chunk
      byte[][] shuffled = {null};
      c.decoding().decodeBlocks(c.padded(), c.length(), buffers, new io.github.sparkzarr.zarr.codec.BlockSink() {
        @Override
        public void block(byte[] buffer, int offset, int start, int len) {
          assertFalse(alone, what + ": an un-shuffled block");
        }

        @Override
        public boolean readsByteShuffled(int typeSize) {
          return typeSize == size;
        }

        @Override
        public void byteShuffledBlock(byte[] buffer, int offset, int start, int len, int typeSize) {
          assertEquals(0, start, what);
          assertEquals(c.count() * size, len, what);
          byte[] elements = new byte[len];
          for (int i = 0; i < c.count(); i++) {
            for (int k = 0; k < size; k++) {
              elements[i * size + k] = buffer[offset + k * c.count() + i];
            }
          }
          shuffled[0] = elements;
        }
      });
      if (alone) {
        assertArrayEquals(c.expected(), shuffled[0], what);
      }
    });
  }

  @Test
  void chainsWithoutRunLoopsDecodeWhole() throws Exception {
    String[][] others = {
      {"<f4", "{\"id\":\"shuffle\",\"elementsize\":8}"},
      {">i4", "{\"id\":\"delta\",\"dtype\":\">i4\"}"},
    };
    Random rng = new Random(3);
    for (String[] chain : others) {
      V2ChunkCodec codec = codec(chain, COMPRESSORS[1]);
      ChunkDecoding decoding = new ChunkDecoding(codec.storageType(), codec, new int[] {5000});
      assertFalse(decoding.byBlock(), Arrays.toString(chain));
      byte[] stored = codec.encode(randomChunk(codec.storageType(), 5000, rng));
      DecodeBuffers buffers = DecodeBuffers.borrow();
      assertArrayEquals(codec.decode(stored, new int[] {5000}).bytes(),
          decoding.decodeWhole(stored, stored.length, buffers), Arrays.toString(chain));
      buffers.release();
    }
  }

  @Test
  void storedBytesOfTheWrongSizeFail() throws Exception {
    V2ChunkCodec plain = codec(new String[] {"<i4", "{\"id\":\"delta\",\"dtype\":\"<i4\"}"}, null);
    ChunkDecoding decoding = new ChunkDecoding(plain.storageType(), plain, new int[] {100});
    DecodeBuffers buffers = DecodeBuffers.borrow();
    CodecException e = assertThrows(CodecException.class,
        () -> decoding.decodeWhole(new byte[399], 399, buffers));
    assertTrue(e.getMessage().contains("399 bytes, expected 400"), e.getMessage());

    V2ChunkCodec zstd = codec(new String[] {"<f4", "{\"id\":\"fixedscaleoffset\",\"offset\":250,"
        + "\"scale\":100,\"dtype\":\"<f4\",\"astype\":\"<u2\"}"}, COMPRESSORS[1]);
    ChunkDecoding fso = new ChunkDecoding(zstd.storageType(), zstd, new int[] {100});
    byte[] shortChunk = zstd.encode(randomChunk(zstd.storageType(), 99, new Random(1)));
    e = assertThrows(CodecException.class,
        () -> fso.decodeBlocks(shortChunk, shortChunk.length, buffers, (b, o, s, l) -> { }));
    assertTrue(e.getMessage().contains("198 bytes, expected 200"), e.getMessage());
    buffers.release();
  }

  /** The chunk as the blocks decodeBlocks hands out, checked to be one per run, in order. */
  private static byte[] blocks(ChunkDecoding decoding, byte[] stored, int length, int count,
      DecodeBuffers buffers) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int[] blocks = {0};
    decoding.decodeBlocks(stored, length, buffers, (buffer, offset, start, len) -> {
      assertEquals(out.size(), start, "blocks in order, without gaps");
      blocks[0]++;
      out.write(buffer, offset, len);
    });
    assertEquals((count + 4095) / 4096, blocks[0], "one block per run of 4096 elements");
    return out.toByteArray();
  }

  private static V2ChunkCodec codec(String[] chain, String compressor) throws Exception {
    List<ArrayFilter> filters = new ArrayList<>();
    for (int i = 1; i < chain.length; i++) {
      filters.add((ArrayFilter) CodecRegistry.fromConfig(json(chain[i])));
    }
    BytesCodec c = compressor == null ? null : (BytesCodec) CodecRegistry.fromConfig(json(compressor));
    return new V2ChunkCodec(NumpyDtype.parse(chain[0]), false, filters, c);
  }

  private static com.fasterxml.jackson.databind.JsonNode json(String text) throws Exception {
    return Json.parseObject(text.getBytes(StandardCharsets.UTF_8), "test", "codec");
  }

  /** Values every filter above encodes without loss or overflow: small integers as the type. */
  private static ChunkData randomChunk(DataType type, int count, Random rng) {
    var b = java.nio.ByteBuffer.allocate(count * type.size()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < count; i++) {
      int v = rng.nextInt(200) - (type.kind() == DataType.Kind.UINT ? 0 : 100);
      switch (type.kind() == DataType.Kind.FLOAT ? -type.size() : type.size()) {
        case -4 -> b.putFloat(v / 8f + 20);
        case -8 -> b.putDouble(v / 8.0 + 20);
        case 1 -> b.put((byte) v);
        case 2 -> b.putShort((short) v);
        case 4 -> b.putInt(v * 100_003);
        default -> b.putLong(v * 10_000_000_019L);
      }
    }
    byte[] bytes = b.array();
    if (type.needsSwap()) {
      io.github.sparkzarr.zarr.dtype.ByteSwapper.reverseWords(bytes, 0, count, type.size());
    }
    return ChunkData.ofBytes(type.littleEndian(), new int[] {count}, bytes);
  }
}
