package io.github.sparkzarr.zarr.codec.compress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdException;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodeLimit;
import io.github.sparkzarr.zarr.codec.DecodesInto;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * numcodecs "zstd": one Zstandard frame with its content size. Decoding also takes frames without
 * a content size and concatenated frames, as numcodecs ≥ 0.13 does.
 *
 * <p>{@code checksum} (numcodecs ≥ 0.13) adds zstd's content checksum; it is written to the
 * configuration only when true, so numcodecs 0.11, which has no such parameter, reads the rest.
 */
public record ZstdCodec(int level, boolean checksum) implements BytesCodec, DecodesInto {
  public static final String ID = "zstd";

  /** numcodecs' default level; zstd reads 0 as its own default, 3. */
  public static final int DEFAULT_LEVEL = 0;

  /**
   * A frame cannot decode to more than about 32768 times its size (one 4-byte RLE block per 128
   * KiB); twice that leaves slack. A larger declared content size is corrupt or hostile.
   */
  private static final long MAX_RATIO = 1 << 16;

  public static ZstdCodec fromConfig(JsonNode config) throws CodecException {
    JsonNode checksum = config.get("checksum");
    if (checksum != null && !checksum.isNull() && !checksum.isBoolean()) {
      throw new CodecException(
          CodecConfig.describe(config) + ": \"checksum\" must be a boolean, got " + checksum);
    }
    return new ZstdCodec(
        CodecConfig.optionalInt(config, "level", DEFAULT_LEVEL),
        checksum != null && checksum.asBoolean());
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    ObjectNode config = CodecConfig.withId(ID).put("level", level);
    if (checksum) {
      config.put("checksum", true);
    }
    return config;
  }

  @Override
  public byte[] encode(byte[] input, int itemSize) {
    try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
      return ctx.setLevel(level).setChecksum(checksum).compress(input);
    }
  }

  @Override
  public byte[] decode(byte[] input, int decodedSize) throws CodecException {
    if (decodedSize >= 0) {
      return decodeInto(input, input.length, new byte[decodedSize], decodedSize, true);
    }
    if (input.length == 0) {
      throw new CodecException(ID + ": no data (an empty input holds no zstd frame)");
    }
    // negative: unknown or unreadable. Not getFrameContentSize: Spark 3.5 ships zstd-jni 1.5.5,
    // which lacks it; this older call answers the same on 1.5.5 and 1.5.6.
    long declared = Zstd.decompressedSize(input, 0, input.length, false);
    if (declared >= 0) {
      if (declared > DecodeTarget.MAX_SIZE || declared > input.length * MAX_RATIO) {
        throw new CodecException(
            ID + ": frame declares an implausible content size of " + declared + " bytes");
      }
      DecodeLimit.checkDeclared(ID, declared);
      byte[] out = decodeInto(input, input.length, new byte[(int) declared], (int) declared, false);
      if (out != null) {
        return out;
      }
    }
    // unknown content size, or more frames than the first one declares: stream
    try {
      return DecodeTarget.readAll(
          ID, new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(input)), -1, input.length * 4L);
    } catch (IOException e) {
      throw DecodeTarget.corrupt(ID, e);
    }
  }

  @Override
  public void decodeInto(byte[] input, int inputLength, byte[] out, int size)
      throws CodecException {
    decodeInto(input, inputLength, out, size, true);
  }

  /**
   * One-shot decoding of {@code input[0, inputLength)} into {@code out[0, size)}. With {@code
   * exact}, any other outcome than filling it exactly fails; otherwise a too small {@code out}
   * returns null so the caller can stream.
   */
  private static byte[] decodeInto(byte[] input, int inputLength, byte[] out, int size,
      boolean exact) throws CodecException {
    int n;
    try {
      // zstd-jni reports failures as ZstdException, not as error codes
      n = ZstdContexts.decompressor().decompressByteArray(out, 0, size, input, 0, inputLength);
    } catch (ZstdException e) {
      if (e.getErrorCode() == Zstd.errDstSizeTooSmall()) {
        if (!exact) {
          return null;
        }
        throw new CodecException(
            ID + ": data decodes to more than the expected " + size + " bytes");
      }
      throw new CodecException(ID + ": corrupt or truncated data (" + e.getMessage() + ")", e);
    } catch (RuntimeException e) {
      throw DecodeTarget.corrupt(ID, e); // zstd-jni's own argument checks, e.g. on empty input
    }
    if (n != size) {
      throw new CodecException(ID + ": data decodes to " + n + " bytes, expected " + size);
    }
    return out;
  }
}
