package io.github.sparkzarr.zarr.codec.compress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import java.util.zip.Inflater;

/** numcodecs "zlib": a zlib stream (RFC 1950) as Python's {@code zlib.compress} writes it. */
public record ZlibCodec(int level) implements BytesCodec {
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
    Inflater inflater = new Inflater();
    try {
      inflater.setInput(input);
      DecodeTarget target = new DecodeTarget(ID, decodedSize, Deflate.guess(input.length));
      Deflate.inflate(ID, inflater, target);
      return target.finish();
    } finally {
      inflater.end();
    }
  }
}
