package io.github.sparkzarr.zarr.codec.compress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodesInto;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.zip.CRC32;
import java.util.zip.Inflater;

/**
 * numcodecs "gzip": gzip members (RFC 1952) as Python's {@code gzip.GzipFile} writes and reads
 * them. Decoding accepts several members and zero padding after a member, as Python does.
 */
public record GzipCodec(int level) implements BytesCodec, DecodesInto {
  public static final String ID = "gzip";

  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int HEADER = 10;
  private static final int TRAILER = 8;
  private static final int FHCRC = 2;
  private static final int FEXTRA = 4;
  private static final int FNAME = 8;
  private static final int FCOMMENT = 16;

  public GzipCodec {
    if (level < 0 || level > 9) {
      throw new IllegalArgumentException("gzip level must be 0..9, got " + level);
    }
  }

  public static GzipCodec fromConfig(JsonNode config) throws CodecException {
    int level = CodecConfig.optionalInt(config, "level", 1);
    return CodecConfig.build(config, () -> new GzipCodec(level));
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    return CodecConfig.withId(ID).put("level", level);
  }

  /** One member with mtime 0 (so equal input gives equal output) and OS "unknown", like Python. */
  @Override
  public byte[] encode(byte[] input, int itemSize) {
    byte[] out = Deflate.deflate(input, level, true, HEADER, TRAILER);
    out[0] = (byte) 0x1f;
    out[1] = (byte) 0x8b;
    out[2] = 8; // deflate
    out[8] = (byte) (level == 9 ? 2 : level == 1 ? 4 : 0); // XFL: best / fastest
    out[9] = (byte) 255;
    CRC32 crc = new CRC32();
    crc.update(input);
    putIntLe(out, out.length - 8, (int) crc.getValue());
    putIntLe(out, out.length - 4, input.length);
    return out;
  }

  @Override
  public byte[] decode(byte[] input, int decodedSize) throws CodecException {
    return Deflate.decode(ID, input, decodedSize, GzipCodec::decodeMembers);
  }

  @Override
  public void decodeInto(byte[] input, int inputLength, byte[] out, int size) throws CodecException {
    Deflate.decodeInto(ID, input, inputLength, out, size, GzipCodec::decodeMembers);
  }

  /** Decodes every member of {@code in[0, length)}, skipping zero padding after each. */
  private static void decodeMembers(byte[] in, int length, DecodeTarget target)
      throws CodecException {
    Deflate.withInflater(true, inflater -> {
      int pos = 0;
      while (pos < length) {
        pos = decodeMember(in, pos, length, inflater, target);
        while (pos < length && in[pos] == 0) {
          pos++;
        }
        inflater.reset();
      }
    });
  }

  /** Decodes the member at {@code pos} into {@code target}, returning the position after it. */
  private static int decodeMember(byte[] in, int pos, int length, Inflater inflater,
      DecodeTarget target) throws CodecException {
    long start = target.total();
    int data = skipHeader(in, pos, length);
    inflater.setInput(in, data, length - data);
    Deflate.inflate(ID, inflater, target);
    int trailer = length - inflater.getRemaining();
    if (trailer + TRAILER > length) {
      throw new CodecException(ID + ": truncated data (member has no CRC32 and size trailer)");
    }
    CRC32 crc = new CRC32();
    target.updateCrc(crc, start);
    int expectedCrc = intLe(in, trailer);
    if (expectedCrc != (int) crc.getValue()) {
      throw new CodecException(
          String.format(
              "%s: CRC32 mismatch: expected 0x%08x, actual 0x%08x",
              ID, expectedCrc, (int) crc.getValue()));
    }
    // ISIZE is the member's length modulo 2^32
    if (intLe(in, trailer + 4) != (int) (target.total() - start)) {
      throw new CodecException(ID + ": member size does not match its trailer");
    }
    return trailer + TRAILER;
  }

  /** The position of the deflate data after the member header at {@code pos}. */
  private static int skipHeader(byte[] in, int pos, int length) throws CodecException {
    if (pos + HEADER > length) {
      throw new CodecException(ID + ": truncated gzip header");
    }
    if ((in[pos] & 0xff) != 0x1f || (in[pos + 1] & 0xff) != 0x8b) {
      throw new CodecException(ID + ": not gzip data (bad magic bytes at offset " + pos + ")");
    }
    if (in[pos + 2] != 8) {
      throw new CodecException(ID + ": unknown compression method " + in[pos + 2]);
    }
    int flags = in[pos + 3];
    int p = pos + HEADER;
    if ((flags & FEXTRA) != 0) {
      p = checkedEnd(length, p + 2) + ((in[p] & 0xff) | (in[p + 1] & 0xff) << 8);
    }
    if ((flags & FNAME) != 0) {
      p = afterZero(in, p, length);
    }
    if ((flags & FCOMMENT) != 0) {
      p = afterZero(in, p, length);
    }
    if ((flags & FHCRC) != 0) {
      p += 2;
    }
    return checkedEnd(length, p);
  }

  private static int afterZero(byte[] in, int p, int length) throws CodecException {
    while (checkedEnd(length, p + 1) > 0 && in[p] != 0) {
      p++;
    }
    return p + 1;
  }

  private static int checkedEnd(int length, int end) throws CodecException {
    if (end > length) {
      throw new CodecException(ID + ": truncated gzip header");
    }
    return end;
  }

  private static int intLe(byte[] b, int p) {
    return (int) INT_LE.get(b, p);
  }

  private static void putIntLe(byte[] b, int p, int v) {
    INT_LE.set(b, p, v);
  }
}
