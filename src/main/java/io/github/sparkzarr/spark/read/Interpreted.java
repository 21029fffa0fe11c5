package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.BindReferences$;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.InterpretedMutableProjection;
import org.apache.spark.sql.catalyst.expressions.InterpretedUnsafeProjection$;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.catalyst.expressions.package$;
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

  /**
   * An unsafe projection of {@code expressions} bound to {@code input}, interpreted: Spark's
   * {@code UnsafeProjection.create} generates the code and looks it up in its cache, about 1 ms of
   * every query here, for a few rows.
   */
  static UnsafeProjection unsafeProjection(Seq<Expression> expressions, Seq<Attribute> input) {
    Seq<Expression> bound = BindReferences$.MODULE$.bindReferences(expressions, package$.MODULE$.AttributeSeq(input));
    UnsafeProjection projection = InterpretedUnsafeProjection$.MODULE$.createProjection(bound);
    projection.initialize(0);
    return projection;
  }

  /** A NamedExpression is an Expression; Java does not see Scala's trait as a subtype. */
  @SuppressWarnings("unchecked")
  static Seq<Expression> expressions(Seq<? extends NamedExpression> named) {
    return (Seq<Expression>) (Seq<?>) named;
  }
}
