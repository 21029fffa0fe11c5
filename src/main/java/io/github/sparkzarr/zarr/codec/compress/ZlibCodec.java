package io.github.sparkzarr.zarr.codec.compress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodesInto;

/** numcodecs "zlib": a zlib stream (RFC 1950) as Python's {@code zlib.compress} writes it. */
public record ZlibCodec(int level) implements BytesCodec, DecodesInto {
  public static final String ID = "zlib";

  public ZlibCodec {
    if (level < -1 || level > 9) {
      throw new IllegalArgumentException("zlib level must be -1..9, got " + level);
    }
  }

  public static ZlibCodec fromConfig(JsonNode config) throws CodecException {
    int level = CodecConfig.optionalInt(config, "level", 1);
    return CodecConfig.build(config, () -> new ZlibCodec(level));
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    return CodecConfig.withId(ID).put("level", level);
  }

  @Override
  public byte[] encode(byte[] input, int itemSize) {
    return Deflate.deflate(input, level, false, 0, 0);
  }

  /** Like Python's {@code zlib.decompress}, bytes after the end of the stream are ignored. */
  @Override
  public byte[] decode(byte[] input, int decodedSize) throws CodecException {
    return Deflate.decode(ID, input, decodedSize, ZlibCodec::inflate);
  }

  @Override
  public void decodeInto(byte[] input, int inputLength, byte[] out, int size) throws CodecException {
    Deflate.decodeInto(ID, input, inputLength, out, size, ZlibCodec::inflate);
  }

  private static void inflate(byte[] input, int length, DecodeTarget target) throws CodecException {
    Deflate.withInflater(false, inflater -> {
      inflater.setInput(input, 0, length);
      Deflate.inflate(ID, inflater, target);
    });
  }
}
