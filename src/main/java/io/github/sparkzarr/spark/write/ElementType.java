package io.github.sparkzarr.spark.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import io.github.sparkzarr.zarr.dtype.DataType.Kind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * How the values of one Spark type are stored: the Zarr element type, the default fill value, and
 * how one value lands in a little-endian chunk buffer. The inverse of {@code SparkTypes} for the
 * types a write accepts.
 */
public enum ElementType {
  BOOL(DataTypes.BooleanType, io.github.sparkzarr.zarr.dtype.DataType.bool()),
  INT8(DataTypes.ByteType, numeric(Kind.INT, 1)),
  INT16(DataTypes.ShortType, numeric(Kind.INT, 2)),
  INT32(DataTypes.IntegerType, numeric(Kind.INT, 4)),
  INT64(DataTypes.LongType, numeric(Kind.INT, 8)),
  FLOAT32(DataTypes.FloatType, numeric(Kind.FLOAT, 4)),
  FLOAT64(DataTypes.DoubleType, numeric(Kind.FLOAT, 8)),
  /** timestamp_ntz, and timestamp as UTC: microseconds since the epoch, numpy datetime64[us]. */
  DATETIME_US(DataTypes.TimestampNTZType, io.github.sparkzarr.zarr.dtype.DataType.time(
      Kind.DATETIME, "us", 1, ByteOrder.LITTLE_ENDIAN)),
  /** day-time intervals: microseconds, numpy timedelta64[us]. */
  TIMEDELTA_US(DayTimeIntervalType.apply(DayTimeIntervalType.DAY(), DayTimeIntervalType.SECOND()),
      io.github.sparkzarr.zarr.dtype.DataType.time(Kind.TIMEDELTA, "us", 1, ByteOrder.LITTLE_ENDIAN)),
  STRING(DataTypes.StringType, io.github.sparkzarr.zarr.dtype.DataType.variableLength(Kind.STRING)),
  BINARY(DataTypes.BinaryType, io.github.sparkzarr.zarr.dtype.DataType.variableLength(Kind.VLEN_BYTES));

  private final DataType sparkType;
  private final io.github.sparkzarr.zarr.dtype.DataType zarrType;

  ElementType(DataType sparkType, io.github.sparkzarr.zarr.dtype.DataType zarrType) {
    this.sparkType = sparkType;
    this.zarrType = zarrType;
  }

  private static io.github.sparkzarr.zarr.dtype.DataType numeric(Kind kind, int size) {
    return io.github.sparkzarr.zarr.dtype.DataType.numeric(kind, size, ByteOrder.LITTLE_ENDIAN);
  }

  /** The element type of a column of {@code type}; an error naming the column if none fits. */
  public static ElementType of(String column, DataType type) {
    if (type.equals(DataTypes.TimestampType)) {
      return DATETIME_US;
    }
    if (type instanceof DayTimeIntervalType) {
      return TIMEDELTA_US;
    }
    for (ElementType e : values()) {
      if (e.sparkType.equals(type)) {
        return e;
      }
    }
    throw new IllegalArgumentException("column '" + column + "' has type " + type.simpleString()
        + ", which zarr cannot write; supported: boolean, tinyint, smallint, int, bigint, float, "
        + "double, timestamp, timestamp_ntz, interval day to second, string, binary");
  }

  public io.github.sparkzarr.zarr.dtype.DataType zarrType() {
    return zarrType;
  }

  public boolean isVariableLength() {
    return zarrType.isVariableLength();
  }

  /**
   * The fill value when none is given, chosen so xarray reads data back unchanged: NaN for floats
   * and NaT for times (both already mean "missing"); none (null) for the others, because xarray
   * masks any other fill value and would turn real zeros or falses into NaN.
   */
  public JsonNode defaultFill() {
    return switch (this) {
      case FLOAT32, FLOAT64 -> JsonNodeFactory.instance.textNode("NaN");
      case DATETIME_US, TIMEDELTA_US -> JsonNodeFactory.instance.numberNode(Long.MIN_VALUE);
      default -> NullNode.getInstance();
    };
  }

  /** The value {@code InternalRow.get} returned, made plain Java (Strings instead of UTF8String). */
  public Object plain(Object value) {
    return value instanceof UTF8String s ? s.toString() : value;
  }

  /** Stores a non-null fixed-size value at element {@code index} of a little-endian buffer. */
  public void put(ByteBuffer buf, int index, Object value) {
    switch (this) {
      case BOOL -> buf.put(index, (byte) ((Boolean) value ? 1 : 0));
      case INT8 -> buf.put(index, (Byte) value);
      case INT16 -> buf.putShort(index * 2, (Short) value);
      case INT32 -> buf.putInt(index * 4, (Integer) value);
      case INT64, DATETIME_US, TIMEDELTA_US -> buf.putLong(index * 8, (Long) value);
      case FLOAT32 -> buf.putFloat(index * 4, (Float) value);
      case FLOAT64 -> buf.putDouble(index * 8, (Double) value);
      default -> throw new IllegalStateException(this + " is variable-length");
    }
  }

  /** Stores the non-null fixed-size value in column {@code ordinal} of {@code row}, unboxed. */
  public void copy(InternalRow row, int ordinal, ByteBuffer buf, int index) {
    switch (this) {
      case BOOL -> buf.put(index, (byte) (row.getBoolean(ordinal) ? 1 : 0));
      case INT8 -> buf.put(index, row.getByte(ordinal));
      case INT16 -> buf.putShort(index * 2, row.getShort(ordinal));
      case INT32 -> buf.putInt(index * 4, row.getInt(ordinal));
      case INT64, DATETIME_US, TIMEDELTA_US -> buf.putLong(index * 8, row.getLong(ordinal));
      case FLOAT32 -> buf.putFloat(index * 4, row.getFloat(ordinal));
      case FLOAT64 -> buf.putDouble(index * 8, row.getDouble(ordinal));
      default -> throw new IllegalStateException(this + " is variable-length");
    }
  }

  public DataType sparkType() {
    return sparkType;
  }
}
