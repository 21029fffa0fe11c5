package io.github.sparkzarr.zarr.codec.checksum;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.codec.CodecSamples;
import io.github.sparkzarr.zarr.codec.checksum.Checksum32Codec.Location;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Checksums against published values, for the codecs numcodecs 0.11 cannot check (crc32c,
 * fletcher32) and for the "location" parameter it does not have.
 */
class ChecksumCodecsTest {
  private static final byte[] CHECK_INPUT = "123456789".getBytes(StandardCharsets.US_ASCII);

  private static int trailer(byte[] encoded) {
    return ByteBuffer.wrap(encoded, encoded.length - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
  }

  private static int header(byte[] encoded) {
    return ByteBuffer.wrap(encoded, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
  }

  /** The CRC catalogue's check values: CRC-32C, CRC-32 and Adler-32 of "123456789". */
  @Test
  void publishedCheckValues() throws Exception {
    assertEquals(0xE3069283, trailer(Crc32cCodec.v3().encode(CHECK_INPUT, 1)));
    assertEquals(0xCBF43926, header(new Crc32Codec(Location.START).encode(CHECK_INPUT, 1)));
    assertEquals(0x091E01DE, header(new Adler32Codec(Location.START).encode(CHECK_INPUT, 1)));
  }

  /**
   * numcodecs' own crc32c fixture (repository zarr-developers/numcodecs, file
   * fixture/crc32c/codec.00/encoded.00.dat, commit 230c52c7): numpy.arange(1000, dtype='<i4')
   * encoded by CRC32C() with its default location "end".
   */
  @Test
  void numcodecsCrc32cFixture() throws Exception {
    byte[] encoded;
    try (InputStream in =
        getClass()
            .getResourceAsStream("/codecs-published/numcodecs-fixture-crc32c-codec00-encoded00.dat")) {
      encoded = in.readAllBytes();
    }
    Crc32cCodec codec =
        (Crc32cCodec) CodecRegistry.fromConfig(CodecSamples.json("{\"id\": \"crc32c\"}"));
    assertArrayEquals(CodecSamples.ints(1000), codec.decode(encoded, 4000));
    assertArrayEquals(encoded, codec.encode(CodecSamples.ints(1000), 4));
  }

  /** numcodecs' tests/test_fletcher32.py, test_known: ten int64 values and their checksum. */
  @Test
  void numcodecsFletcher32KnownVector() throws Exception {
    byte[] encoded =
        HexFormat.of()
            .parseHex(
                "7707000000000000" + "85f6ffffffffffff" + "6907000000000000" + "94f6ffffffffffff"
                    + "8809000000000000" + "6903000000000000" + "93fdffffffffffff"
                    + "c3fcffffffffffff" + "2702000000000000" + "baf7ffffffffffff" + "fd258664");
    byte[] decoded = new Fletcher32Codec().decode(encoded, 80);
    long[] values = new long[10];
    ByteBuffer.wrap(decoded).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(values);
    assertArrayEquals(
        new long[] {1911, -2427, 1897, -2412, 2440, 873, -621, -829, 551, -2118}, values);
  }

  /**
   * Worked by hand from HDF5's definition (H5_checksum_fletcher32: big-endian 16-bit words, odd
   * last byte as a high byte, end-around-carry folding). "abcde": words 0x6162, 0x6364, 0x6500;
   * sum1 = 0x129c6 folds to 0x29c7; sum2 = 0x6162 + 0xc4c6 + 0x129c6 = 0x24fee folds to 0x4ff0.
   * 0xffff: both sums are 0xffff and folding keeps them (the textbook mod 65535 would give 0).
   */
  @Test
  void fletcher32HandWorkedVectors() throws Exception {
    Fletcher32Codec codec = new Fletcher32Codec();
    assertEquals(0x4FF029C7, trailer(codec.encode("abcde".getBytes(StandardCharsets.US_ASCII), 1)));
    assertEquals(0xFFFFFFFF, trailer(codec.encode(new byte[] {(byte) 0xff, (byte) 0xff}, 1)));
    assertEquals(0, trailer(codec.encode(new byte[0], 1)));
  }

  /** Long inputs cross the 360-word folding; the sums must still agree modulo 65535. */
  @Test
  void fletcher32AgreesWithTheTextbookSumsModulo65535() throws Exception {
    Random random = new Random(7);
    for (int length : new int[] {719, 720, 721, 5000, 65_537}) {
      byte[] data = new byte[length];
      random.nextBytes(data);
      int sum = trailer(new Fletcher32Codec().encode(data, 1));
      long sum1 = 0;
      long sum2 = 0;
      for (int i = 0; i < length; i += 2) {
        int word = (data[i] & 0xff) << 8 | (i + 1 < length ? data[i + 1] & 0xff : 0);
        sum1 = (sum1 + word) % 65535;
        sum2 = (sum2 + sum1) % 65535;
      }
      assertEquals(sum1, (sum & 0xffff) % 65535, "sum1, length " + length);
      assertEquals(sum2, (sum >>> 16) % 65535, "sum2, length " + length);
    }
  }

  @Test
  void locationPlacesTheChecksum() throws Exception {
    byte[] start = new Crc32Codec(Location.START).encode(CHECK_INPUT, 1);
    byte[] end = new Crc32Codec(Location.END).encode(CHECK_INPUT, 1);
    assertEquals(0xCBF43926, header(start));
    assertEquals(0xCBF43926, trailer(end));
    assertArrayEquals(CHECK_INPUT, Arrays.copyOfRange(start, 4, start.length));
    assertArrayEquals(CHECK_INPUT, Arrays.copyOf(end, CHECK_INPUT.length));
  }

  @Test
  void configsUseNumcodecsDefaults() throws Exception {
    assertEquals(new Crc32Codec(Location.START), CodecRegistry.fromConfig(CodecSamples.json("{\"id\":\"crc32\"}")));
    assertEquals(new Adler32Codec(Location.START), CodecRegistry.fromConfig(CodecSamples.json("{\"id\":\"adler32\"}")));
    assertEquals(Crc32cCodec.v3(), CodecRegistry.fromConfig(CodecSamples.json("{\"id\":\"crc32c\"}")));
    assertEquals(
        Crc32cCodec.v3(),
        CodecRegistry.fromConfig(CodecSamples.json("{\"id\":\"crc32c\",\"location\":\"end\"}")));
    assertEquals(CodecSamples.json("{\"id\":\"crc32\",\"location\":\"end\"}"), new Crc32Codec(Location.END).toConfig());
    assertEquals(CodecSamples.json("{\"id\":\"crc32c\"}"), Crc32cCodec.v3().toConfig());
    CodecException e =
        assertThrows(
            CodecException.class,
            () -> CodecRegistry.fromConfig(CodecSamples.json("{\"id\":\"crc32\",\"location\":\"middle\"}")));
    assertTrue(e.getMessage().contains("location"), e.getMessage());
  }

  @Test
  void mismatchNamesExpectedAndActual() throws Exception {
    byte[] encoded = Crc32cCodec.v3().encode(CHECK_INPUT, 1);
    encoded[3] ^= 1;
    CodecException e = assertThrows(CodecException.class, () -> Crc32cCodec.v3().decode(encoded, -1));
    assertTrue(e.getMessage().contains("crc32c checksum mismatch"), e.getMessage());
    assertTrue(e.getMessage().contains("expected 0xe3069283"), e.getMessage());
    assertTrue(e.getMessage().contains("actual 0x"), e.getMessage());
  }

  @Test
  void tooShortOrWrongSize() throws Exception {
    CodecException e =
        assertThrows(CodecException.class, () -> new Fletcher32Codec().decode(new byte[3], -1));
    assertTrue(e.getMessage().contains("too few"), e.getMessage());
    byte[] encoded = new Adler32Codec(Location.START).encode(CHECK_INPUT, 1);
    assertThrows(CodecException.class, () -> new Adler32Codec(Location.START).decode(encoded, 8));
  }
}
