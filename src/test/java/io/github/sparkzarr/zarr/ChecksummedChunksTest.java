package io.github.sparkzarr.zarr;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.codec.v3.V3Codecs;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * v3 chains that end with a checksum after the data (crc32c, as zarr-python 3 can add) are
 * decoded as the same chain without it: the checksum verified where the stored bytes lie, the
 * compressor decoding into the reused buffer (blosc block by block), and the result the chain's
 * own decoding gives.
 */
class ChecksummedChunksTest {
  private static final String BYTES = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
  private static final String CRC = "{\"name\":\"crc32c\"}";
  private static final String ZSTD = "{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":false}}";
  private static final String BLOSC = "{\"name\":\"blosc\",\"configuration\":{\"cname\":\"lz4\",\"clevel\":5,"
      + "\"shuffle\":\"shuffle\",\"typesize\":4,\"blocksize\":0}}";
  private static final int[] SHAPE = {64, 4096};

  @Test
  void checksummedChainsTakeThePlainPath() throws Exception {
    for (String[] chain : new String[][] {{BYTES, ZSTD, CRC}, {BYTES, BLOSC, CRC}, {BYTES, CRC}, {BYTES, ZSTD, CRC, CRC}}) {
      String what = Arrays.toString(chain);
      V3ChunkCodec codec = codec(chain);
      ChunkDecoding decoding = new ChunkDecoding(codec.type(), codec, SHAPE);
      byte[] stored = codec.encode(chunk(new Random(chain.length)));
      byte[] expected = codec.decode(stored, SHAPE).bytes();
      DecodeBuffers buffers = DecodeBuffers.borrow();
      byte[] whole = decoding.decodeWhole(stored, stored.length, buffers);
      assertArrayEquals(expected, Arrays.copyOf(whole, expected.length), what);
      if (chain.length == 2) {
        assertSame(stored, whole, "uncompressed chunks are read where they lie");
      } else {
        assertSame(buffers.get(0, 0), whole, what + ": decoded into the reused buffer");
      }
      assertEquals(chain[1].equals(BLOSC), decoding.byBlock(), what);
      if (decoding.byBlock()) {
        ByteArrayOutputStream blocks = new ByteArrayOutputStream();
        int[] count = {0};
        decoding.decodeBlocks(stored, stored.length, buffers, (b, offset, start, length) -> {
          assertEquals(blocks.size(), start);
          count[0]++;
          blocks.write(b, offset, length);
        });
        assertArrayEquals(expected, blocks.toByteArray(), what);
        assertTrue(count[0] > 1, what + ": blosc hands out its blocks");
      }
      buffers.release();
    }
  }

  @Test
  void aWrongChecksumFails() throws Exception {
    for (String[] chain : new String[][] {{BYTES, ZSTD, CRC}, {BYTES, BLOSC, CRC}, {BYTES, CRC}}) {
      V3ChunkCodec codec = codec(chain);
      ChunkDecoding decoding = new ChunkDecoding(codec.type(), codec, SHAPE);
      byte[] stored = codec.encode(chunk(new Random(1)));
      stored[stored.length / 2] ^= 1;
      DecodeBuffers buffers = DecodeBuffers.borrow();
      CodecException e = assertThrows(CodecException.class,
          () -> decoding.decodeWhole(stored, stored.length, buffers), Arrays.toString(chain));
      assertTrue(e.getMessage().contains("crc32c checksum mismatch"), e.getMessage());
      if (decoding.byBlock()) {
        assertThrows(CodecException.class,
            () -> decoding.decodeBlocks(stored, stored.length, buffers, (b, o, s, l) -> { }));
      }
      assertThrows(CodecException.class, () -> decoding.decodeWhole(new byte[3], 3, buffers));
      buffers.release();
    }
  }

  private static ChunkData chunk(Random rng) {
    ByteBuffer b = ByteBuffer.allocate(SHAPE[0] * SHAPE[1] * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < SHAPE[0] * SHAPE[1]; i++) {
      b.putFloat(280 + (float) rng.nextGaussian());
    }
    return ChunkData.ofBytes(NumpyDtype.parse("<f4"), SHAPE, b.array());
  }

  private static V3ChunkCodec codec(String[] chain) throws Exception {
    DataType type = NumpyDtype.parse("<f4");
    String codecs = "[" + String.join(",", chain) + "]";
    return V3Codecs.parse(Json.parse(codecs.getBytes(StandardCharsets.UTF_8), "test", "codecs"), type,
        FillValue.ofElement(type, new byte[4], null), SHAPE);
  }
}
