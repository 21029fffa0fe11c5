package io.github.sparkzarr.zarr.codec.compress;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import org.tukaani.xz.ArrayCache;
import org.tukaani.xz.BasicArrayCache;
import org.tukaani.xz.FilterOptions;
import org.tukaani.xz.FinishableOutputStream;
import org.tukaani.xz.FinishableWrapperOutputStream;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.LZMAInputStream;
import org.tukaani.xz.LZMAOutputStream;
import org.tukaani.xz.UnsupportedOptionsException;
import org.tukaani.xz.XZ;
import org.tukaani.xz.XZInputStream;
import org.tukaani.xz.XZOutputStream;

/**
 * numcodecs "lzma": Python's {@code lzma.compress(format, check, preset, filters)}. FORMAT_XZ and
 * FORMAT_ALONE describe themselves, so decoding them ignores preset and filters; FORMAT_RAW needs
 * its filter chain (delta filters, then LZMA2) to decode.
 */
public final class LzmaCodec implements BytesCodec {
  public static final String ID = "lzma";
  public static final int FORMAT_XZ = 1;
  public static final int FORMAT_ALONE = 2;
  public static final int FORMAT_RAW = 3;
  public static final int CHECK_DEFAULT = -1;

  /**
   * Decoders allocate the dictionary a header declares; 256 MiB covers every preset (at most 64
   * MiB) but refuses the 1.5 GiB a hostile header can ask for.
   */
  private static final int MEMORY_LIMIT_KIB = 256 * 1024;

  /** Reuses dictionaries and buffers across calls: the decoder would otherwise allocate MiBs each. */
  private static final ArrayCache CACHE = BasicArrayCache.getInstance();

  private final int format;
  private final int check;
  private final Long preset;
  private final JsonNode filters;
  private final FilterOptions[] chain;

  /**
   * @param preset null for Python's default (6)
   * @param filters null, or Python's list of filter specifications (then preset must be null)
   */
  public LzmaCodec(int format, int check, Long preset, JsonNode filters) throws CodecException {
    this.format = format;
    this.check = check;
    this.preset = preset;
    this.filters = filters == null || filters.isNull() ? null : filters.deepCopy();
    if (format < FORMAT_XZ || format > FORMAT_RAW) {
      throw new CodecException(ID + ": unsupported format " + format + " (1=XZ, 2=ALONE, 3=RAW)");
    }
    boolean xzCheck = check == XZ.CHECK_CRC32 || check == XZ.CHECK_CRC64 || check == XZ.CHECK_SHA256;
    if (check != CHECK_DEFAULT && check != XZ.CHECK_NONE && !(format == FORMAT_XZ && xzCheck)) {
      throw new CodecException(ID + ": invalid check " + check + " for format " + format);
    }
    if (this.filters != null && preset != null) {
      throw new CodecException(ID + ": cannot specify both preset and filters");
    }
    if (format == FORMAT_RAW && this.filters == null) {
      throw new CodecException(ID + ": FORMAT_RAW needs \"filters\"");
    }
    this.chain =
        this.filters == null
            ? new FilterOptions[] {LzmaFilters.preset(preset)}
            : LzmaFilters.chain(this.filters, format == FORMAT_ALONE);
  }

  public static LzmaCodec fromConfig(JsonNode config) throws CodecException {
    JsonNode preset = config.get("preset");
    if (preset != null && !preset.isNull() && !(preset.isIntegralNumber() && preset.canConvertToLong())) {
      throw new CodecException(CodecConfig.describe(config) + ": \"preset\" must be an integer");
    }
    return new LzmaCodec(
        CodecConfig.optionalInt(config, "format", FORMAT_XZ),
        CodecConfig.optionalInt(config, "check", CHECK_DEFAULT),
        preset == null || preset.isNull() ? null : preset.longValue(),
        config.get("filters"));
  }

  @Override
  public String id() {
    return ID;
  }

  /** All four fields, null included, exactly as numcodecs' {@code get_config()}. */
  @Override
  public ObjectNode toConfig() {
    ObjectNode config = CodecConfig.withId(ID).put("format", format).put("check", check);
    if (preset == null) {
      config.putNull("preset");
    } else if (preset == preset.intValue()) {
      config.put("preset", preset.intValue()); // an int node, as JSON parsing gives
    } else {
      config.put("preset", preset);
    }
    config.set("filters", filters == null ? config.nullNode() : filters.deepCopy());
    return config;
  }

  @Override
  public byte[] encode(byte[] input, int itemSize) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(input.length / 2 + 64);
    try (FinishableOutputStream stream = encoder(out, input.length)) {
      stream.write(input);
    } catch (IOException e) {
      throw new UncheckedIOException("lzma compression into memory failed", e);
    }
    return out.toByteArray();
  }

  private FinishableOutputStream encoder(ByteArrayOutputStream out, long size) throws IOException {
    switch (format) {
      case FORMAT_XZ:
        return new XZOutputStream(out, chain, check == CHECK_DEFAULT ? XZ.CHECK_CRC64 : check, CACHE);
      case FORMAT_ALONE:
        return new LZMAOutputStream(out, (LZMA2Options) chain[0], size, CACHE);
      default:
        FinishableOutputStream stream = new FinishableWrapperOutputStream(out);
        for (int i = chain.length - 1; i >= 0; i--) {
          stream = chain[i].getOutputStream(stream, CACHE);
        }
        return stream;
    }
  }

  @Override
  public byte[] decode(byte[] input, int decodedSize) throws CodecException {
    InputStream in;
    try {
      in = decoder(new ByteArrayInputStream(input), decodedSize);
    } catch (IOException | RuntimeException e) {
      throw DecodeTarget.corrupt(ID, e);
    }
    return DecodeTarget.readAll(ID, in, decodedSize, input.length * 4L);
  }

  private InputStream decoder(InputStream in, int decodedSize) throws IOException {
    switch (format) {
      case FORMAT_XZ:
        return new XZInputStream(in, MEMORY_LIMIT_KIB, true, CACHE);
      case FORMAT_ALONE:
        return new LZMAInputStream(in, MEMORY_LIMIT_KIB, CACHE);
      default:
        for (int i = chain.length - 1; i >= 0; i--) {
          in = rawDecoderOptions(chain[i], decodedSize).getInputStream(in, CACHE);
        }
        return in;
    }
  }

  /**
   * LZMA never refers further back than the data decoded so far, so a dictionary bigger than the
   * known decoded size is wasted memory on every chunk.
   */
  private static FilterOptions rawDecoderOptions(FilterOptions options, int decodedSize)
      throws UnsupportedOptionsException {
    if (!(options instanceof LZMA2Options lzma)
        || decodedSize < 0
        || decodedSize >= lzma.getDictSize()) {
      return options;
    }
    LZMA2Options smaller = (LZMA2Options) lzma.clone();
    smaller.setDictSize(Math.max(decodedSize, LZMA2Options.DICT_SIZE_MIN));
    return smaller;
  }

  public int format() {
    return format;
  }

  public int check() {
    return check;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LzmaCodec other
        && format == other.format
        && check == other.check
        && Objects.equals(preset, other.preset)
        && Objects.equals(filters, other.filters);
  }

  @Override
  public int hashCode() {
    return Objects.hash(format, check, preset, filters);
  }

  @Override
  public String toString() {
    return "LzmaCodec" + toConfig();
  }
}
