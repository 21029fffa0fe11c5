package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.TimestampType;
import org.apache.spark.sql.vectorized.ColumnVector;

/**
 * A dimension's column over the rows of a batch: row r holds value {@code (r / stride) % length}
 * of a small vector. Numbers are written out in runs (a fill per run of equal values), because a
 * computed view pays a division per row on every read, which Spark's generated code does for
 * each row it touches; other types stay a computed {@link GatherColumnVector}.
 */
final class RepeatedColumn {
  private RepeatedColumn() {}

  static ColumnVector of(WritableColumnVector values, int rows, int stride, int length) {
    DataType t = values.dataType();
    boolean longs = t.equals(DataTypes.LongType) || t instanceof TimestampType || t instanceof TimestampNTZType;
    boolean numbers = longs || t.equals(DataTypes.IntegerType) || t.equals(DataTypes.DoubleType)
        || t.equals(DataTypes.FloatType);
    if (!numbers || rows == 0) {
      return new GatherColumnVector(values, rows, new int[] {stride}, new int[] {length}, new int[] {1});
    }
    WritableColumnVector out = new OnHeapColumnVector(rows, t);
    for (int start = 0; start < rows; ) {
      for (int k = 0; k < length && start < rows; k++, start += stride) {
        int n = Math.min(stride, rows - start);
        if (values.isNullAt(k)) {
          out.putNulls(start, n);
        } else if (longs) {
          out.putLongs(start, n, values.getLong(k));
        } else if (t.equals(DataTypes.IntegerType)) {
          out.putInts(start, n, values.getInt(k));
        } else if (t.equals(DataTypes.DoubleType)) {
          out.putDoubles(start, n, values.getDouble(k));
        } else {
          out.putFloats(start, n, values.getFloat(k));
        }
      }
    }
    values.close();
    return out;
  }
}
