package io.github.sparkzarr.zarr.codec.blosc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.BlockSink;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.codec.DecodesInto;
import java.io.IOException;

/**
 * The numcodecs "blosc" compressor (blosc1 frames), in pure Java and compatible with libblosc
 * 1.x both ways. Decoding reads every frame libblosc 1.x writes, whatever the configuration.
 */
public final class BloscCodec implements BytesCodec, DecodesInto {
  public static final String ID = "blosc";

  private final BloscCname cname;
  private final int clevel;
  private final BloscShuffle shuffle;
  private final int blockSize;
  /** The v3 "typesize", used instead of the caller's item size when positive. */
  private final int typeSize;

  /**
   * @param clevel 0 (store uncompressed) to 9
   * @param blockSize bytes per block, 0 for libblosc's automatic choice
   * @param typeSize element size to shuffle by, 0 to use the item size given to encode
   */
  public BloscCodec(BloscCname cname, int clevel, BloscShuffle shuffle, int blockSize, int typeSize)
      throws CodecException {
    if (clevel < 0 || clevel > 9) {
      throw new CodecException("blosc: clevel must be within 0..9, got " + clevel);
    }
    if (blockSize < 0) {
      throw new CodecException("blosc: blocksize must not be negative, got " + blockSize);
    }
    if (typeSize < 0) {
      throw new CodecException("blosc: typesize must not be negative, got " + typeSize);
    }
    this.cname = cname;
    this.clevel = clevel;
    this.shuffle = shuffle;
    this.blockSize = blockSize;
    this.typeSize = typeSize;
  }

  /** From numcodecs v2 configuration; missing fields take numcodecs' defaults. */
  public static BloscCodec fromConfig(JsonNode config) throws CodecException {
    return new BloscCodec(
        BloscCname.fromName(CodecConfig.optionalText(config, "cname", "lz4")),
        CodecConfig.optionalInt(config, "clevel", 5),
        BloscShuffle.fromNumcodecs(CodecConfig.optionalInt(config, "shuffle", 1)),
        CodecConfig.optionalInt(config, "blocksize", 0),
        0);
  }

  /** From a Zarr v3 "blosc" codec's configuration object (shuffle by name, typesize given). */
  public static BloscCodec fromV3Config(JsonNode configuration) throws CodecException {
    return new BloscCodec(
        BloscCname.fromName(CodecConfig.requiredText(configuration, "cname")),
        CodecConfig.requiredInt(configuration, "clevel"),
        BloscShuffle.fromV3Name(CodecConfig.requiredText(configuration, "shuffle")),
        CodecConfig.optionalInt(configuration, "blocksize", 0),
        CodecConfig.optionalInt(configuration, "typesize", 0));
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    ObjectNode node = CodecConfig.withId(ID);
    node.put("cname", cname.configName());
    node.put("clevel", clevel);
    node.put("shuffle", shuffle.numcodecsValue());
    node.put("blocksize", blockSize);
    return node;
  }

  @Override
  public byte[] encode(byte[] input, int itemSize) throws CodecException {
    return new BloscEncoder(cname, clevel, shuffle, blockSize)
        .encode(input, typeSize > 0 ? typeSize : itemSize);
  }

  @Override
  public byte[] decode(byte[] input, int decodedSize) throws CodecException {
    return BloscDecoder.decode(input, decodedSize);
  }

  @Override
  public void decodeInto(byte[] input, int inputLength, byte[] out, int size)
      throws CodecException {
    BloscDecoder.decodeInto(input, inputLength, out, size);
  }

  @Override
  public void decodeInto(byte[] input, int inputLength, byte[] out, int size, DecodeBuffers scratch)
      throws CodecException {
    BloscDecoder.decodeInto(input, inputLength, out, size, scratch);
  }

  /**
   * Decodes a frame ({@code input[0, inputLength)}) of exactly {@code decodedSize} bytes and hands
   * it to {@code sink} block by block, in order, each while it is still in cache; blocks start and
   * end on multiples of {@code elementSize} (a frame whose blocks would not is handed out whole).
   * The same bytes as {@link #decode}, and the same checks.
   */
  public void decodeBlocks(byte[] input, int inputLength, int decodedSize, int elementSize,
      DecodeBuffers buffers, BlockSink sink) throws IOException {
    BloscDecoder.decodeBlocks(input, inputLength, decodedSize, elementSize, buffers, sink);
  }

  @Override
  public String toString() {
    return toConfig().toString();
  }
}
