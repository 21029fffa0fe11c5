package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * numcodecs JSON ("json2") for object arrays: the UTF-8 JSON text of {@code [items..., "|O",
 * shape]}, items nested by the chunk shape as numpy's tolist() nests them. Elements are JSON
 * (each element the JSON text of one item, null for JSON null) or STRING (text items only).
 */
public final class Json2 implements ArrayFilter {
  public static final String ID = "json2";
  private static final String OBJECT_DTYPE = "|O";

  private final ObjectNode config;
  private final PythonJson.Style style;
  private final ObjectMapper reader;

  private Json2(ObjectNode config, PythonJson.Style style, boolean strict) {
    this.config = config;
    this.style = style;
    JsonMapper.Builder b = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS);
    if (!strict) {
      b.enable(JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS);
    }
    this.reader = b.build();
  }

  /** The codec numcodecs.JSON() creates. */
  public static Json2 withDefaults() {
    try {
      return fromConfig(CodecConfig.withId(ID));
    } catch (CodecException e) {
      throw new IllegalStateException(e);
    }
  }

  public static Json2 fromConfig(JsonNode given) throws CodecException {
    String encoding = CodecConfig.optionalText(given, "encoding", "utf-8");
    if (!encoding.equalsIgnoreCase("utf-8") && !encoding.equalsIgnoreCase("utf8")) {
      throw new CodecException("codec 'json2': only the utf-8 encoding is supported, got " + encoding);
    }
    JsonNode indent = given.get("indent");
    if (indent != null && !indent.isNull()) {
      throw new CodecException("codec 'json2': indent is not supported, got " + indent);
    }
    JsonNode separators = given.get("separators");
    String itemSep = ",";
    String keySep = ":";
    if (separators != null && !separators.isNull()) {
      if (!separators.isArray() || separators.size() != 2
          || !separators.get(0).isTextual() || !separators.get(1).isTextual()) {
        throw new CodecException("codec 'json2': separators must be two strings, got " + separators);
      }
      itemSep = separators.get(0).asText();
      keySep = separators.get(1).asText();
    }
    ObjectNode c = CodecConfig.withId(ID);
    c.put("encoding", encoding);
    c.put("skipkeys", flag(given, "skipkeys", false));
    boolean ensureAscii = flag(given, "ensure_ascii", true);
    c.put("ensure_ascii", ensureAscii);
    c.put("check_circular", flag(given, "check_circular", true));
    boolean allowNan = flag(given, "allow_nan", true);
    c.put("allow_nan", allowNan);
    c.putNull("indent");
    c.putArray("separators").add(itemSep).add(keySep);
    boolean sortKeys = flag(given, "sort_keys", true);
    c.put("sort_keys", sortKeys);
    boolean strict = flag(given, "strict", true);
    c.put("strict", strict);
    return new Json2(c, new PythonJson.Style(ensureAscii, sortKeys, allowNan, itemSep, keySep), strict);
  }

  private static boolean flag(JsonNode config, String field, boolean fallback) throws CodecException {
    JsonNode v = config.get(field);
    if (v == null || v.isNull()) {
      return fallback;
    }
    if (!v.isBoolean()) {
      throw new CodecException("codec 'json2': \"" + field + "\" must be true or false, got " + v);
    }
    return v.booleanValue();
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    return config.deepCopy();
  }

  /** The encoded length depends on the values. */
  @Override
  public int encodedCount(int count, DataType decodedType) {
    return -1;
  }

  @Override
  public DataType encodedType(DataType decodedType) throws CodecException {
    if (decodedType.kind() != DataType.Kind.JSON && decodedType.kind() != DataType.Kind.STRING) {
      throw new CodecException("codec 'json2' cannot encode " + decodedType + " elements");
    }
    return DataType.fixedLength(DataType.Kind.RAW, 1, null);
  }

  @Override
  public ChunkData encode(ChunkData decoded) throws CodecException {
    encodedType(decoded.type());
    int[] shape = decoded.shape();
    if (shape.length == 0) {
      throw new CodecException("codec 'json2' cannot encode a 0-dimensional chunk");
    }
    boolean jsonText = decoded.type().kind() == DataType.Kind.JSON;
    JsonNodeFactory f = JsonNodeFactory.instance;
    List<JsonNode> items = new ArrayList<>();
    for (Object o : decoded.objects()) {
      items.add(o == null ? NullNode.instance : jsonText ? parse(text(o)) : TextNode.valueOf(text(o)));
    }
    ArrayNode top = nest(items, shape, 0, new int[] {0});
    top.add(OBJECT_DTYPE);
    ArrayNode dims = top.addArray();
    for (int d : shape) {
      dims.add(d);
    }
    StringBuilder out = new StringBuilder();
    PythonJson.write(top, style, out);
    return ChunkData.ofRawBytes(out.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static String text(Object o) throws CodecException {
    if (!(o instanceof String s)) {
      throw new CodecException("codec 'json2' expects String elements, got " + o.getClass());
    }
    return s;
  }

  /** numpy's tolist(): one list level per dimension, in C order. */
  private static ArrayNode nest(List<JsonNode> items, int[] shape, int dim, int[] next) {
    ArrayNode list = JsonNodeFactory.instance.arrayNode();
    for (int i = 0; i < shape[dim]; i++) {
      list.add(dim + 1 == shape.length ? items.get(next[0]++) : nest(items, shape, dim + 1, next));
    }
    return list;
  }

  private JsonNode parse(String text) throws CodecException {
    try {
      return reader.readTree(text);
    } catch (JsonProcessingException e) {
      throw new CodecException("codec 'json2': element is not JSON: " + e.getOriginalMessage(), e);
    }
  }

  @Override
  public ChunkData decode(ChunkData encoded, DataType decodedType, int count)
      throws CodecException {
    encodedType(decodedType);
    byte[] bytes = encoded.bytes();
    JsonNode top = parse(Utf8.decode(bytes, 0, bytes.length, "codec 'json2'"));
    if (!top.isArray() || top.size() < 2) {
      throw new CodecException("codec 'json2': expected [items..., dtype, shape], got " + abbreviate(top));
    }
    JsonNode dtype = top.get(top.size() - 2);
    if (!dtype.isTextual() || !dtype.asText().equals(OBJECT_DTYPE)) {
      throw new CodecException("codec 'json2': only object arrays (\"|O\") are supported, got dtype " + dtype);
    }
    JsonNode dims = top.get(top.size() - 1);
    List<Integer> shape = new ArrayList<>();
    long total = 1;
    for (JsonNode d : dims.isArray() ? dims : List.<JsonNode>of(dims)) {
      if (!d.canConvertToInt() || !d.isIntegralNumber() || d.intValue() < 0) {
        throw new CodecException("codec 'json2': bad shape " + dims);
      }
      shape.add(d.intValue());
      total = Math.min(total * d.intValue(), Integer.MAX_VALUE + 1L);
    }
    if (!dims.isArray() || shape.isEmpty() || total != count) {
      throw new CodecException("codec 'json2': shape " + dims + " does not hold " + count + " elements");
    }
    List<JsonNode> items = new ArrayList<>(count);
    for (int i = 0; i < top.size() - 2; i++) {
      items.add(top.get(i));
    }
    List<JsonNode> flat = new ArrayList<>(count);
    flatten(items, shape, 0, flat);
    Object[] out = new Object[count];
    for (int i = 0; i < count; i++) {
      out[i] = element(flat.get(i), decodedType);
    }
    return ChunkData.ofObjects(decodedType, new int[] {count}, out);
  }

  private static void flatten(List<JsonNode> items, List<Integer> shape, int dim, List<JsonNode> out)
      throws CodecException {
    if (items.size() != shape.get(dim)) {
      throw new CodecException("codec 'json2': items do not match the shape " + shape);
    }
    for (JsonNode item : items) {
      if (dim + 1 == shape.size()) {
        out.add(item);
      } else if (!item.isArray()) {
        throw new CodecException("codec 'json2': items do not match the shape " + shape);
      } else {
        List<JsonNode> inner = new ArrayList<>();
        item.forEach(inner::add);
        flatten(inner, shape, dim + 1, out);
      }
    }
  }

  private static Object element(JsonNode item, DataType type) throws CodecException {
    if (item.isNull()) {
      return null;
    }
    if (type.kind() == DataType.Kind.STRING) {
      if (!item.isTextual()) {
        throw new CodecException("codec 'json2': item " + abbreviate(item) + " is not a string");
      }
      return item.textValue();
    }
    StringBuilder s = new StringBuilder();
    PythonJson.write(item, PythonJson.Style.ITEM, s);
    return s.toString();
  }

  private static String abbreviate(JsonNode node) {
    String s = node.toString();
    return s.length() > 80 ? s.substring(0, 80) + "..." : s;
  }
}
