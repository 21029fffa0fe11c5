package io.github.sparkzarr.spark.read;

import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.InterpretedMutableProjection;
import org.apache.spark.sql.catalyst.expressions.InterpretedOrdering;
import org.apache.spark.sql.catalyst.expressions.Unevaluable;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.GlobalLimit;
import org.apache.spark.sql.catalyst.plans.logical.LocalLimit;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.ReturnAnswer;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.execution.LocalTableScanExec;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.SparkStrategy;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Plans a {@link DriverAnswer} under projections, filters, global sorts and limits as the local
 * rows they evaluate to. Spark plans a {@code LocalScan} as a local table scan, but the projection
 * that aggregate push-down puts above it (names, casts, AVG's division), and any {@code HAVING},
 * {@code ORDER BY} or {@code LIMIT} over it, as a job of one task: about 30 ms of scheduling for
 * a few rows. Spark collects a local table scan without a job, as it does for a projection of
 * {@code VALUES} (its optimizer's ConvertToLocalRelation), which this mirrors with Spark's own
 * interpreted projections and orderings. Registered by
 * {@link io.github.sparkzarr.spark.ZarrSessionExtensions}; any other plan, or an expression that
 * is not deterministic or needs more than a row (a subquery), is left to Spark's strategies.
 */
public final class DriverAnswerStrategy extends SparkStrategy {
  @Override
  public Seq<SparkPlan> apply(LogicalPlan plan) {
    // ReturnAnswer marks the root of a collect(); Spark plans its limits there (SpecialLimits).
    LogicalPlan answer = plan instanceof ReturnAnswer r ? r.child() : plan;
    // A bare driver answer is planned by Spark itself as the same local table scan.
    List<InternalRow> rows = answer instanceof DataSourceV2ScanRelation ? null : rowsOf(answer);
    if (rows == null) {
      return CollectionConverters.asScala(List.<SparkPlan>of()).toList();
    }
    return CollectionConverters.asScala(List.of(localTableScan(plan.output(), rows))).toList();
  }

  /** The rows of a driver answer under the operators this evaluates; null for any other plan. */
  private static List<InternalRow> rowsOf(LogicalPlan plan) {
    if (plan instanceof DataSourceV2ScanRelation r) {
      return r.scan() instanceof DriverAnswer answer ? Arrays.asList(answer.rows()) : null;
    }
    if (plan instanceof Project p && allEvaluable(CollectionConverters.asJava(Interpreted.expressions(p.projectList())))) {
      List<InternalRow> in = rowsOf(p.child());
      return in == null ? null : project(Interpreted.expressions(p.projectList()), p.child().output(), in);
    }
    if (plan instanceof Filter f && evaluable(f.condition())) {
      List<InternalRow> in = rowsOf(f.child());
      return in == null ? null : filter(f.condition(), f.child().output(), in);
    }
    if (plan instanceof Sort s && s.global()
        && allEvaluable(CollectionConverters.asJava(s.order()).stream().map(o -> o.child()).toList())) {
      List<InternalRow> in = rowsOf(s.child());
      if (in == null) {
        return null;
      }
      List<InternalRow> out = new ArrayList<>(in);
      out.sort(new InterpretedOrdering(s.order(), s.child().output()));
      return out;
    }
    Expression limit = plan instanceof GlobalLimit g ? g.limitExpr() : plan instanceof LocalLimit l ? l.limitExpr() : null;
    if (limit != null && limit.foldable() && limit.eval(null) instanceof Integer n && n >= 0) {
      List<InternalRow> in = rowsOf(plan.children().head());
      return in == null ? null : in.subList(0, Math.min(n, in.size()));
    }
    return null;
  }

  private static boolean allEvaluable(List<Expression> expressions) {
    return expressions.stream().allMatch(DriverAnswerStrategy::evaluable);
  }

  private static List<InternalRow> project(Seq<Expression> expressions, Seq<Attribute> input, List<InternalRow> rows) {
    InterpretedMutableProjection projection = Interpreted.projection(expressions, input);
    List<InternalRow> out = new ArrayList<>(rows.size());
    for (InternalRow row : rows) {
      out.add(projection.apply(row).copy());
    }
    return out;
  }

  /** The rows whose condition is true (not false, not null). */
  private static List<InternalRow> filter(Expression condition, Seq<Attribute> input, List<InternalRow> rows) {
    List<InternalRow> tests = project(CollectionConverters.asScala(List.of(condition)).toList(), input, rows);
    List<InternalRow> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      if (!tests.get(i).isNullAt(0) && tests.get(i).getBoolean(0)) {
        out.add(rows.get(i));
      }
    }
    return out;
  }

  /** Deterministic, and computable from a row alone (no subquery, no aggregate left). */
  private static boolean evaluable(Expression e) {
    if (!e.deterministic() || (e instanceof Unevaluable && !(e instanceof AttributeReference))) {
      return false;
    }
    return CollectionConverters.asJava(e.children()).stream().allMatch(DriverAnswerStrategy::evaluable);
  }

  /** LocalTableScanExec takes (output, rows) in Spark 3.5 and (output, rows, stream) in Spark 4. */
  private static final Constructor<?> LOCAL_TABLE_SCAN = LocalTableScanExec.class.getConstructors()[0];

  private static SparkPlan localTableScan(Seq<Attribute> output, List<InternalRow> rows) {
    Object[] args = LOCAL_TABLE_SCAN.getParameterCount() == 2
        ? new Object[] {output, CollectionConverters.asScala(rows).toList()}
        : new Object[] {output, CollectionConverters.asScala(rows).toList(), scala.Option.empty()};
    try {
      return (SparkPlan) LOCAL_TABLE_SCAN.newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot make Spark's LocalTableScanExec", e);
    }
  }
}
