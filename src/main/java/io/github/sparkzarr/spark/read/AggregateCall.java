package io.github.sparkzarr.spark.read;

import java.io.Serializable;
import org.apache.spark.sql.types.DataType;

/**
 * One aggregate a scan computes per group and partition, for Spark to merge.
 *
 * @param variable the variable aggregated, or -1 for {@link Kind#COUNT_ROWS}
 * @param resultType the partial result's Spark type (what Spark's own partial aggregate yields)
 * @param weight for {@code SUM(v * w(d))} (a {@link Kind#SUM}) and {@code SUM(w(d))} (a {@link
 *     Kind#COUNT_ROWS}): the weight, a function of one dimension; else null
 * @param transform for {@code SUM}, {@code MIN} and {@code MAX} of a floating-point variable
 *     combined with a constant ({@code avg(t2m - 273.15)}): that combination; else null
 */
public record AggregateCall(Kind kind, int variable, DataType resultType, GroupKey weight,
    ValueTransform transform) implements Serializable {

  AggregateCall(Kind kind, int variable, DataType resultType) {
    this(kind, variable, resultType, null, null);
  }

  AggregateCall(Kind kind, int variable, DataType resultType, GroupKey weight) {
    this(kind, variable, resultType, weight, null);
  }

  /** The aggregated expression, for plans: the variable's name, weight or combination included. */
  String describe(String variableName) {
    String value = variable < 0 ? "*" : transform != null ? transform.describe(variableName) : variableName;
    return kind + "(" + value + (weight == null ? "" : " * " + weight.name()) + ")";
  }
  public enum Kind {
    /** COUNT(*), or COUNT of a column that is never null. */
    COUNT_ROWS,
    /** COUNT(variable): its non-null values. */
    COUNT,
    SUM,
    MIN,
    MAX
  }

  @Override
  public String toString() {
    return describe("#" + variable);
  }
}
