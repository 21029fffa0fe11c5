package io.github.sparkzarr.spark.schema;

import io.github.sparkzarr.zarr.dtype.DataType.Field;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.StructField;

/** The Spark type each Zarr element type reads as (before any CF decoding). */
public final class SparkTypes {
  private SparkTypes() {}

  /** uint64 does not fit a long: it reads as decimal(20,0). */
  public static final org.apache.spark.sql.types.DecimalType UINT64 = DataTypes.createDecimalType(20, 0);

  public static DataType of(io.github.sparkzarr.zarr.dtype.DataType t) {
    return switch (t.kind()) {
      case BOOL -> DataTypes.BooleanType;
      case INT -> switch (t.size()) {
        case 1 -> DataTypes.ByteType;
        case 2 -> DataTypes.ShortType;
        case 4 -> DataTypes.IntegerType;
        default -> DataTypes.LongType;
      };
      // Unsigned types widen to the next signed type that holds every value.
      case UINT -> switch (t.size()) {
        case 1 -> DataTypes.ShortType;
        case 2 -> DataTypes.IntegerType;
        case 4 -> DataTypes.LongType;
        default -> UINT64;
      };
      case FLOAT -> t.size() == 8 ? DataTypes.DoubleType : DataTypes.FloatType;
      case COMPLEX -> {
        DataType part = t.size() == 16 ? DataTypes.DoubleType : DataTypes.FloatType;
        yield DataTypes.createStructType(List.of(
            DataTypes.createStructField("real", part, false),
            DataTypes.createStructField("imag", part, false)));
      }
      case DATETIME -> DataTypes.TimestampNTZType;
      case TIMEDELTA -> DayTimeIntervalType.apply(DayTimeIntervalType.DAY(), DayTimeIntervalType.SECOND());
      case BYTES, RAW, VLEN_BYTES -> DataTypes.BinaryType;
      case UNICODE, STRING, JSON -> DataTypes.StringType;
      case STRUCT -> {
        List<StructField> fields = new ArrayList<>();
        for (Field f : t.fields()) {
          fields.add(DataTypes.createStructField(f.name(), fieldType(f), nullable(f.type())));
        }
        yield DataTypes.createStructType(fields);
      }
    };
  }

  /** A subarray field nests one array type per dimension of its shape. */
  private static DataType fieldType(Field f) {
    DataType out = of(f.type());
    for (int i = 0; i < f.shape().length; i++) {
      out = new ArrayType(out, nullable(f.type()));
    }
    return out;
  }

  /** Only NaT times and variable-length elements can be null in the raw mapping. */
  public static boolean nullable(io.github.sparkzarr.zarr.dtype.DataType t) {
    return switch (t.kind()) {
      case DATETIME, TIMEDELTA, STRING, VLEN_BYTES, JSON -> true;
      case STRUCT -> t.fields().stream().anyMatch(f -> nullable(f.type()));
      default -> false;
    };
  }
}
