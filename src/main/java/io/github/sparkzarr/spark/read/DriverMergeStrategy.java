package io.github.sparkzarr.spark.read;

import java.util.List;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.planning.PhysicalAggregation;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import scala.Option;
import scala.Tuple4;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Plans the aggregate Spark keeps above a scan of partial aggregates as a {@link DriverMergeExec}
 * when the scan's tasks return few rows ({@link ZarrScan#mergeableOnDriver}): the answer is
 * finished on the driver, with no shuffle and no second stage. Registered by
 * {@link io.github.sparkzarr.spark.ZarrSessionExtensions}; any other plan is left to Spark.
 */
public final class DriverMergeStrategy extends SparkStrategy {
  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    if (plan instanceof Aggregate a && scanBelow(a.child()) instanceof ZarrScan scan
        && scan.mergeableOnDriver()) {
      Option<Tuple4<Seq<NamedExpression>, Seq<AggregateExpression>, Seq<NamedExpression>, LogicalPlan>> parts =
          PhysicalAggregation.unapply(plan);
      if (parts.isDefined() && DriverMerge.supports(parts.get()._2())) {
        Tuple4<Seq<NamedExpression>, Seq<AggregateExpression>, Seq<NamedExpression>, LogicalPlan> p = parts.get();
        SparkPlan merge = new DriverMergeExec(p._1(), p._2(), p._3(), planLater(p._4()));
        return CollectionConverters.asScala(List.of(merge)).toList();
      }
    }
    return CollectionConverters.asScala(List.<SparkPlan>of()).toList();
  }

  /** The scan under projections, or null. */
  private static Object scanBelow(LogicalPlan plan) {
    while (plan instanceof Project p) {
      plan = p.child();
    }
    return plan instanceof DataSourceV2ScanRelation r ? r.scan() : null;
  }
}
