package io.github.sparkzarr.zarr.dtype;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A Zarr element type, independent of the format that described it.
 *
 * <p>Fixed-size types have a {@link #size()} in bytes and, where it matters, a byte order. Decoded
 * chunks always hold fixed-size elements in little-endian order (see {@link
 * #littleEndian()}); variable-length kinds ({@link Kind#STRING}, {@link Kind#VLEN_BYTES}, {@link
 * Kind#JSON}) are held as Java objects instead.
 */
public final class DataType {

  /** What an element is. */
  public enum Kind {
    BOOL,
    INT,
    UINT,
    FLOAT,
    /** Two floats of size/2 each: real, then imaginary. */
    COMPLEX,
    /** numpy datetime64: a signed 64-bit count of {@link #unitCount()} {@link #unit()}s. */
    DATETIME,
    /** numpy timedelta64, like DATETIME. */
    TIMEDELTA,
    /** numpy 'S': fixed-length bytes, NUL padded. */
    BYTES,
    /** numpy 'U': fixed-length UCS-4 text, size/4 code points, NUL padded. */
    UNICODE,
    /** numpy 'V' / v3 'r*': opaque bytes. */
    RAW,
    /** numpy structured type: named fields at fixed offsets. */
    STRUCT,
    /** Variable-length UTF-8 text (v2 object arrays with vlen-utf8, v3 "string"). */
    STRING,
    /** Variable-length bytes (v2 object arrays with vlen-bytes, v3 "bytes"). */
    VLEN_BYTES,
    /** v2 object arrays with the json codec: each element is a JSON value, held as its text. */
    JSON
  }

  /** A field of a structured type. {@code shape} is the subarray shape (empty for a scalar). */
  public record Field(String name, DataType type, int[] shape, int offset) {
    /** Number of elements of {@code type} in this field. */
    public int count() {
      int n = 1;
      for (int d : shape) {
        n *= d;
      }
      return n;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Field f
          && name.equals(f.name)
          && type.equals(f.type)
          && Arrays.equals(shape, f.shape)
          && offset == f.offset;
    }

    @Override
    public int hashCode() {
      return Objects.hash(name, type, Arrays.hashCode(shape), offset);
    }

    @Override
    public String toString() {
      return name + ":" + type + (shape.length == 0 ? "" : Arrays.toString(shape));
    }
  }

  private final Kind kind;
  private final int size;
  private final ByteOrder order;
  private final String unit;
  private final int unitCount;
  private final List<Field> fields;

  private DataType(
      Kind kind, int size, ByteOrder order, String unit, int unitCount, List<Field> fields) {
    this.kind = kind;
    this.size = size;
    this.order = order;
    this.unit = unit;
    this.unitCount = unitCount;
    this.fields = fields;
  }

  // ---- factories -------------------------------------------------------------------------

  public static DataType bool() {
    return new DataType(Kind.BOOL, 1, null, null, 0, List.of());
  }

  /** Integer, float or complex of {@code size} bytes. */
  public static DataType numeric(Kind kind, int size, ByteOrder order) {
    switch (kind) {
      case INT, UINT -> require(size == 1 || size == 2 || size == 4 || size == 8, kind, size);
      case FLOAT -> require(size == 2 || size == 4 || size == 8, kind, size);
      case COMPLEX -> require(size == 8 || size == 16, kind, size);
      default -> throw new IllegalArgumentException(kind + " is not numeric");
    }
    return new DataType(kind, size, size == 1 ? null : order, null, 0, List.of());
  }

  /** datetime64 or timedelta64 counting {@code unitCount} units ("Y", "M", "W", "D", "h", ...). */
  public static DataType time(Kind kind, String unit, int unitCount, ByteOrder order) {
    if (kind != Kind.DATETIME && kind != Kind.TIMEDELTA) {
      throw new IllegalArgumentException(kind + " is not a time type");
    }
    if (unitCount < 1) {
      throw new IllegalArgumentException("time unit count must be positive: " + unitCount);
    }
    return new DataType(kind, 8, order, unit, unitCount, List.of());
  }

  /** BYTES (size bytes), UNICODE (size/4 code points) or RAW (size bytes). */
  public static DataType fixedLength(Kind kind, int size, ByteOrder order) {
    switch (kind) {
      case BYTES, RAW -> order = null;
      case UNICODE -> {
        if (size % 4 != 0) {
          throw new IllegalArgumentException("UNICODE size must be a multiple of 4: " + size);
        }
      }
      default -> throw new IllegalArgumentException(kind + " is not a fixed-length type");
    }
    if (size < 0) {
      throw new IllegalArgumentException("negative size " + size);
    }
    return new DataType(kind, size, kind == Kind.UNICODE ? order : null, null, 0, List.of());
  }

  /** A structured type of {@code size} bytes; fields must lie inside it. */
  public static DataType struct(List<Field> fields, int size) {
    for (Field f : fields) {
      long end = (long) f.offset() + (long) f.count() * f.type().size();
      if (f.type().isVariableLength() || f.offset() < 0 || end > size) {
        throw new IllegalArgumentException("field " + f + " does not fit a struct of " + size);
      }
    }
    return new DataType(Kind.STRUCT, size, null, null, 0, List.copyOf(fields));
  }

  /** STRING, VLEN_BYTES or JSON. */
  public static DataType variableLength(Kind kind) {
    if (kind != Kind.STRING && kind != Kind.VLEN_BYTES && kind != Kind.JSON) {
      throw new IllegalArgumentException(kind + " is not variable-length");
    }
    return new DataType(kind, -1, null, null, 0, List.of());
  }

  private static void require(boolean ok, Kind kind, int size) {
    if (!ok) {
      throw new IllegalArgumentException("no " + kind + " of " + size + " bytes");
    }
  }

  // ---- accessors -------------------------------------------------------------------------

  public Kind kind() {
    return kind;
  }

  /** Bytes per element; -1 for variable-length kinds. */
  public int size() {
    return size;
  }

  /** Byte order, or null where it does not apply (single bytes, text bytes, structs). */
  public ByteOrder order() {
    return order;
  }

  /** Time unit of DATETIME/TIMEDELTA ("generic" when numpy gave none), else null. */
  public String unit() {
    return unit;
  }

  /** Multiplier of the time unit (10 for "M8[10s]"). */
  public int unitCount() {
    return unitCount;
  }

  public List<Field> fields() {
    return fields;
  }

  public boolean isVariableLength() {
    return size < 0;
  }

  /** True if the stored bytes must be reordered to become little-endian. */
  public boolean needsSwap() {
    if (kind == Kind.STRUCT) {
      return fields.stream().anyMatch(f -> f.type().needsSwap());
    }
    return order == ByteOrder.BIG_ENDIAN;
  }

  /** The same type with every multi-byte part in little-endian order: the in-memory layout. */
  public DataType littleEndian() {
    if (!needsSwap()) {
      return this;
    }
    if (kind == Kind.STRUCT) {
      List<Field> le =
          fields.stream()
              .map(f -> new Field(f.name(), f.type().littleEndian(), f.shape(), f.offset()))
              .toList();
      return new DataType(kind, size, null, unit, unitCount, le);
    }
    return new DataType(kind, size, ByteOrder.LITTLE_ENDIAN, unit, unitCount, fields);
  }

  /** The same type in {@code newOrder}, for writing (structs apply it to every field). */
  public DataType withOrder(ByteOrder newOrder) {
    if (kind == Kind.STRUCT) {
      List<Field> re =
          fields.stream()
              .map(f -> new Field(f.name(), f.type().withOrder(newOrder), f.shape(), f.offset()))
              .toList();
      return new DataType(kind, size, null, unit, unitCount, re);
    }
    if (order == null) {
      return this;
    }
    return new DataType(kind, size, newOrder, unit, unitCount, fields);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof DataType t
        && kind == t.kind
        && size == t.size
        && Objects.equals(order, t.order)
        && Objects.equals(unit, t.unit)
        && unitCount == t.unitCount
        && fields.equals(t.fields);
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, size, order, unit, unitCount, fields);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(kind.name().toLowerCase());
    if (size > 0) {
      s.append(size);
    }
    if (order == ByteOrder.BIG_ENDIAN) {
      s.append("(big-endian)");
    }
    if (unit != null) {
      s.append('[').append(unitCount == 1 ? "" : unitCount).append(unit).append(']');
    }
    if (!fields.isEmpty()) {
      s.append(fields);
    }
    return s.toString();
  }
}
