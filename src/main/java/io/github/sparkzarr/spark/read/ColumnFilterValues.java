package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;

/** A row batch's column as {@link FilterValues}: rows are elements, read by the column's type. */
final class ColumnFilterValues implements FilterValues {
  private final ColumnVector column;
  private final int width;

  ColumnFilterValues(ColumnVector column) {
    this.column = column;
    DataType t = column.dataType();
    if (t.equals(DataTypes.ByteType)) {
      width = 1;
    } else if (t.equals(DataTypes.ShortType)) {
      width = 2;
    } else if (t.equals(DataTypes.IntegerType) || t.equals(DataTypes.DateType)) {
      width = 4;
    } else if (t.equals(DataTypes.FloatType)) {
      width = -4;
    } else if (t.equals(DataTypes.DoubleType)) {
      width = -8;
    } else {
      width = 8; // long, timestamp
    }
  }

  @Override
  public boolean isNull(int i) {
    return column.isNullAt(i);
  }

  @Override
  public long longAt(int i) {
    return switch (width) {
      case 1 -> column.getByte(i);
      case 2 -> column.getShort(i);
      case 4 -> column.getInt(i);
      default -> column.getLong(i);
    };
  }

  @Override
  public double doubleAt(int i) {
    return width == -4 ? column.getFloat(i) : column.getDouble(i);
  }
}
