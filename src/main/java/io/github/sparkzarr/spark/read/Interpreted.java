package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.InterpretedMutableProjection;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import scala.collection.immutable.Seq;

/** Spark's interpreted expressions, as the driver-side strategies evaluate them over a few rows. */
final class Interpreted {
  private Interpreted() {
  }

  /** A projection of {@code expressions} bound to {@code input}, ready to apply. */
  static InterpretedMutableProjection projection(Seq<Expression> expressions, Seq<Attribute> input) {
    InterpretedMutableProjection projection = new InterpretedMutableProjection(expressions, input);
    projection.initialize(0);
    return projection;
  }

  /** A NamedExpression is an Expression; Java does not see Scala's trait as a subtype. */
  @SuppressWarnings("unchecked")
  static Seq<Expression> expressions(Seq<? extends NamedExpression> named) {
    return (Seq<Expression>) (Seq<?>) named;
  }
}
