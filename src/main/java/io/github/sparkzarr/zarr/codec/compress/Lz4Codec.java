package io.github.sparkzarr.zarr.codec.compress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodeLimit;
import io.github.sparkzarr.zarr.codec.DecodesInto;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * numcodecs "lz4": the decoded size as a 4-byte little-endian integer, then one raw LZ4 block.
 *
 * <p>lz4-java has no acceleration parameter, so encoding always uses LZ4's default (acceleration
 * 1): the best compression the fast mode gives. The value is kept for the configuration.
 */
public record Lz4Codec(int acceleration) implements BytesCodec, DecodesInto {
  public static final String ID = "lz4";

  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final int HEADER = 4;

  /** An LZ4 block decodes to at most about 255 times its size (one byte per 255 match bytes). */
  private static final long MAX_RATIO = 256;

  private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
  private static final LZ4SafeDecompressor DECOMPRESSOR =
      LZ4Factory.fastestInstance().safeDecompressor();

  public static Lz4Codec fromConfig(JsonNode config) throws CodecException {
    return new Lz4Codec(CodecConfig.optionalInt(config, "acceleration", 1));
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    return CodecConfig.withId(ID).put("acceleration", acceleration);
  }

  @Override
  public byte[] encode(byte[] input, int itemSize) {
    byte[] out = new byte[HEADER + COMPRESSOR.maxCompressedLength(input.length)];
    INT_LE.set(out, 0, input.length);
    int n = COMPRESSOR.compress(input, 0, input.length, out, HEADER, out.length - HEADER);
    return Arrays.copyOf(out, HEADER + n);
  }

  @Override
  public byte[] decode(byte[] input, int decodedSize) throws CodecException {
    int declared = declaredSize(input, input.length, decodedSize);
    if (decodedSize < 0) {
      DecodeLimit.checkDeclared(ID, declared);
    }
    byte[] out = new byte[declared];
    decompress(input, input.length, out, declared);
    return out;
  }

  @Override
  public void decodeInto(byte[] input, int inputLength, byte[] out, int size) throws CodecException {
    decompress(input, inputLength, out, declaredSize(input, inputLength, size));
  }

  /** The size the header declares, checked against the expected one (when not negative). */
  private static int declaredSize(byte[] input, int inputLength, int decodedSize) throws CodecException {
    if (inputLength < HEADER) {
      throw new CodecException(ID + ": truncated data (" + inputLength + " bytes, no size header)");
    }
    int declared = (int) INT_LE.get(input, 0);
    if (decodedSize >= 0 && declared != decodedSize) {
      throw new CodecException(
          ID + ": header declares " + Integer.toUnsignedString(declared)
              + " decoded bytes, expected " + decodedSize);
    }
    if (declared < 0 || declared > DecodeTarget.MAX_SIZE
        || declared > (inputLength - HEADER) * MAX_RATIO + 16) {
      throw new CodecException(
          ID + ": header declares an implausible decoded size of "
              + Integer.toUnsignedString(declared) + " bytes for " + inputLength + " input bytes");
    }
    return declared;
  }

  /** The block after the header into {@code out[0, declared)}, which it must fill exactly. */
  private static void decompress(byte[] input, int inputLength, byte[] out, int declared)
      throws CodecException {
    int n;
    try {
      n = DECOMPRESSOR.decompress(input, HEADER, inputLength - HEADER, out, 0, declared);
    } catch (LZ4Exception e) {
      throw DecodeTarget.corrupt(ID, e);
    }
    if (n != declared) {
      throw new CodecException(ID + ": data decodes to " + n + " bytes, header declares " + declared);
    }
  }
}
