package io.github.sparkzarr.spark.read;

import java.util.List;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.aggregate.AggregateExpression;
import org.apache.spark.sql.catalyst.planning.PhysicalAggregation;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.ReturnAnswer;
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
 * finished on the driver, with no shuffle and no second stage. The projections, filters ({@code
 * HAVING}), global sorts and limits above it are evaluated there too ({@link DriverStepExec}), so
 * the query runs the scan's job alone. Registered by
 * {@link io.github.sparkzarr.spark.ZarrSessionExtensions}; any other plan is left to Spark.
 */
public final class DriverMergeStrategy extends SparkStrategy {
  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    // ReturnAnswer marks the root of a collect(); Spark plans its limits there (SpecialLimits).
    SparkPlan merged = onDriver(plan instanceof ReturnAnswer r ? r.child() : plan);
    return CollectionConverters.asScala(merged == null ? List.<SparkPlan>of() : List.of(merged)).toList();
  }

  /** The merge, under the row steps above it (ORDER BY, HAVING, LIMIT), or null. */
  private SparkPlan onDriver(LogicalPlan plan) {
    RowStep step = RowStep.of(plan);
    if (step != null) {
      SparkPlan below = onDriver(plan.children().head());
      return below == null ? null : new DriverStepExec(step, below);
    }
    if (plan instanceof Aggregate a && mergeable(scanBelow(a.child()))) {
      Option<Tuple4<Seq<NamedExpression>, Seq<AggregateExpression>, Seq<NamedExpression>, LogicalPlan>> parts =
          PhysicalAggregation.unapply(plan);
      if (parts.isDefined() && DriverMerge.supports(parts.get()._2())) {
        Tuple4<Seq<NamedExpression>, Seq<AggregateExpression>, Seq<NamedExpression>, LogicalPlan> p = parts.get();
        return new DriverMergeExec(p._1(), p._2(), p._3(), planLater(p._4()));
      }
    }
    return null;
  }

  /** Whether the scan's partial rows are few: from its tasks, or read by the driver already. */
  private static boolean mergeable(Object scan) {
    return scan instanceof ZarrScan z ? z.mergeableOnDriver()
        : scan instanceof DriverAggregateScan d && d.mergeable();
  }

  /** The scan under projections, or null. */
  static Object scanBelow(LogicalPlan plan) {
    while (plan instanceof Project p) {
      plan = p.child();
    }
    return plan instanceof DataSourceV2ScanRelation r ? r.scan() : null;
  }
}
