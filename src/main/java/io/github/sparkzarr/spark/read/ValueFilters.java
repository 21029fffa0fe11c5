package io.github.sparkzarr.spark.read;

import java.util.List;
import java.util.function.Function;
import org.apache.spark.sql.connector.expressions.Cast;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/**
 * Turns a V2 predicate on variables into a {@link ValueFilter}, or null when any part of it is
 * something else (a dimension, a function, a string): Spark then evaluates it after the scan.
 * A comparison's literal must have the type the variable is compared in, the column's own or a
 * widening cast of it that Java's conversions compute exactly as Spark's (integers to a wider
 * integer, to float or to double; float to double), so no other conversion is involved.
 */
final class ValueFilters {
  /** A variable column: its number in the view and its Spark type. */
  record Column(int variable, DataType type) {}

  private static final List<DataType> INTEGRAL =
      List.of(DataTypes.ByteType, DataTypes.ShortType, DataTypes.IntegerType, DataTypes.LongType);
  private static final List<DataType> COMPARABLE = List.of(DataTypes.ByteType, DataTypes.ShortType,
      DataTypes.IntegerType, DataTypes.LongType, DataTypes.FloatType, DataTypes.DoubleType, DataTypes.DateType,
      DataTypes.TimestampType, DataTypes.TimestampNTZType);

  private final Function<String, Column> columns;

  /** @param columns the variable column a name refers to, or null for any other column */
  ValueFilters(Function<String, Column> columns) {
    this.columns = columns;
  }

  /** The filter, or null when the predicate is not one on variables' values alone. */
  ValueFilter of(Predicate p) {
    Expression[] c = p.children();
    return switch (p.name()) {
      case "AND", "OR" -> both(c, p.name().equals("AND"));
      case "NOT" -> not(c[0]);
      case "IS_NULL", "IS_NOT_NULL" -> nullTest(c[0], p.name().equals("IS_NULL"));
      case "=", "<=>", "<", "<=", ">", ">=" -> comparison(p.name(), c[0], c[1]);
      case "IN" -> in(c);
      default -> null;
    };
  }

  private ValueFilter both(Expression[] c, boolean and) {
    if (!(c[0] instanceof Predicate a) || !(c[1] instanceof Predicate b)) {
      return null;
    }
    ValueFilter left = of(a);
    ValueFilter right = left == null ? null : of(b);
    return right == null ? null : new ValueFilter.Both(left, right, and);
  }

  private ValueFilter not(Expression e) {
    ValueFilter inner = e instanceof Predicate p ? of(p) : null;
    return inner == null ? null : new ValueFilter.Not(inner);
  }

  private ValueFilter nullTest(Expression e, boolean wantsNull) {
    Operand v = operand(e);
    return v == null ? null : new ValueFilter.NullTest(v.column().variable(), wantsNull);
  }

  /** {@code v IN (a, b, ...)}: an OR of equalities, which is unknown exactly where v is null. */
  private ValueFilter in(Expression[] c) {
    ValueFilter out = null;
    for (int i = 1; i < c.length; i++) {
      ValueFilter eq = comparison("=", c[0], c[i]);
      if (eq == null) {
        return null;
      }
      out = out == null ? eq : new ValueFilter.Both(out, eq, false);
    }
    return out;
  }

  private ValueFilter comparison(String op, Expression a, Expression b) {
    Operand v = operand(a);
    Expression literal = b;
    if (v == null) {
      v = operand(b);
      literal = a;
      op = PredicatePruner.flip(op);
    }
    if (v == null || !(literal instanceof Literal<?> lit) || !(lit.value() instanceof Number n)
        || !lit.dataType().equals(v.comparedAs())) {
      return null;
    }
    DataType t = v.comparedAs();
    boolean floating = t.equals(DataTypes.FloatType) || t.equals(DataTypes.DoubleType);
    DataType source = v.column().type();
    boolean sourceFloating = source.equals(DataTypes.FloatType) || source.equals(DataTypes.DoubleType);
    return new ValueFilter.Comparison(v.column().variable(), outcomes(op), op.equals("<=>"), sourceFloating,
        floating, t.equals(DataTypes.FloatType) && !source.equals(DataTypes.FloatType), n);
  }

  /** A variable, possibly cast, and the type it is compared in. */
  private record Operand(Column column, DataType comparedAs) {}

  private Operand operand(Expression e) {
    DataType cast = null;
    if (e instanceof Cast c) {
      cast = c.dataType();
      e = c.expression();
    }
    if (!(e instanceof NamedReference r) || r.fieldNames().length != 1) {
      return null;
    }
    Column column = columns.apply(r.fieldNames()[0]);
    if (column == null || !COMPARABLE.contains(column.type())) {
      return null;
    }
    if (cast == null || cast.equals(column.type())) {
      return new Operand(column, column.type());
    }
    return widens(column.type(), cast) ? new Operand(column, cast) : null;
  }

  /** Whether Spark's cast from {@code from} to {@code to} is Java's widening conversion. */
  private static boolean widens(DataType from, DataType to) {
    int rank = INTEGRAL.indexOf(from);
    if (INTEGRAL.contains(to)) {
      return rank >= 0 && rank <= INTEGRAL.indexOf(to);
    }
    if (to.equals(DataTypes.FloatType)) {
      return rank >= 0;
    }
    return to.equals(DataTypes.DoubleType) && (rank >= 0 || from.equals(DataTypes.FloatType));
  }

  /** Which outcomes of comparing the variable with the literal satisfy op (bit 0 less, 1 equal, 2 greater). */
  private static int outcomes(String op) {
    return switch (op) {
      case "<" -> 0b001;
      case "<=" -> 0b011;
      case "=", "<=>" -> 0b010;
      case ">=" -> 0b110;
      default -> 0b100;
    };
  }
}
