package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.DatasetView;
import java.io.Serializable;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * One GROUP BY key of an aggregate computed in the scan: a dimension's values or positions, or a
 * function of them such as {@code month(time)} or {@code floor(lat / 10)}.
 *
 * @param column the dimension or position column the key is computed from
 * @param function Spark's expression over that column's value (ordinal 0 of its input row), or
 *     null when the key is the column itself
 * @param name how plans show the key
 */
public record GroupKey(OutputColumn column, Expression function, String name) implements Serializable {

  static GroupKey of(OutputColumn column, String name) {
    return new GroupKey(column, null, name);
  }

  /** The type of the column the key is computed from. */
  DataType baseType(DatasetView view) {
    return column.kind() == OutputColumn.Kind.POSITION ? DataTypes.LongType : view.dims().get(column.index()).type();
  }

  /** Whether the key is a dimension's position itself, which no two positions share. */
  boolean isPosition(DatasetView view) {
    return function == null && (column.kind() == OutputColumn.Kind.POSITION
        || view.dims().get(column.index()).coordinate() == null);
  }

  DataType type(DatasetView view) {
    return function != null ? function.dataType() : baseType(view);
  }

  boolean nullable(DatasetView view) {
    if (function != null) {
      return function.nullable();
    }
    return column.kind() == OutputColumn.Kind.DIMENSION && view.dims().get(column.index()).nullable();
  }
}
