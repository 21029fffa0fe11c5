package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.apache.spark.sql.connector.expressions.Cast;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.LiteralValue;
import org.apache.spark.sql.connector.expressions.filter.And;
import org.apache.spark.sql.connector.expressions.filter.Not;
import org.apache.spark.sql.connector.expressions.filter.Or;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/**
 * {@link ValueFilters} builds filters only from predicates on variables it can evaluate exactly,
 * and {@link ValueFilter} answers as Spark's three-valued logic and float order do.
 */
class ValueFilterTest {
  /** Variables: 0 "f" float (null at index 1), 1 "i" int, 2 "l" long, 3 "s" string. */
  private static final Map<String, ValueFilters.Column> COLUMNS = Map.of(
      "f", new ValueFilters.Column(0, DataTypes.FloatType),
      "i", new ValueFilters.Column(1, DataTypes.IntegerType),
      "l", new ValueFilters.Column(2, DataTypes.LongType),
      "s", new ValueFilters.Column(3, DataTypes.StringType));
  private static final ValueFilters FILTERS = new ValueFilters(COLUMNS::get);
  private static final float[] F = {Float.NaN, 0f, -0.0f, 0.0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 2.5f, -3f};
  private static final int[] I = {5, 7, -1, 0, 7, Integer.MAX_VALUE, Integer.MIN_VALUE, 3};
  private static final long[] L = {(1L << 53) + 1, 0, -1, 1L << 60, 5, 7, -7, (1L << 24) + 1};

  /** Arrays as filter values; element 1 of f is null. */
  private static final class Values implements FilterValues {
    private final float[] floats;
    private final long[] longs;

    Values(float[] floats, long[] longs) {
      this.floats = floats;
      this.longs = longs;
    }

    @Override
    public boolean isNull(int i) {
      return floats != null && i == 1;
    }

    @Override
    public long longAt(int i) {
      return longs[i];
    }

    @Override
    public double doubleAt(int i) {
      return floats[i];
    }
  }

  private static FilterValues[] values() {
    long[] ints = new long[I.length];
    for (int k = 0; k < I.length; k++) {
      ints[k] = I[k];
    }
    return new FilterValues[] {new Values(F, null), new Values(null, ints), new Values(null, L), null};
  }

  private static byte[] kept(Predicate p) {
    ValueFilter f = FILTERS.of(p);
    byte[] keep = new byte[F.length];
    int n = f.select(values(), F.length, keep, new ValueFilter.Scratch());
    int count = 0;
    for (byte k : keep) {
      count += k;
    }
    assertEquals(count, n);
    return keep;
  }

  private static Predicate p(String name, Expression... children) {
    return new Predicate(name, children);
  }

  private static Expression col(String name) {
    return Expressions.column(name);
  }

  private static Expression lit(Object value, DataType type) {
    return new LiteralValue<>(value, type);
  }

  private static byte[] b(int... bits) {
    byte[] out = new byte[bits.length];
    for (int k = 0; k < bits.length; k++) {
      out[k] = (byte) bits[k];
    }
    return out;
  }

  @Test
  void floatsOrderAsSparkOrdersThem() {
    // NaN, null, -0.0, 0.0, +inf, -inf, 2.5, -3
    assertArrayEquals(b(1, 0, 0, 0, 1, 0, 1, 0), kept(p(">", col("f"), lit(1f, DataTypes.FloatType))));
    assertArrayEquals(b(0, 0, 1, 1, 0, 0, 0, 0), kept(p("=", col("f"), lit(0f, DataTypes.FloatType))));
    assertArrayEquals(b(0, 0, 1, 1, 0, 0, 0, 0), kept(p("=", col("f"), lit(-0.0f, DataTypes.FloatType))));
    assertArrayEquals(b(1, 0, 0, 0, 0, 0, 0, 0), kept(p("=", col("f"), lit(Float.NaN, DataTypes.FloatType))));
    assertArrayEquals(b(0, 0, 1, 1, 1, 1, 1, 1), kept(p("<", col("f"), lit(Float.NaN, DataTypes.FloatType))));
    assertArrayEquals(b(0, 0, 0, 0, 0, 1, 0, 1), kept(p(">", lit(0f, DataTypes.FloatType), col("f"))));
    assertArrayEquals(b(1, 0, 1, 1, 1, 0, 1, 0), kept(p(">=", new Cast(col("f"), DataTypes.DoubleType),
        lit(-0.0, DataTypes.DoubleType))));
  }

  @Test
  void nullsAreUnknownThroughNotAndFalseForNullSafeEquality() {
    Predicate above = p(">", col("f"), lit(1f, DataTypes.FloatType));
    assertArrayEquals(b(0, 0, 1, 1, 0, 1, 0, 1), kept(new Not(above)));
    assertArrayEquals(b(0, 1, 0, 0, 0, 0, 0, 0), kept(p("IS_NULL", col("f"))));
    assertArrayEquals(b(0, 1, 1, 1, 1, 1, 1, 1), kept(new Not(p("<=>", col("f"), lit(Float.NaN, DataTypes.FloatType)))));
    // unknown OR true is true; unknown AND false is false, so NOT of it is true
    Predicate i7 = p("=", col("i"), lit(7, DataTypes.IntegerType));
    assertArrayEquals(b(0, 1, 0, 0, 1, 0, 0, 0), kept(new Or(p("<", col("f"),
        lit(Float.NEGATIVE_INFINITY, DataTypes.FloatType)), i7)));
    assertArrayEquals(b(0, 1, 1, 1, 0, 1, 0, 1), kept(new Not(new And(above, p("IS_NOT_NULL", col("f"))))));
  }

  @Test
  void integersCompareExactlyAndWidenAsSparkCasts() {
    assertArrayEquals(b(0, 1, 0, 0, 1, 1, 0, 0), kept(p(">", col("i"), lit(5, DataTypes.IntegerType))));
    assertArrayEquals(b(1, 0, 1, 1, 0, 0, 1, 1), kept(p("<=", new Cast(col("i"), DataTypes.LongType),
        lit(5L, DataTypes.LongType))));
    assertArrayEquals(b(0, 1, 0, 0, 1, 0, 0, 0), kept(p("IN", col("i"), lit(7, DataTypes.IntegerType),
        lit(8, DataTypes.IntegerType))));
    // long to float rounds 2^24 + 1 down to 2^24, and 2^53 + 1 to 2^53
    assertArrayEquals(b(0, 0, 0, 0, 0, 0, 0, 1), kept(p("=", new Cast(col("l"), DataTypes.FloatType),
        lit((float) (1 << 24), DataTypes.FloatType))));
    assertArrayEquals(b(1, 0, 0, 0, 0, 0, 0, 0), kept(p("=", new Cast(col("l"), DataTypes.DoubleType),
        lit(0x1p53, DataTypes.DoubleType))));
  }

  /**
   * Spark pushes {@code isnotnull(f)} beside {@code f > 1}: the comparison implies it, so the AND
   * drops it; not beside a null-safe comparison or a NOT, which can be true at a null.
   */
  @Test
  void impliedNullTestsAreDropped() {
    ValueFilter notNull = FILTERS.of(p("IS_NOT_NULL", col("f")));
    ValueFilter above = FILTERS.of(p(">", col("f"), lit(1f, DataTypes.FloatType)));
    ValueFilter nullSafe = FILTERS.of(p("<=>", col("f"), lit(1f, DataTypes.FloatType)));
    ValueFilter notAbove = FILTERS.of(new Not(p(">", col("f"), lit(1f, DataTypes.FloatType))));
    ValueFilter onI = FILTERS.of(p(">", col("i"), lit(5, DataTypes.IntegerType)));
    assertEquals(above, ValueFilter.allOf(java.util.List.of(notNull, above)));
    assertEquals(above, ValueFilter.allOf(java.util.List.of(above, notNull)));
    for (ValueFilter other : new ValueFilter[] {nullSafe, notAbove, onI}) {
      ValueFilter both = ValueFilter.allOf(java.util.List.of(notNull, other));
      assertEquals(ValueFilter.Both.class, both.getClass());
    }
    assertNull(ValueFilter.allOf(java.util.List.of()));
  }

  /**
   * A null test of a literal (as in the SQL form of {@code k <=> c}: {@code (k IS NOT NULL AND c IS
   * NOT NULL AND k = c) OR (k IS NULL AND c IS NULL)}) is not on a variable, so the whole predicate
   * stays with Spark; as do literals of another type than the variable is compared in, narrowing
   * casts, strings, functions, comparisons of two columns and unknown columns.
   */
  @Test
  void anythingElseIsLeftToSpark() {
    Expression c = lit(7, DataTypes.IntegerType);
    Predicate nullSafe = new Or(new And(new And(p("IS_NOT_NULL", col("i")), p("IS_NOT_NULL", c)),
        p("=", col("i"), c)), new And(p("IS_NULL", col("i")), p("IS_NULL", c)));
    assertNull(FILTERS.of(nullSafe));
    assertNull(FILTERS.of(new Not(nullSafe)));
    assertNull(FILTERS.of(p(">", col("i"), lit(5L, DataTypes.LongType))));
    assertNull(FILTERS.of(p(">", new Cast(col("l"), DataTypes.IntegerType), lit(5, DataTypes.IntegerType))));
    assertNull(FILTERS.of(p(">", new Cast(col("f"), DataTypes.IntegerType), lit(5, DataTypes.IntegerType))));
    assertNull(FILTERS.of(p("=", col("s"), lit("a", DataTypes.StringType))));
    assertNull(FILTERS.of(p(">", p("ABS", col("i")), lit(5, DataTypes.IntegerType))));
    assertNull(FILTERS.of(p(">", col("y"), lit(5, DataTypes.IntegerType))));
    assertNull(FILTERS.of(p(">", col("i"), col("l"))));
    assertNull(FILTERS.of(p(">", col("i"), lit(null, DataTypes.IntegerType))));
    assertNull(FILTERS.of(new And(p(">", col("i"), lit(5, DataTypes.IntegerType)), p("STARTS_WITH", col("s"),
        lit("a", DataTypes.StringType)))));
  }
}
