package io.github.sparkzarr.spark.read;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataType;

/**
 * Turns V2 predicates on dimension columns into the positions that can match: a box (one
 * interval set per constrained dimension) that always contains every matching row. A box is
 * {@code exact} when it holds exactly the rows the predicate accepts by Spark's rules: then the
 * scan, which returns only rows inside the selection, evaluates the predicate itself and Spark
 * need not run it again. Exact needs a searchable axis (positions, or a monotonic coordinate
 * without nulls or NaN, whose values are those the scan returns) and literals of the column's
 * own type (so no implicit conversion happens in the comparison); anything else is inexact or
 * unusable, and Spark evaluates it after the scan.
 */
final class PredicatePruner {
  /** A box of positions; {@code exact} when it holds exactly the matching rows. */
  record Box(Map<Integer, IntervalSet> dims, boolean exact) {}

  /** A column of Spark type {@code type} that is searchable along dimension {@code dim}. */
  record Axis(int dim, SortedAxis values, DataType type) {}

  private final Function<String, Axis> axisOf;
  private final long[] lengths;

  /** @param axisOf the searchable axis a column name refers to, or null */
  PredicatePruner(Function<String, Axis> axisOf, long[] lengths) {
    this.axisOf = axisOf;
    this.lengths = lengths;
  }

  /** The box of one predicate, or null when it says nothing usable about positions. */
  Box box(Predicate p) {
    Expression[] c = p.children();
    switch (p.name()) {
      case "AND": {
        Box a = box((Predicate) c[0]);
        Box b = box((Predicate) c[1]);
        if (a == null || b == null) {
          return a == null ? (b == null ? null : inexact(b)) : inexact(a);
        }
        Map<Integer, IntervalSet> out = new HashMap<>(a.dims());
        b.dims().forEach((d, s) -> out.merge(d, s, IntervalSet::intersect));
        return new Box(out, a.exact() && b.exact());
      }
      case "OR": {
        Box a = box((Predicate) c[0]);
        Box b = box((Predicate) c[1]);
        if (a == null || b == null) {
          return null;
        }
        // A row matching either lies in the per-dimension union of the two boxes.
        Map<Integer, IntervalSet> out = new HashMap<>();
        a.dims().forEach((d, s) -> {
          if (b.dims().containsKey(d)) {
            out.put(d, s.union(b.dims().get(d)));
          }
        });
        boolean sameSingleDim = a.dims().size() == 1 && a.dims().keySet().equals(b.dims().keySet());
        return out.isEmpty() ? null : new Box(out, a.exact() && b.exact() && sameSingleDim);
      }
      case "NOT": {
        Box a = box((Predicate) c[0]);
        if (a == null || !a.exact() || a.dims().size() != 1) {
          return null;
        }
        int d = a.dims().keySet().iterator().next();
        return new Box(Map.of(d, a.dims().get(d).complement(lengths[d])), true);
      }
      case "IN": {
        IntervalSet out = IntervalSet.empty();
        Axis axis = axis(c[0]);
        if (axis == null) {
          return null;
        }
        boolean exact = true;
        for (int i = 1; i < c.length; i++) {
          IntervalSet s = compare(axis, "=", c[i]);
          if (s == null) {
            return null;
          }
          exact &= sameType(axis, c[i]);
          out = out.union(s);
        }
        return new Box(Map.of(axis.dim(), out), exact);
      }
      case "IS_NOT_NULL", "IS_NULL": {
        // A searchable axis has no nulls: every row, or none.
        Axis axis = axis(c[0]);
        if (axis == null) {
          return null;
        }
        long n = lengths[axis.dim()];
        return new Box(Map.of(axis.dim(), p.name().equals("IS_NULL") ? IntervalSet.empty() : IntervalSet.all(n)),
            true);
      }
      case "=", "<=>", "<", "<=", ">", ">=": {
        String op = p.name();
        Axis axis = axis(c[0]);
        Expression value = c[1];
        if (axis == null) {
          axis = axis(c[1]);
          value = c[0];
          op = flip(op);
        }
        IntervalSet s = axis == null ? null : compare(axis, op, value);
        return s == null ? null : new Box(Map.of(axis.dim(), s), sameType(axis, value));
      }
      default:
        return null;
    }
  }

  private static Box inexact(Box b) {
    return new Box(b.dims(), false);
  }

  /** The operator with its operands swapped: {@code c < x} is {@code x > c}. */
  static String flip(String op) {
    return switch (op) {
      case "<" -> ">";
      case "<=" -> ">=";
      case ">" -> "<";
      case ">=" -> "<=";
      default -> op;
    };
  }

  private Axis axis(Expression e) {
    if (e instanceof NamedReference r && r.fieldNames().length == 1) {
      return axisOf.apply(r.fieldNames()[0]);
    }
    return null;
  }

  /** Whether the literal has the column's own type, so Spark compares without converting. */
  private static boolean sameType(Axis axis, Expression e) {
    return e instanceof Literal<?> lit && lit.dataType().equals(axis.type());
  }

  private static IntervalSet compare(Axis axis, String op, Expression e) {
    if (!(e instanceof Literal<?> lit) || lit.value() == null) {
      return null;
    }
    return axis.values().compare(op, lit.value());
  }
}
