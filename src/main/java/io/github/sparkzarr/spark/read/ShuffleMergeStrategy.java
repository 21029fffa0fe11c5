package io.github.sparkzarr.spark.read;

import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.Complete$;
import org.apache.spark.sql.catalyst.planning.PhysicalAggregation;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.execution.aggregate.AggUtils;
import org.apache.spark.sql.execution.aggregate.HashAggregateExec;
import scala.Option;
import scala.Tuple4;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Plans the aggregate Spark keeps above a scan of partial aggregates, when their rows are too many
 * for the driver ({@link DriverMergeStrategy}), as one hash aggregate after the shuffle, with no
 * partial aggregate before it. A partition of the scan already returns one row per group it met,
 * which is all Spark's partial aggregate would make of them: hashing them again before the
 * shuffle only costs time (a time-mean map over one-time-step chunks: two partitions of 262,144
 * cells each). Extra rows of one group would still be merged after the shuffle, so the answer
 * does not depend on it. Left to Spark when its own plan would not be a hash aggregate (buffers
 * of variable width, DISTINCT, FILTER) or a key is computed by the aggregate.
 */
public final class ShuffleMergeStrategy extends SparkStrategy {
  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    SparkPlan merged = plan instanceof Aggregate a && manyPartialRows(DriverMergeStrategy.scanBelow(a.child()))
        ? afterShuffle(plan) : null;
    return CollectionConverters.asScala(merged == null ? List.<SparkPlan>of() : List.of(merged)).toList();
  }

  private static boolean manyPartialRows(Object scan) {
    return scan instanceof ZarrScan z && z.returnsPartialRows() && !z.mergeableOnDriver();
  }

  private SparkPlan afterShuffle(LogicalPlan plan) {
    Option<Tuple4<Seq<NamedExpression>, Seq<AggregateExpression>, Seq<NamedExpression>, LogicalPlan>> parts =
        PhysicalAggregation.unapply(plan);
    if (parts.isEmpty()) {
      return null;
    }
    Seq<NamedExpression> grouping = parts.get()._1();
    List<AggregateExpression> aggregates = CollectionConverters.asJava(parts.get()._2());
    boolean plain = aggregates.stream().allMatch(e -> !e.isDistinct() && e.filter().isEmpty())
        && CollectionConverters.asJava(grouping).stream().allMatch(g -> g instanceof Attribute);
    if (!plain || !sparkWouldHash(parts.get())) {
      return null;
    }
    List<AggregateExpression> complete = aggregates.stream().map(e -> e.copy(e.aggregateFunction(),
        Complete$.MODULE$, false, e.filter(), e.resultId())).toList();
    List<Attribute> results = complete.stream().map(AggregateExpression::resultAttribute).toList();
    Seq<Expression> keys = CollectionConverters.asScala(
        CollectionConverters.asJava(grouping).stream().map(g -> (Expression) g).toList()).toList();
    // Required distribution by the keys: Spark puts the shuffle below it (EnsureRequirements).
    return new HashAggregateExec(Option.apply(keys), false, Option.empty(), grouping,
        CollectionConverters.asScala(complete).toList(), CollectionConverters.asScala(results).toList(), 0,
        parts.get()._3(), planLater(parts.get()._4()));
  }

  /** Whether Spark would plan these aggregates as hash aggregates (its rules differ by version). */
  private boolean sparkWouldHash(
      Tuple4<Seq<NamedExpression>, Seq<AggregateExpression>, Seq<NamedExpression>, LogicalPlan> p) {
    return AggUtils.planAggregateWithoutDistinct(p._1(), p._2(), p._3(), planLater(p._4())).head()
        instanceof HashAggregateExec;
  }
}
