package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * numcodecs Categorize: each text value becomes its 1-based position in {@code labels}, 0 when
 * it is not a label; decoding turns 0 (and any unknown code) into the empty string. The dtype is
 * either numpy object ("|O", elements are Strings) or fixed-width unicode ("&lt;U5").
 */
public final class Categorize implements ArrayFilter {
  public static final String ID = "categorize";
  private static final DataType STRING = DataType.variableLength(DataType.Kind.STRING);

  private final List<String> labels;
  private final Map<String, Integer> codes = new HashMap<>();
  /** The fixed-width unicode dtype, or null for object ("|O"). */
  private final DataType unicode;
  private final DataType astype;

  Categorize(List<String> labels, DataType unicode, DataType astype) {
    this.labels = List.copyOf(labels);
    this.unicode = unicode;
    this.astype = astype;
    for (int i = 0; i < labels.size(); i++) {
      codes.put(labels.get(i), i + 1); // numcodecs assigns in order: a repeated label keeps its last code
    }
  }

  public static Categorize fromConfig(JsonNode config) throws CodecException {
    JsonNode list = config.get("labels");
    if (list == null || !list.isArray()) {
      throw new CodecException(CodecConfig.describe(config) + ": \"labels\" must be a list of strings");
    }
    List<String> labels = new ArrayList<>();
    for (JsonNode label : list) {
      if (!label.isTextual()) {
        throw new CodecException(CodecConfig.describe(config) + ": label " + label + " is not a string");
      }
      labels.add(label.asText());
    }
    String dtypeText = CodecConfig.requiredText(config, "dtype");
    DataType unicode = null;
    if (!NumpyDtype.isObject(config.get("dtype"))) {
      unicode = FilterConfig.dtype(config, "dtype", dtypeText);
      if (unicode.kind() != DataType.Kind.UNICODE || unicode.size() == 0) {
        throw new CodecException(
            CodecConfig.describe(config) + ": dtype must be unicode ('U') or object ('O'), got "
                + dtypeText);
      }
    }
    DataType astype =
        FilterConfig.optionalNumericDtype(
            config, "astype", DataType.numeric(DataType.Kind.UINT, 1, ByteOrder.LITTLE_ENDIAN));
    return new Categorize(labels, unicode, astype);
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    ObjectNode c = CodecConfig.withId(ID);
    ArrayNode list = c.putArray("labels");
    labels.forEach(list::add);
    c.put("dtype", unicode == null ? "|O" : FilterConfig.text(unicode));
    c.put("astype", FilterConfig.text(astype));
    return c;
  }

  @Override
  public DataType encodedType(DataType decodedType) throws CodecException {
    boolean ok =
        unicode == null
            ? decodedType.kind() == DataType.Kind.STRING
            : !decodedType.isVariableLength();
    if (!ok) {
      throw new CodecException(
          "codec 'categorize' with dtype " + (unicode == null ? "|O" : FilterConfig.text(unicode))
              + " cannot encode " + decodedType + " elements");
    }
    return astype;
  }

  @Override
  public ChunkData encode(ChunkData decoded) throws CodecException {
    encodedType(decoded.type());
    String[] values = unicode == null ? strings(decoded.objects()) : UnicodeText.read(unicode, decoded.bytes());
    NumericArray enc = NumericArray.allocate(astype, values.length);
    for (int i = 0; i < values.length; i++) {
      Integer code = values[i] == null ? null : codes.get(values[i]);
      NumpyCast.setInteger(enc, i, code == null ? 0 : code, false);
    }
    return ChunkData.ofBytes(astype, new int[] {values.length}, enc.bytes());
  }

  private static String[] strings(Object[] objects) throws CodecException {
    String[] out = new String[objects.length];
    for (int i = 0; i < objects.length; i++) {
      if (objects[i] != null && !(objects[i] instanceof String)) {
        throw new CodecException("codec 'categorize' expects String elements, got " + objects[i].getClass());
      }
      out[i] = (String) objects[i];
    }
    return out;
  }

  @Override
  public ChunkData decode(ChunkData encoded, DataType decodedType, int count)
      throws CodecException {
    encodedType(decodedType);
    byte[] bytes = encoded.bytes();
    if (bytes.length % astype.size() != 0) {
      throw new CodecException("codec 'categorize': " + bytes.length + " bytes are not whole " + astype + " codes");
    }
    NumericArray enc = NumericArray.wrap(astype, bytes);
    String[] values = new String[enc.length()];
    for (int i = 0; i < values.length; i++) {
      long code = code(enc, i);
      values[i] = code >= 1 && code <= labels.size() ? labels.get((int) code - 1) : "";
    }
    if (unicode == null) {
      if (values.length != count) {
        throw new CodecException("codec 'categorize' decoded " + values.length + " elements, expected " + count);
      }
      return ChunkData.ofObjects(STRING, new int[] {count}, values);
    }
    byte[] out = UnicodeText.write(unicode, values);
    if (out.length != (long) count * decodedType.size()) {
      throw new CodecException(
          "codec 'categorize' decoded " + values.length + " " + FilterConfig.text(unicode)
              + " elements, which do not make " + count + " " + decodedType + " elements");
    }
    return ChunkData.ofBytes(decodedType, new int[] {count}, out);
  }

  /** The code at {@code i} if it is a whole number (numpy compares numerically), else -1. */
  private static long code(NumericArray enc, int i) {
    if (enc.isFloat()) {
      double d = enc.getDouble(i);
      return d == Math.rint(d) && Math.abs(d) < 0x1p62 ? (long) d : -1;
    }
    return enc.getLong(i); // UINT 8 above 2^63 reads negative: never a label code
  }
}
