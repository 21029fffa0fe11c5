package io.github.sparkzarr.zarr.codec.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.github.luben.zstd.ZstdOutputStream;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecSamples;
import io.github.sparkzarr.zarr.codec.DecodesInto;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Truncated, corrupt and hostile input fails with CodecException, never anything else. */
class BadInputTest {
  private static final byte[] TEXT =
      "Zarr chunks are compressed one by one. ".repeat(500).getBytes();

  private static List<BytesCodec> compressors() throws Exception {
    return CodecSamples.codecs().stream()
        .filter(c -> c.getClass().getPackageName().endsWith("compress"))
        .toList();
  }

  /** Codecs whose format carries a checksum of the data, so any corruption is detected. */
  private static boolean checked(BytesCodec codec) {
    return codec instanceof ZlibCodec
        || codec instanceof GzipCodec
        || codec instanceof Bz2Codec
        || codec instanceof ZstdCodec z && z.checksum()
        || codec instanceof LzmaCodec l && l.format() == LzmaCodec.FORMAT_XZ && l.check() != 0;
  }

  private static CodecException fails(BytesCodec codec, byte[] input, int decodedSize) {
    return assertThrows(
        CodecException.class, () -> codec.decode(input, decodedSize), codec.toConfig().toString());
  }

  @Test
  void truncatedDataFails() throws Exception {
    for (BytesCodec codec : compressors()) {
      byte[] encoded = codec.encode(TEXT, 1);
      for (int length : new int[] {encoded.length / 2, encoded.length - 1, 3}) {
        byte[] cut = Arrays.copyOf(encoded, length);
        fails(codec, cut, TEXT.length);
        fails(codec, cut, -1);
      }
    }
  }

  @Test
  void wrongDecodedSizeFails() throws Exception {
    for (BytesCodec codec : CodecSamples.codecs()) {
      byte[] encoded = codec.encode(TEXT, 1);
      assertTrue(fails(codec, encoded, TEXT.length + 1).getMessage().contains(codec.id()));
      assertTrue(fails(codec, encoded, TEXT.length - 1).getMessage().contains(codec.id()));
    }
  }

  @Test
  void corruptionOfCheckedFormatsIsDetected() throws Exception {
    for (BytesCodec codec : compressors()) {
      if (checked(codec)) {
        byte[] encoded = codec.encode(CodecSamples.random(5000, 3), 1);
        encoded[encoded.length / 2] ^= 0x55;
        fails(codec, encoded, 5000);
        fails(codec, encoded, -1);
      }
    }
  }

  /** Random byte changes: decoding either returns bytes or throws CodecException. */
  @Test
  void randomCorruptionNeverLeaksOtherExceptions() throws Exception {
    Random random = new Random(11);
    for (BytesCodec codec : CodecSamples.codecs()) {
      byte[] encoded = codec.encode(TEXT, 1);
      for (int round = 0; round < 150; round++) {
        byte[] bad = encoded.clone();
        for (int k = 1 + random.nextInt(3); k > 0; k--) {
          bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
        }
        for (int size : new int[] {TEXT.length, -1}) {
          try {
            codec.decode(bad, size);
          } catch (CodecException expected) {
            // the one allowed failure
          } catch (Throwable t) {
            fail(codec.toConfig() + " round " + round + " leaked " + t, t);
          }
        }
      }
    }
  }

  @Test
  void bombsFailAtTheExpectedSize() throws Exception {
    byte[] zeros = new byte[16 << 20];
    for (BytesCodec codec : compressors()) {
      byte[] bomb = codec.encode(zeros, 1);
      CodecException e = fails(codec, bomb, 1000);
      assertTrue(
          e.getMessage().contains("more than the expected 1000")
              || e.getMessage().contains("expected 1000"),
          codec.toConfig() + ": " + e.getMessage());
    }
  }

  /**
   * Output of unknown size grows in segments (no copy into a bigger array): many segments come
   * back whole and in order, and gzip's CRC and size checks span them, member by member.
   */
  @Test
  void unknownSizesGrowAcrossSegments() throws Exception {
    byte[] big = new byte[6 << 20];
    for (int i = 0; i < big.length; i++) {
      big[i] = (byte) (i / 4096 + i % 7);
    }
    for (BytesCodec codec : compressors()) {
      assertArrayEquals(big, codec.decode(codec.encode(big, 1), -1), codec.toConfig().toString());
    }
    GzipCodec gzip = new GzipCodec(1);
    byte[] first = gzip.encode(Arrays.copyOf(big, 3 << 20), 1);
    byte[] second = gzip.encode(big, 1);
    byte[] members = Arrays.copyOf(first, first.length + second.length);
    System.arraycopy(second, 0, members, first.length, second.length);
    byte[] both = Arrays.copyOf(Arrays.copyOf(big, 3 << 20), (3 << 20) + big.length);
    System.arraycopy(big, 0, both, 3 << 20, big.length);
    assertArrayEquals(both, gzip.decode(members, -1));
    for (int trailer : new int[] {8, 4}) { // the second member's CRC32, then its size
      byte[] bad = members.clone();
      bad[bad.length - trailer] ^= 1;
      assertTrue(fails(gzip, bad, -1).getMessage().contains(trailer == 8 ? "CRC32" : "size"));
    }
  }

  @Test
  void absurdDeclaredSizesFailWithoutAllocating() throws Exception {
    // lz4: a header declaring 2 GiB - 16 in front of a 1-byte block
    byte[] lz4 = HexFormat.of().parseHex("f0ffff7f00");
    assertTrue(fails(new Lz4Codec(1), lz4, -1).getMessage().contains("implausible"));
    // zstd: single-segment frame declaring 2^40 and 1 GiB, with one empty raw last block
    ZstdCodec zstd = new ZstdCodec(1, false);
    for (String size : new String[] {"0000000000010000", "0000004000000000"}) {
      byte[] frame = HexFormat.of().parseHex("28b52ffde0" + size + "010000");
      assertTrue(fails(zstd, frame, -1).getMessage().contains("implausible"));
    }
  }

  @Test
  void emptyInput() throws Exception {
    for (BytesCodec codec : CodecSamples.codecs()) {
      if (codec instanceof GzipCodec || codec instanceof Bz2Codec) {
        // Python's gzip and bz2 read no bytes as no data
        assertArrayEquals(new byte[0], codec.decode(new byte[0], -1));
        fails(codec, new byte[0], 10);
      } else {
        fails(codec, new byte[0], -1);
      }
    }
  }

  @Test
  void decodingIntoAReusedBufferChecksAsDecodingDoes() throws Exception {
    int tested = 0;
    for (BytesCodec codec : CodecSamples.codecs()) {
      if (!(codec instanceof DecodesInto into)) {
        continue;
      }
      tested++;
      byte[] encoded = codec.encode(TEXT, 1);
      // The input sits in a longer reused array, followed by another chunk's bytes.
      byte[] input = Arrays.copyOf(encoded, encoded.length + 64);
      Arrays.fill(input, encoded.length, input.length, (byte) 0x28);
      int n = encoded.length;
      byte[] buffer = new byte[TEXT.length + 100];
      Arrays.fill(buffer, (byte) 7);
      into.decodeInto(input, n, buffer, TEXT.length);
      assertArrayEquals(TEXT, Arrays.copyOf(buffer, TEXT.length));
      assertThrows(CodecException.class, () -> into.decodeInto(input, n, buffer, TEXT.length + 1));
      assertThrows(CodecException.class, () -> into.decodeInto(input, n, buffer, TEXT.length - 1));
      assertThrows(CodecException.class, () -> into.decodeInto(input, n / 2, buffer, TEXT.length));
      assertThrows(CodecException.class, () -> into.decodeInto(input, 0, buffer, TEXT.length));
      // A failure leaves nothing behind for the next chunk on this thread.
      byte[] other = codec.encode(CodecSamples.random(TEXT.length, 5), 1);
      into.decodeInto(other, other.length, buffer, TEXT.length);
      assertArrayEquals(CodecSamples.random(TEXT.length, 5), Arrays.copyOf(buffer, TEXT.length));
    }
    assertTrue(tested > 0, "no codec decodes into a buffer");
  }

  /**
   * gzip into a reused buffer: several members with zero padding between them come back in order,
   * and a bad CRC or size in a later member fails as it does when decoding into a new array.
   */
  @Test
  void gzipMembersDecodeIntoAReusedBuffer() throws Exception {
    GzipCodec gzip = new GzipCodec(1);
    byte[] second = CodecSamples.random(5000, 9);
    byte[] a = gzip.encode(TEXT, 1);
    byte[] b = gzip.encode(second, 1);
    byte[] members = new byte[a.length + 3 + b.length + 40];
    System.arraycopy(a, 0, members, 0, a.length);
    System.arraycopy(b, 0, members, a.length + 3, b.length);
    int n = a.length + 3 + b.length;
    Arrays.fill(members, n, members.length, (byte) 0x1f); // the next chunk's bytes, not ours
    byte[] out = new byte[TEXT.length + second.length + 8];
    gzip.decodeInto(members, n, out, TEXT.length + second.length);
    assertArrayEquals(TEXT, Arrays.copyOf(out, TEXT.length));
    assertArrayEquals(second, Arrays.copyOfRange(out, TEXT.length, TEXT.length + second.length));
    for (int trailer : new int[] {8, 4}) {
      byte[] bad = members.clone();
      bad[n - trailer] ^= 1;
      CodecException e = assertThrows(CodecException.class,
          () -> gzip.decodeInto(bad, n, out, TEXT.length + second.length));
      assertTrue(e.getMessage().contains(trailer == 8 ? "CRC32" : "size"), e.getMessage());
    }
    // zlib and gzip alternate on one thread, each with its own inflater
    ZlibCodec zlib = new ZlibCodec(1);
    byte[] z = zlib.encode(second, 1);
    zlib.decodeInto(z, z.length, out, second.length);
    assertArrayEquals(second, Arrays.copyOf(out, second.length));
    gzip.decodeInto(members, n, out, TEXT.length + second.length);
    assertArrayEquals(TEXT, Arrays.copyOf(out, TEXT.length));
  }

  @Test
  void zstdFramesWithoutContentSizeAndConcatenated() throws Exception {
    ByteArrayOutputStream streamed = new ByteArrayOutputStream();
    try (ZstdOutputStream out = new ZstdOutputStream(streamed, 3)) {
      out.write(TEXT);
    }
    ZstdCodec zstd = new ZstdCodec(1, false);
    byte[] frame = streamed.toByteArray();
    assertArrayEquals(TEXT, zstd.decode(frame, TEXT.length));
    assertArrayEquals(TEXT, zstd.decode(frame, -1));
    byte[] two = new byte[frame.length * 2];
    System.arraycopy(frame, 0, two, 0, frame.length);
    System.arraycopy(frame, 0, two, frame.length, frame.length);
    byte[] both = new byte[TEXT.length * 2];
    System.arraycopy(TEXT, 0, both, 0, TEXT.length);
    System.arraycopy(TEXT, 0, both, TEXT.length, TEXT.length);
    assertArrayEquals(both, zstd.decode(two, -1));
    fails(zstd, two, TEXT.length);
  }

  @Test
  void invalidConfigurationsAreCodecExceptions() {
    for (String config :
        new String[] {
          "{\"id\":\"zlib\",\"level\":10}",
          "{\"id\":\"gzip\",\"level\":\"x\"}",
          "{\"id\":\"bz2\",\"level\":0}",
          "{\"id\":\"lzma\",\"format\":4}",
          "{\"id\":\"lzma\",\"format\":2,\"check\":4}",
          "{\"id\":\"lzma\",\"format\":3}",
          "{\"id\":\"lzma\",\"preset\":1,\"filters\":[{\"id\":33}]}",
          "{\"id\":\"lzma\",\"preset\":10}",
          "{\"id\":\"lzma\",\"format\":3,\"filters\":[{\"id\":4}]}",
          "{\"id\":\"lzma\",\"format\":3,\"filters\":[{\"id\":33,\"bogus\":1}]}",
          "{\"id\":\"zstd\",\"checksum\":1}",
        }) {
      assertThrows(
          CodecException.class,
          () -> io.github.sparkzarr.zarr.codec.CodecRegistry.fromConfig(CodecSamples.json(config)),
          config);
    }
  }
}
