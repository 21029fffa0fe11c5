package io.github.sparkzarr.zarr.codec.blosc;

import io.github.sparkzarr.zarr.codec.CodecException;
import java.util.Arrays;
import java.util.stream.Collectors;

/** The inner compressors blosc1 knows, with the format number stored in header flag bits 5-7. */
public enum BloscCname {
  BLOSCLZ("blosclz", 0),
  LZ4("lz4", 1),
  LZ4HC("lz4hc", 1),
  SNAPPY("snappy", 2),
  ZLIB("zlib", 3),
  ZSTD("zstd", 4);

  /** Every inner format writes version 1 in the header's versionlz byte. */
  static final int VERSION_LZ = 1;

  private final String configName;
  private final int format;

  BloscCname(String configName, int format) {
    this.configName = configName;
    this.format = format;
  }

  /** The name numcodecs and the v3 spec use, such as "lz4hc". */
  public String configName() {
    return configName;
  }

  int format() {
    return format;
  }

  /** Compressors meant for high ratios get larger automatic blocks in libblosc. */
  boolean highCompressionRatio() {
    return this == LZ4HC || this == ZLIB || this == ZSTD;
  }

  public static BloscCname fromName(String name) throws CodecException {
    for (BloscCname c : values()) {
      if (c.configName.equals(name)) {
        return c;
      }
    }
    throw new CodecException(
        "blosc: unknown cname '"
            + name
            + "' (supported: "
            + Arrays.stream(values()).map(BloscCname::configName).collect(Collectors.joining(", "))
            + ")");
  }

  InnerCodec newEncoder(int clevel) {
    return switch (this) {
      case BLOSCLZ -> new BloscLzInnerCodec();
      case LZ4 -> Lz4InnerCodec.fast();
      case LZ4HC -> Lz4InnerCodec.highCompression(clevel);
      case SNAPPY -> new SnappyInnerCodec();
      case ZLIB -> new ZlibInnerCodec(clevel);
      case ZSTD -> new ZstdInnerCodec(clevel);
    };
  }

  /** A decoder for the format number of a frame's flags. */
  static InnerCodec newDecoder(int format) throws CodecException {
    return switch (format) {
      case 0 -> new BloscLzInnerCodec();
      case 1 -> Lz4InnerCodec.decoder();
      case 2 -> new SnappyInnerCodec();
      case 3 -> ZlibInnerCodec.decoder();
      case 4 -> ZstdInnerCodec.decoder();
      default -> throw new CodecException("blosc: unknown compressor format " + format);
    };
  }
}
