package io.github.sparkzarr.zarr.codec.compress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;

/** numcodecs "bz2": bzip2 streams as Python's {@code bz2.compress} writes them. */
public record Bz2Codec(int level) implements BytesCodec {
  public static final String ID = "bz2";

  public Bz2Codec {
    if (level < 1 || level > 9) {
      throw new IllegalArgumentException("bz2 level must be 1..9, got " + level);
    }
  }

  public static Bz2Codec fromConfig(JsonNode config) throws CodecException {
    int level = CodecConfig.optionalInt(config, "level", 1);
    return CodecConfig.build(config, () -> new Bz2Codec(level));
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
    ByteArrayOutputStream out = new ByteArrayOutputStream(input.length / 2 + 64);
    // the level is the block size in units of 100 kB, as in bzip2 itself
    try (BZip2CompressorOutputStream bz = new BZip2CompressorOutputStream(out, level)) {
      bz.write(input);
    } catch (IOException e) {
      throw new UncheckedIOException("bzip2 compression into memory failed", e);
    }
    return out.toByteArray();
  }

  /** Concatenated streams decode one after another, as in Python; empty input is empty output. */
  @Override
  public byte[] decode(byte[] input, int decodedSize) throws CodecException {
    if (input.length == 0) {
      return new DecodeTarget(ID, decodedSize, 0).finish();
    }
    BZip2CompressorInputStream in;
    try {
      in = new BZip2CompressorInputStream(new ByteArrayInputStream(input), true);
    } catch (IOException | RuntimeException e) {
      throw DecodeTarget.corrupt(ID, e);
    }
    return DecodeTarget.readAll(ID, in, decodedSize, input.length * 5L);
  }
}
