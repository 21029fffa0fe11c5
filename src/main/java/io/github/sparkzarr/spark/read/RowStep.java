package io.github.sparkzarr.spark.read;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.InterpretedMutableProjection;
import org.apache.spark.sql.catalyst.expressions.InterpretedOrdering;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.expressions.Unevaluable;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.GlobalLimit;
import org.apache.spark.sql.catalyst.plans.logical.LocalLimit;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/**
 * One operator Spark puts over an aggregate's few rows (a projection, a filter such as HAVING, a
 * global sort or a limit), evaluated on the driver with Spark's interpreted expressions. Spark
 * would run each as a job of one task: about 30 ms of scheduling for a few rows. A record, so
 * two plans with different steps never compare as the same result.
 */
record RowStep(Kind kind, Seq<Expression> expressions, int limit) {
  enum Kind { PROJECT, FILTER, SORT, LIMIT }

  /** The step {@code plan} is, or null when it is none of them or needs more than a row. */
  static RowStep of(LogicalPlan plan) {
    if (plan instanceof Project p) {
      return evaluable(Interpreted.expressions(p.projectList())) ? new RowStep(Kind.PROJECT, Interpreted.expressions(p.projectList()), -1) : null;
    }
    if (plan instanceof Filter f) {
      return evaluable(f.condition()) ? new RowStep(Kind.FILTER, seq(List.of(f.condition())), -1) : null;
    }
    if (plan instanceof Sort s && s.global()) {
      boolean keys = CollectionConverters.asJava(s.order()).stream().allMatch(o -> evaluable(o.child()));
      return keys ? new RowStep(Kind.SORT, orders(s.order()), -1) : null;
    }
    Expression limit = plan instanceof GlobalLimit g ? g.limitExpr() : plan instanceof LocalLimit l ? l.limitExpr() : null;
    if (limit != null && limit.foldable() && limit.eval(null) instanceof Integer n && n >= 0) {
      return new RowStep(Kind.LIMIT, seq(List.of()), n);
    }
    return null;
  }

  /** The rows this step makes of {@code rows}, whose columns are {@code input}. */
  List<InternalRow> apply(List<InternalRow> rows, Seq<Attribute> input) {
    return switch (kind) {
      case PROJECT -> project(expressions, input, rows);
      case FILTER -> filter(expressions, input, rows);
      case SORT -> {
        List<InternalRow> out = new ArrayList<>(rows);
        out.sort(new InterpretedOrdering(sortOrder(), input));
        yield out;
      }
      case LIMIT -> rows.subList(0, Math.min(limit, rows.size()));
    };
  }

  /** The columns of this step's rows. */
  Seq<Attribute> output(Seq<Attribute> input) {
    if (kind != Kind.PROJECT) {
      return input;
    }
    return seq(CollectionConverters.asJava(expressions).stream().map(e -> ((NamedExpression) e).toAttribute()).toList());
  }

  /** A sort's keys; empty for any other step. */
  @SuppressWarnings("unchecked")
  Seq<SortOrder> sortOrder() {
    return kind == Kind.SORT ? (Seq<SortOrder>) (Seq<?>) expressions : seq(List.of());
  }

  @Override
  public String toString() {
    return kind == Kind.LIMIT ? String.valueOf(limit) : expressions.mkString("[", ", ", "]");
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
  private static List<InternalRow> filter(Seq<Expression> condition, Seq<Attribute> input, List<InternalRow> rows) {
    List<InternalRow> tests = project(condition, input, rows);
    List<InternalRow> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      if (!tests.get(i).isNullAt(0) && tests.get(i).getBoolean(0)) {
        out.add(rows.get(i));
      }
    }
    return out;
  }

  private static boolean evaluable(Seq<Expression> expressions) {
    return CollectionConverters.asJava(expressions).stream().allMatch(RowStep::evaluable);
  }

  /** Deterministic, and computable from a row alone (no subquery, no aggregate left). */
  private static boolean evaluable(Expression e) {
    if (!e.deterministic() || (e instanceof Unevaluable && !(e instanceof AttributeReference))) {
      return false;
    }
    return CollectionConverters.asJava(e.children()).stream().allMatch(RowStep::evaluable);
  }

  @SuppressWarnings("unchecked")
  private static Seq<Expression> orders(Seq<SortOrder> order) {
    return (Seq<Expression>) (Seq<?>) order;
  }

  private static <T> Seq<T> seq(List<T> list) {
    return CollectionConverters.asScala(list).toList();
  }
}
