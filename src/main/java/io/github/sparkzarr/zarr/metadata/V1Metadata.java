package io.github.sparkzarr.zarr.metadata;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.ZarrException;
import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.Codec;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import java.util.List;

/**
 * Reads and writes Zarr v1 ("Zarr storage specification version 1") {@code meta} documents: an
 * array is {@code meta} (zarr_format 1, shape, chunks, dtype, compression, compression_opts,
 * fill_value, order), {@code attrs}, and chunks keyed "0.0" beside them. v1 has no groups.
 */
public final class V1Metadata {
  private V1Metadata() {}

  public static final String META_KEY = "meta";
  public static final String ATTRS_KEY = "attrs";

  public static ArrayMetadata readArray(ObjectNode meta, ObjectNode attributes, String location, String key)
      throws ZarrException {
    try {
      int format = V2Metadata.requiredInt(meta, "zarr_format");
      if (format != 1) {
        throw new IllegalArgumentException("zarr_format must be 1, got " + format);
      }
      long[] shape = V2Metadata.longs(V2Metadata.required(meta, "shape"), "shape");
      int[] chunks = V2Metadata.ints(V2Metadata.required(meta, "chunks"), "chunks");
      DataType dtype;
      try {
        dtype = NumpyDtype.parse(V2Metadata.required(meta, "dtype"));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("dtype: " + e.getMessage(), e);
      }
      String order = V2Metadata.requiredText(meta, "order");
      if (!order.equals("C") && !order.equals("F")) {
        throw new IllegalArgumentException("order must be \"C\" or \"F\", got \"" + order + "\"");
      }
      BytesCodec compressor = compressor(V2Metadata.requiredText(meta, "compression"), meta.get("compression_opts"));
      FillValue fill = FillValue.parseV2(meta.get("fill_value"), dtype);
      V2ChunkCodec codec = new V2ChunkCodec(dtype, order.equals("F"), List.of(), compressor);
      return new ArrayMetadata(1, shape, chunks, dtype, fill, codec, ChunkKeyEncoding.v2('.'), null,
          attributes == null ? Json.object() : attributes);
    } catch (IllegalArgumentException | ArithmeticException | CodecException e) {
      throw new ZarrException(location, key, "invalid array metadata: " + e.getMessage(), e);
    }
  }

  /** The v1 compressions, each mapped onto the numcodecs codec that writes the same bytes. */
  private static BytesCodec compressor(String name, JsonNode opts) throws CodecException {
    ObjectNode config = Json.object();
    checkOptions(name, opts);
    switch (name) {
      case "none" -> {
        return null;
      }
      case "blosc" -> {
        config.put("id", "blosc");
        if (opts != null && opts.isObject()) {
          config.setAll((ObjectNode) opts);
        }
      }
      case "zlib", "bz2" -> {
        config.put("id", name);
        if (opts != null && opts.isIntegralNumber()) {
          config.set("level", opts);
        }
      }
      case "lzma" -> {
        config.put("id", "lzma");
        if (opts != null && opts.isObject()) {
          config.setAll((ObjectNode) opts);
        }
      }
      default -> throw new CodecException("unknown v1 compression '" + name + "' (supported: blosc, zlib, bz2, lzma, none)");
    }
    Codec c = CodecRegistry.fromConfig(config);
    return (BytesCodec) c;
  }

  /** compression_opts is an integer level (zlib, bz2) or an object (blosc, lzma), or null. */
  private static void checkOptions(String name, JsonNode opts) {
    if (opts == null || opts.isNull()) {
      return;
    }
    boolean level = name.equals("zlib") || name.equals("bz2");
    boolean object = name.equals("blosc") || name.equals("lzma");
    if ((level && !opts.isIntegralNumber()) || (object && !opts.isObject())) {
      throw new IllegalArgumentException("compression_opts for " + name + " must be "
          + (level ? "an integer level" : "an object") + " or null, got " + opts);
    }
  }

  /** The {@code meta} document of {@code md}, whose codec must be a filter-less V2ChunkCodec. */
  public static ObjectNode toMeta(ArrayMetadata md) {
    if (!(md.codec() instanceof V2ChunkCodec codec) || !codec.filters().isEmpty()) {
      throw new IllegalArgumentException("a v1 array needs a v1/v2 codec chain without filters");
    }
    ObjectNode m = Json.object();
    m.put("zarr_format", 1);
    ArrayNode shape = m.putArray("shape");
    for (long d : md.shape()) {
      shape.add(d);
    }
    ArrayNode chunks = m.putArray("chunks");
    for (int d : md.chunkShape()) {
      chunks.add(d);
    }
    m.set("dtype", NumpyDtype.toJson(codec.storageType()));
    BytesCodec c = codec.compressor();
    if (c == null) {
      m.put("compression", "none");
      m.set("compression_opts", NullNode.getInstance());
    } else {
      ObjectNode config = c.toConfig();
      String id = config.remove("id").asText();
      m.put("compression", id);
      switch (id) {
        case "zlib", "bz2" -> m.set("compression_opts", config.get("level"));
        case "blosc", "lzma" -> m.set("compression_opts", config);
        default -> throw new IllegalArgumentException("v1 has no compression '" + id + "'");
      }
    }
    m.set("fill_value", md.fillValue().json());
    m.put("order", codec.fortranOrder() ? "F" : "C");
    return m;
  }
}
