package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.RunDecoder;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;

/** numcodecs AsType: numpy casts from decode_dtype to encode_dtype and back. */
public final class AsType extends ViewFilter {
  public static final String ID = "astype";

  AsType(DataType encodeDtype, DataType decodeDtype) {
    super(decodeDtype, encodeDtype);
  }

  public static AsType fromConfig(JsonNode config) throws CodecException {
    return new AsType(
        FilterConfig.numericDtype(config, "encode_dtype"),
        FilterConfig.numericDtype(config, "decode_dtype"));
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    ObjectNode c = CodecConfig.withId(ID);
    c.put("encode_dtype", FilterConfig.text(astype));
    c.put("decode_dtype", FilterConfig.text(dtype));
    return c;
  }

  @Override
  NumericArray encodeValues(NumericArray x) throws CodecException {
    return NumpyCast.cast(x, astype);
  }

  /** Decoding casts from encode_dtype to decode_dtype: nothing when they are the same. */
  @Override
  public boolean decodesUnchanged(DataType decodedType) {
    return castsToItself(decodedType);
  }

  @Override
  NumericArray decodeValues(NumericArray enc) throws CodecException {
    return NumpyCast.cast(enc, dtype);
  }

  @Override
  RunDecoder valueRuns() {
    return FastCasts.castRuns(astype, dtype);
  }
}
