package io.github.sparkzarr.spark.read;

import java.util.HashMap;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * The values of a GROUP BY key at the positions {@code [first, first + n)} of its dimension, and
 * for each position the first one with an equal value: positions sharing a key (the days of a
 * month for {@code month(time)}, repeated coordinate values) add into one group, so a partition
 * returns each key once. Equal as Spark groups: -0.0 is 0.0 and every NaN is one NaN.
 */
final class GroupKeyValues {
  private final long first;
  private final Object[] values;
  private final long[] representative;

  /**
   * @param base the column's values at those positions (coordinate values, or positions)
   * @param function Spark's expression over the value (ordinal 0), or null for the value itself
   */
  GroupKeyValues(long first, ColumnVector base, int n, DataType baseType, Expression function) {
    this.first = first;
    this.values = new Object[n];
    this.representative = new long[n];
    ColumnarBatch rows = new ColumnarBatch(new ColumnVector[] {base}, n);
    Map<Object, Long> firstOf = new HashMap<>();
    for (int i = 0; i < n; i++) {
      InternalRow row = rows.getRow(i);
      Object v = function != null ? function.eval(row) : row.get(0, baseType);
      values[i] = normalized(v);
      Long seen = firstOf.putIfAbsent(values[i] == null ? NULL : values[i], first + i);
      representative[i] = seen == null ? first + i : seen;
    }
  }

  /** The key of null values in the map (nulls group together, as in Spark). */
  private static final Object NULL = new Object();

  private static Object normalized(Object v) {
    if (v instanceof Double d) {
      return d.isNaN() ? Double.NaN : d == 0.0 ? 0.0 : d;
    }
    if (v instanceof Float f) {
      return f.isNaN() ? Float.NaN : f == 0.0f ? 0.0f : f;
    }
    return v;
  }

  /** The first position whose key equals the key at {@code position}. */
  long representative(long position) {
    return representative[(int) (position - first)];
  }

  /** The key at {@code position}: Spark's internal value, or null. */
  Object value(long position) {
    return values[(int) (position - first)];
  }

  /** Writes the key at {@code position} into row {@code row} of {@code out}. */
  void write(long position, WritableColumnVector out, int row) {
    Object v = values[(int) (position - first)];
    DataType t = out.dataType();
    if (v == null) {
      out.putNull(row);
    } else if (t == DataTypes.ByteType) {
      out.putByte(row, (Byte) v);
    } else if (t == DataTypes.ShortType) {
      out.putShort(row, (Short) v);
    } else if (t == DataTypes.IntegerType || t == DataTypes.DateType) {
      out.putInt(row, (Integer) v);
    } else if (t == DataTypes.LongType || t == DataTypes.TimestampType || t == DataTypes.TimestampNTZType) {
      out.putLong(row, (Long) v);
    } else if (t == DataTypes.FloatType) {
      out.putFloat(row, (Float) v);
    } else if (t == DataTypes.DoubleType) {
      out.putDouble(row, (Double) v);
    } else if (t == DataTypes.BooleanType) {
      out.putBoolean(row, (Boolean) v);
    } else {
      throw new IllegalStateException("no GROUP BY key of type " + t);
    }
  }
}
