package io.github.sparkzarr.spark.read;

import java.io.Serializable;

/**
 * One column a scan produces: a dimension's values, a dimension's positions (the hidden
 * {@code <dim>_index} column), or a variable.
 *
 * @param index the dimension or variable number in the view
 */
public record OutputColumn(Kind kind, int index) implements Serializable {
  public enum Kind {
    DIMENSION,
    POSITION,
    VARIABLE
  }
}
