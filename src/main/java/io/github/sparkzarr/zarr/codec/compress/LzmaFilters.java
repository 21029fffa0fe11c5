package io.github.sparkzarr.zarr.codec.compress;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.sparkzarr.zarr.codec.CodecException;
import java.util.Iterator;
import org.tukaani.xz.DeltaOptions;
import org.tukaani.xz.FilterOptions;
import org.tukaani.xz.LZMA2Options;
import org.tukaani.xz.UnsupportedOptionsException;

/**
 * Python's lzma filter specifications ({@code {"id": 33, "preset": 1}}) as xz-java options. Only
 * the filters numcodecs users write in practice: LZMA1, LZMA2 and delta.
 */
final class LzmaFilters {
  static final long LZMA1 = 0x4000000000000001L;
  static final long LZMA2 = 0x21;
  static final long DELTA = 0x03;

  private static final long PRESET_EXTREME = 0x80000000L;
  private static final long PRESET_LEVEL_MASK = 0x1f;
  private static final int PRESET_DEFAULT = 6;
  private static final int MAX_FILTERS = 4;

  private LzmaFilters() {}

  /**
   * The options of an LZMA preset. The extreme flag is accepted but xz-java has no extreme mode:
   * the output is the plain level's, which every decoder reads the same way.
   */
  static LZMA2Options preset(Long preset) throws CodecException {
    long value = preset == null ? PRESET_DEFAULT : preset;
    long level = value & PRESET_LEVEL_MASK;
    if ((value & ~(PRESET_LEVEL_MASK | PRESET_EXTREME)) != 0 || level > 9) {
      throw new CodecException("lzma: invalid preset " + value);
    }
    try {
      return new LZMA2Options((int) level);
    } catch (UnsupportedOptionsException e) {
      throw new CodecException("lzma: invalid preset " + value, e);
    }
  }

  /** The filter chain, in encoding order: one LZMA1 filter for FORMAT_ALONE, else [delta...] LZMA2. */
  static FilterOptions[] chain(JsonNode filters, boolean alone) throws CodecException {
    if (!filters.isArray() || filters.isEmpty() || filters.size() > MAX_FILTERS) {
      throw new CodecException("lzma: \"filters\" must be a list of 1 to 4 filters, got " + filters);
    }
    FilterOptions[] chain = new FilterOptions[filters.size()];
    for (int i = 0; i < chain.length; i++) {
      JsonNode spec = filters.get(i);
      long id = filterId(spec);
      boolean last = i == chain.length - 1;
      if (alone ? id == LZMA1 && chain.length == 1 : last ? id == LZMA2 : id == DELTA) {
        chain[i] = id == DELTA ? delta(spec) : lzma(spec);
      } else {
        throw new CodecException(
            "lzma: unsupported filter chain " + filters
                + (alone
                    ? " (FORMAT_ALONE takes one LZMA1 filter)"
                    : " (supported: optional delta filters, then LZMA2)"));
      }
    }
    return chain;
  }

  private static long filterId(JsonNode spec) throws CodecException {
    JsonNode id = spec == null ? null : spec.get("id");
    if (id == null || !id.isIntegralNumber() || !id.canConvertToLong()) {
      throw new CodecException("lzma: filter needs an integer \"id\", got " + spec);
    }
    return id.longValue();
  }

  /** Python's rule: start from the preset (default 6), then apply the explicit fields. */
  private static LZMA2Options lzma(JsonNode spec) throws CodecException {
    JsonNode preset = spec.get("preset");
    LZMA2Options options =
        preset(preset == null || preset.isNull() ? null : integer(spec, "preset"));
    try {
      for (Iterator<String> names = spec.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        int value = (int) integer(spec, name);
        switch (name) {
          case "id", "preset" -> { }
          case "dict_size" -> options.setDictSize(value);
          case "lc" -> options.setLc(value);
          case "lp" -> options.setLp(value);
          case "pb" -> options.setPb(value);
          case "mode" -> options.setMode(value);
          case "nice_len" -> options.setNiceLen(value);
          case "mf" -> options.setMatchFinder(value);
          case "depth" -> options.setDepthLimit(value);
          default -> throw new CodecException("lzma: unknown filter option in " + spec);
        }
      }
    } catch (UnsupportedOptionsException e) {
      throw new CodecException("lzma: unsupported filter options " + spec + ": " + e.getMessage());
    }
    return options;
  }

  private static DeltaOptions delta(JsonNode spec) throws CodecException {
    try {
      JsonNode dist = spec.get("dist");
      return new DeltaOptions(dist == null ? 1 : (int) integer(spec, "dist"));
    } catch (UnsupportedOptionsException e) {
      throw new CodecException("lzma: unsupported delta filter " + spec + ": " + e.getMessage());
    }
  }

  private static long integer(JsonNode spec, String field) throws CodecException {
    JsonNode v = spec.get(field);
    if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new CodecException("lzma: filter field \"" + field + "\" must be an integer: " + spec);
    }
    return v.longValue();
  }
}
