package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.DatasetView;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.connector.expressions.Cast;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.GeneralScalarExpression;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.types.DataTypes;

/**
 * Decides whether the scan can compute an aggregation partially: COUNT, SUM, MIN and MAX of
 * numeric variables read in place (packed integers unpacked as the column reads them), grouped by
 * dimension columns. Integer SUMs are longs, as
 * Spark's; int64 ones only under ANSI rules, where an overflow fails as it does in Spark (without
 * them Spark wraps the total, which the scan does not reproduce). AVG comes as SUM and COUNT: Spark
 * splits it when the pushdown is partial.
 */
final class AggregatePlanner {
  private final DatasetView view;
  private final Function<String, OutputColumn> columns;
  private final boolean ansi;
  private final String zone;

  /**
   * @param ansi whether Spark's ANSI rules are on (spark.sql.ansi.enabled)
   * @param zone the session time zone, for calendar fields of TIMESTAMP keys
   */
  AggregatePlanner(DatasetView view, Function<String, OutputColumn> columns, boolean ansi, String zone) {
    this.view = view;
    this.columns = columns;
    this.ansi = ansi;
    this.zone = zone;
  }

  /** The partial aggregation, or null when any part of it cannot be computed in the scan. */
  PushedAggregate plan(Aggregation aggregation) {
    List<GroupKey> groupBy = new ArrayList<>();
    for (Expression e : aggregation.groupByExpressions()) {
      GroupKey key = groupKey(e);
      if (key == null) {
        return null;
      }
      groupBy.add(key);
    }
    List<AggregateCall> calls = new ArrayList<>();
    for (AggregateFunc f : aggregation.aggregateExpressions()) {
      AggregateCall call = call(f);
      if (call == null) {
        return null;
      }
      calls.add(call);
    }
    return new PushedAggregate(List.copyOf(groupBy), List.copyOf(calls));
  }

  /**
   * A dimension or position column, or a function of one (such as {@code month(time)}): the scan
   * groups by its positions and keys each group with the function's value there.
   */
  private GroupKey groupKey(Expression e) {
    OutputColumn c = column(e);
    if (c != null) {
      return c.kind() == OutputColumn.Kind.VARIABLE ? null : GroupKey.of(c, e.describe());
    }
    NamedReference[] refs = e.references();
    if (refs.length == 0) {
      return null;
    }
    OutputColumn base = column(refs[0]);
    if (base == null || base.kind() == OutputColumn.Kind.VARIABLE) {
      return null;
    }
    GroupKey plain = GroupKey.of(base, refs[0].describe());
    org.apache.spark.sql.catalyst.expressions.Expression function = new GroupKeyFunctions(
        refs[0].fieldNames()[0], plain.baseType(view), plain.nullable(view), zone).convert(e);
    return function == null ? null : new GroupKey(base, function, e.describe());
  }

  private AggregateCall call(AggregateFunc f) {
    if (f instanceof CountStar) {
      return new AggregateCall(AggregateCall.Kind.COUNT_ROWS, -1, DataTypes.LongType);
    }
    Combined combined = f.children().length == 1 ? combined(f.children()[0]) : null;
    if (combined != null) {
      return combinedCall(f, combined);
    }
    if (f instanceof Count c && !c.isDistinct()) {
      OutputColumn col = column(c.column());
      if (col == null) {
        return null;
      }
      if (col.kind() == OutputColumn.Kind.VARIABLE) {
        return readable(col) ? new AggregateCall(AggregateCall.Kind.COUNT, col.index(), DataTypes.LongType) : null;
      }
      boolean neverNull = col.kind() == OutputColumn.Kind.POSITION || !view.dims().get(col.index()).nullable();
      return neverNull ? new AggregateCall(AggregateCall.Kind.COUNT_ROWS, -1, DataTypes.LongType) : null;
    }
    if (f instanceof Sum s && !s.isDistinct() && !(s.column() instanceof NamedReference)) {
      return weightedSum(s.column());
    }
    if (f instanceof Sum s && !s.isDistinct()) {
      OutputColumn col = variable(s.column());
      if (col == null) {
        return null;
      }
      DataType t = memoryType(col);
      if (floating(col)) {
        return new AggregateCall(AggregateCall.Kind.SUM, col.index(), DataTypes.DoubleType);
      }
      boolean integer = t.kind() == DataType.Kind.INT || t.kind() == DataType.Kind.UINT;
      return integer && (t.size() <= 4 || ansi)
          ? new AggregateCall(AggregateCall.Kind.SUM, col.index(), DataTypes.LongType) : null;
    }
    if (f instanceof Min m) {
      OutputColumn col = variable(m.column());
      return col == null ? null : new AggregateCall(AggregateCall.Kind.MIN, col.index(), type(col));
    }
    if (f instanceof Max m) {
      OutputColumn col = variable(m.column());
      return col == null ? null : new AggregateCall(AggregateCall.Kind.MAX, col.index(), type(col));
    }
    return null;
  }

  /**
   * {@code SUM(v * w)} or {@code SUM(w)} of a floating-point variable v and a weight w, a function
   * of one dimension such as {@code cos(radians(lat))}: area-weighted means. The scan adds v (or
   * counts rows) per position of w's dimension and multiplies each position's sum by its weight.
   * The products are rounded differently from Spark's row by row, as the lanes of any sum are.
   */
  private AggregateCall weightedSum(Expression e) {
    GroupKey alone = weight(e);
    if (alone != null) {
      return new AggregateCall(AggregateCall.Kind.COUNT_ROWS, -1, DataTypes.DoubleType, alone);
    }
    if (!(e instanceof GeneralScalarExpression g) || !g.name().equals("*") || g.children().length != 2) {
      return null;
    }
    for (int side = 0; side < 2; side++) {
      OutputColumn v = floatVariable(g.children()[side]);
      GroupKey w = weight(g.children()[1 - side]);
      if (v != null && w != null) {
        return new AggregateCall(AggregateCall.Kind.SUM, v.index(), DataTypes.DoubleType, w);
      }
    }
    return null;
  }

  /** A floating-point variable and the constant it is combined with ({@code t2m - 273.15}). */
  private record Combined(OutputColumn variable, ValueTransform transform) {}

  /**
   * COUNT, SUM, MIN or MAX of a combined variable: COUNT is that of the variable (the combination
   * is null exactly where the variable is); MIN and MAX only for an increasing combination.
   */
  private static AggregateCall combinedCall(AggregateFunc f, Combined c) {
    int v = c.variable().index();
    if (f instanceof Count count && !count.isDistinct()) {
      return new AggregateCall(AggregateCall.Kind.COUNT, v, DataTypes.LongType);
    }
    if (f instanceof Sum sum && !sum.isDistinct()) {
      return new AggregateCall(AggregateCall.Kind.SUM, v, DataTypes.DoubleType, null, c.transform());
    }
    if ((f instanceof Min || f instanceof Max) && c.transform().increasing()) {
      AggregateCall.Kind kind = f instanceof Min ? AggregateCall.Kind.MIN : AggregateCall.Kind.MAX;
      return new AggregateCall(kind, v, DataTypes.DoubleType, null, c.transform());
    }
    return null;
  }

  /**
   * {@code v op c} or {@code c op v}, v a floating-point variable (cast to double, as Spark casts
   * it) and c a double literal, op one of {@code + - *} or a division by a non-zero c; else null.
   */
  private Combined combined(Expression e) {
    Expression[] operands = operands(e);
    if (operands == null) {
      return null;
    }
    String op = ((GeneralScalarExpression) e).name();
    for (int side = 0; side < 2; side++) {
      Double c = doubleLiteral(operands[side]);
      OutputColumn v = floatVariable(operands[1 - side]);
      // Spark divides by zero into null (or an error under ANSI rules), never infinity: so only
      // a division by a non-zero constant.
      boolean safe = !op.equals("/") || side == 1 && c != null && c != 0;
      if (c != null && v != null && safe) {
        return new Combined(v, new ValueTransform(op.charAt(0), c, side == 0));
      }
    }
    return null;
  }

  /** The two operands of a {@code + - * /} expression, or null. */
  private static Expression[] operands(Expression e) {
    if (e instanceof GeneralScalarExpression g && g.children().length == 2
        && List.of("+", "-", "*", "/").contains(g.name())) {
      return g.children();
    }
    return null;
  }

  private static Double doubleLiteral(Expression e) {
    return e instanceof LiteralValue<?> l && l.dataType() == DataTypes.DoubleType && l.value() instanceof Double d
        ? d : null;
  }

  /** A floating-point variable the scan can aggregate, alone or cast to double as Spark casts it. */
  private OutputColumn floatVariable(Expression e) {
    if (e instanceof Cast c && c.dataType() == DataTypes.DoubleType) {
      e = c.expression();
    }
    OutputColumn v = variable(e);
    return v != null && floating(v) ? v : null;
  }

  /** Whether a variable's values are floating point: stored so, or integers unpacked by CF scaling. */
  private boolean floating(OutputColumn c) {
    return memoryType(c).kind() == DataType.Kind.FLOAT || NumericChunk.packed(view.variables().get(c.index()).cf());
  }

  /** A double-valued function of one dimension, or null. */
  private GroupKey weight(Expression e) {
    GroupKey w = groupKey(e);
    return w != null && w.type(view) == DataTypes.DoubleType ? w : null;
  }

  /** A variable column the scan can aggregate, or null. */
  private OutputColumn variable(Expression e) {
    OutputColumn c = column(e);
    return c != null && c.kind() == OutputColumn.Kind.VARIABLE && readable(c) ? c : null;
  }

  /** Whether aggregates in the scan read variable {@code v}, so a filter on its values can be evaluated there too. */
  boolean reads(int v) {
    return readable(new OutputColumn(OutputColumn.Kind.VARIABLE, v));
  }

  /** Over every dimension in order (not broadcast), and read by aggregates in the scan. */
  private boolean readable(OutputColumn c) {
    DatasetView.Variable v = view.variables().get(c.index());
    return v.coversAll(view.rank()) && NumericChunk.aggregatable(memoryType(c), v.cf());
  }

  private DataType memoryType(OutputColumn c) {
    return view.variables().get(c.index()).array().metadata().dataType().littleEndian();
  }

  private org.apache.spark.sql.types.DataType type(OutputColumn c) {
    return view.variables().get(c.index()).type();
  }

  private OutputColumn column(Expression e) {
    if (!(e instanceof NamedReference r) || r.fieldNames().length != 1) {
      return null;
    }
    try {
      return columns.apply(r.fieldNames()[0]);
    } catch (IllegalArgumentException unknown) {
      return null;
    }
  }
}
