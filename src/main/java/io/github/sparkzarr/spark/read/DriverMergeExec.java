package io.github.sparkzarr.spark.read;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeSet;
import org.apache.spark.sql.catalyst.expressions.AttributeSet$;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.execution.SparkPlan;
import scala.collection.immutable.IndexedSeq;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * An aggregate over the connector's partial aggregates, finished on the driver: the scan's one
 * stage of tasks sends its few rows (a row per group per partition) back as a collect does, and
 * {@link DriverMerge} computes the answer from them. Spark would instead write them to shuffle
 * files and run a second stage, and adaptive execution a second job, for the same few rows.
 * Planned by {@link DriverMergeStrategy}.
 */
public final class DriverMergeExec extends DriverRowsExec {
  private final Seq<NamedExpression> grouping;
  private final Seq<AggregateExpression> aggregates;
  private final Seq<NamedExpression> results;

  public DriverMergeExec(Seq<NamedExpression> grouping, Seq<AggregateExpression> aggregates,
      Seq<NamedExpression> results, SparkPlan child) {
    super(child);
    this.grouping = grouping;
    this.aggregates = aggregates;
    this.results = results;
  }

  @Override
  public InternalRow[] executeCollect() {
    return new DriverMerge(grouping, aggregates, results, child.output()).merge(collectChild());
  }

  @Override
  public Seq<Attribute> output() {
    return CollectionConverters.asScala(CollectionConverters.asJava(results).stream()
        .map(NamedExpression::toAttribute).toList()).toList();
  }

  /** The keys' and the aggregates' results, which the result expressions read (as Spark's aggregates say). */
  @Override
  public AttributeSet producedAttributes() {
    List<Expression> made = new ArrayList<>();
    CollectionConverters.asJava(grouping).forEach(g -> made.add(g.toAttribute()));
    CollectionConverters.asJava(aggregates).forEach(a -> made.add(a.resultAttribute()));
    return AttributeSet$.MODULE$.apply(CollectionConverters.asScala(made));
  }

  @Override
  public SparkPlan withNewChildrenInternal(IndexedSeq<SparkPlan> newChildren) {
    return new DriverMergeExec(grouping, aggregates, results, newChildren.head());
  }

  @Override
  public int productArity() {
    return 4;
  }

  @Override
  public Object productElement(int n) {
    return switch (n) {
      case 0 -> grouping;
      case 1 -> aggregates;
      case 2 -> results;
      case 3 -> child;
      default -> throw new IndexOutOfBoundsException(n);
    };
  }

  @Override
  public boolean canEqual(Object that) {
    return that instanceof DriverMergeExec;
  }
}
