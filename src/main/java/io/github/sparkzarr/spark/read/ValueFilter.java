package io.github.sparkzarr.spark.read;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A filter on variables' values that the scan evaluates itself, by Spark's rules: comparisons of
 * a variable (or a widening cast of it) with a literal, null tests, and AND, OR, NOT of them, in
 * three-valued logic (a comparison with a null is unknown, and a row is kept only when the filter
 * is true). Floating-point values compare as Spark compares them: NaN equals NaN and is larger than
 * any other value, and -0.0 equals 0.0. Built by {@link ValueFilters}.
 */
abstract class ValueFilter implements Serializable {
  static final byte FALSE = 0;
  static final byte TRUE = 1;
  static final byte UNKNOWN = 2;
  /** Elements are evaluated this many at a time, so each node's states stay in cache. */
  static final int PIECE = 4096;
  private static final byte[] AND = {FALSE, FALSE, FALSE, FALSE, TRUE, UNKNOWN, FALSE, UNKNOWN, UNKNOWN};
  private static final byte[] OR = {FALSE, TRUE, UNKNOWN, TRUE, TRUE, TRUE, UNKNOWN, TRUE, UNKNOWN};
  private static final byte[] NOT = {TRUE, FALSE, UNKNOWN};

  /**
   * The AND of {@code conjuncts}, less each {@code v IS NOT NULL} that another conjunct implies:
   * Spark adds one beside every comparison it pushes ({@code isnotnull(v) AND v > 280}), and a
   * comparison is only true where v is not null. Null if there is no conjunct.
   */
  static ValueFilter allOf(List<ValueFilter> conjuncts) {
    ValueFilter out = null;
    for (ValueFilter f : conjuncts) {
      boolean implied = f instanceof NullTest t && !t.wantsNull
          && conjuncts.stream().anyMatch(g -> g != f && g.trueOnlyWhenPresent(t.variable));
      if (!implied) {
        out = out == null ? f : new Both(out, f, true);
      }
    }
    return out;
  }

  /** Whether the filter can be true only where variable {@code v} is not null. */
  abstract boolean trueOnlyWhenPresent(int v);

  /** The variables the filter reads, ascending. */
  final int[] variables() {
    TreeSet<Integer> out = new TreeSet<>();
    collectVariables(out);
    return out.stream().mapToInt(Integer::intValue).toArray();
  }

  abstract void collectVariables(TreeSet<Integer> out);

  /**
   * Writes the states of elements {@code [from, from + m)} to {@code out[0, m)}; {@code scratch}
   * holds a piece-sized array per depth below this node.
   */
  abstract void evaluate(FilterValues[] values, int from, int m, byte[] out, Scratch scratch, int depth);

  /**
   * Sets {@code keep[0, n)} to 1 at the elements for which the filter is true, {@code values} indexed
   * by variable; returns how many.
   */
  final int select(FilterValues[] values, int n, byte[] keep, Scratch scratch) {
    return select(values, n, keep, scratch, 0);
  }

  /**
   * {@link #select} using mark arrays {@code depth} and deeper of {@code scratch}. A comparison that
   * a direct loop marks ({@link ChunkFilterValues#selects}) is marked by it; an AND or OR with such
   * a comparison below it joins its sides' marks ({@link Marks#join}); anything else is marked from
   * its three-valued states, a piece at a time.
   */
  private int select(FilterValues[] values, int n, byte[] keep, Scratch scratch, int depth) {
    if (this instanceof Comparison c && values[c.variable] instanceof ChunkFilterValues chunk && chunk.selects(c)) {
      return chunk.select(c, n, keep);
    }
    if (this instanceof Both b && b.selectsDirectly(values)) {
      b.left.select(values, n, keep, scratch, depth + 1);
      byte[] other = scratch.marks(depth, n);
      b.right.select(values, n, other, scratch, depth + 1);
      return Marks.join(keep, other, n, b.and);
    }
    byte[] states = scratch.at(0);
    int kept = 0;
    for (int from = 0; from < n; from += PIECE) {
      int m = Math.min(PIECE, n - from);
      evaluate(values, from, m, states, scratch, 1);
      for (int i = 0; i < m; i++) {
        byte k = (byte) (states[i] & TRUE); // TRUE is 1; FALSE 0 and UNKNOWN 2 give 0
        keep[from + i] = k;
        kept += k;
      }
    }
    return kept;
  }

  /**
   * Piece-sized state arrays, one per depth of the filter, and mark arrays of whole boxes, one per
   * depth of the ANDs and ORs joined by marks; one per reader, not shared.
   */
  static final class Scratch {
    private final List<byte[]> levels = new ArrayList<>();
    private final List<byte[]> marks = new ArrayList<>();

    byte[] at(int depth) {
      while (levels.size() <= depth) {
        levels.add(new byte[PIECE]);
      }
      return levels.get(depth);
    }

    /** Mark array {@code depth}, of at least {@code n} elements. */
    byte[] marks(int depth, int n) {
      while (marks.size() <= depth) {
        marks.add(new byte[0]);
      }
      if (marks.get(depth).length < n) {
        marks.set(depth, new byte[n]);
      }
      return marks.get(depth);
    }
  }

  /**
   * {@code variable op literal}: op is {@code <, <=, =, >=, >} as a mask of which comparison
   * outcomes hold (bit 0: less, 1: equal, 2: greater); {@code nullSafe} for {@code <=>}, false
   * rather than unknown at a null. The value is compared as a double when {@code floating} (after
   * rounding to float when {@code toFloat}: a cast to FLOAT), else as a long.
   */
  static final class Comparison extends ValueFilter {
    final int variable;
    final int outcomes;
    final boolean nullSafe;
    final boolean sourceFloating;
    final boolean floating;
    final boolean toFloat;
    final long longLiteral;
    final double doubleLiteral;

    Comparison(int variable, int outcomes, boolean nullSafe, boolean sourceFloating, boolean floating,
        boolean toFloat, Number literal) {
      this.variable = variable;
      this.outcomes = outcomes;
      this.nullSafe = nullSafe;
      this.sourceFloating = sourceFloating;
      this.floating = floating;
      this.toFloat = toFloat;
      this.longLiteral = literal.longValue();
      this.doubleLiteral = literal.doubleValue();
    }

    /** The state at a null element. */
    byte ifNull() {
      return nullSafe ? FALSE : UNKNOWN;
    }

    /** The state at non-null element {@code i} of {@code v}. */
    byte test(FilterValues v, int i) {
      int c;
      if (floating) {
        double x;
        if (sourceFloating) {
          x = toFloat ? (float) v.doubleAt(i) : v.doubleAt(i);
        } else {
          long raw = v.longAt(i);
          x = toFloat ? (float) raw : (double) raw;
        }
        c = compareDoubles(x, doubleLiteral);
      } else {
        c = Long.compare(v.longAt(i), longLiteral);
      }
      return outcome(c);
    }

    /** The state for a comparison outcome {@code c} (negative, zero or positive). */
    byte outcome(int c) {
      return (byte) ((outcomes >> (Integer.signum(c) + 1)) & 1);
    }

    /** Spark's order of doubles: NaN equals NaN and is above everything, -0.0 equals 0.0. */
    static int compareDoubles(double x, double y) {
      return x == y ? 0 : Double.compare(x, y);
    }

    @Override
    boolean trueOnlyWhenPresent(int v) {
      return v == variable && !nullSafe;
    }

    @Override
    void collectVariables(TreeSet<Integer> out) {
      out.add(variable);
    }

    @Override
    void evaluate(FilterValues[] values, int from, int m, byte[] out, Scratch scratch, int depth) {
      values[variable].compare(this, from, m, out);
    }
  }

  /** {@code variable IS NULL}, or {@code IS NOT NULL}: never unknown. */
  static final class NullTest extends ValueFilter {
    final int variable;
    final boolean wantsNull;

    NullTest(int variable, boolean wantsNull) {
      this.variable = variable;
      this.wantsNull = wantsNull;
    }

    @Override
    boolean trueOnlyWhenPresent(int v) {
      return v == variable && !wantsNull;
    }

    @Override
    void collectVariables(TreeSet<Integer> out) {
      out.add(variable);
    }

    @Override
    void evaluate(FilterValues[] values, int from, int m, byte[] out, Scratch scratch, int depth) {
      FilterValues v = values[variable];
      for (int i = 0; i < m; i++) {
        out[i] = v.isNull(from + i) == wantsNull ? TRUE : FALSE;
      }
    }
  }

  /** AND or OR of two filters. */
  static final class Both extends ValueFilter {
    final ValueFilter left;
    final ValueFilter right;
    final boolean and;

    Both(ValueFilter left, ValueFilter right, boolean and) {
      this.left = left;
      this.right = right;
      this.and = and;
    }

    @Override
    boolean trueOnlyWhenPresent(int v) {
      return and ? left.trueOnlyWhenPresent(v) || right.trueOnlyWhenPresent(v)
          : left.trueOnlyWhenPresent(v) && right.trueOnlyWhenPresent(v);
    }

    @Override
    void collectVariables(TreeSet<Integer> out) {
      left.collectVariables(out);
      right.collectVariables(out);
    }

    /** Whether a comparison below is marked by a direct loop, so the sides are best joined by their marks. */
    boolean selectsDirectly(FilterValues[] values) {
      return selectsDirectly(left, values) || selectsDirectly(right, values);
    }

    private static boolean selectsDirectly(ValueFilter f, FilterValues[] values) {
      return f instanceof Comparison c ? values[c.variable] instanceof ChunkFilterValues chunk && chunk.selects(c)
          : f instanceof Both b && b.selectsDirectly(values);
    }

    @Override
    void evaluate(FilterValues[] values, int from, int m, byte[] out, Scratch scratch, int depth) {
      left.evaluate(values, from, m, out, scratch, depth);
      byte[] other = scratch.at(depth);
      right.evaluate(values, from, m, other, scratch, depth + 1);
      byte[] table = and ? AND : OR;
      for (int i = 0; i < m; i++) {
        out[i] = table[out[i] * 3 + other[i]];
      }
    }
  }

  /** NOT of a filter: unknown stays unknown. */
  static final class Not extends ValueFilter {
    final ValueFilter inner;

    Not(ValueFilter inner) {
      this.inner = inner;
    }

    @Override
    boolean trueOnlyWhenPresent(int v) {
      return false; // NOT of a comparison is true where it is false, not where v is null; kept simple
    }

    @Override
    void collectVariables(TreeSet<Integer> out) {
      inner.collectVariables(out);
    }

    @Override
    void evaluate(FilterValues[] values, int from, int m, byte[] out, Scratch scratch, int depth) {
      inner.evaluate(values, from, m, out, scratch, depth);
      for (int i = 0; i < m; i++) {
        out[i] = NOT[out[i]];
      }
    }
  }
}
