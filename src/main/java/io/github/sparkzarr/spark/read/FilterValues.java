package io.github.sparkzarr.spark.read;

/**
 * One variable's values at the elements a {@link ValueFilter} looks at, as its Spark column holds
 * them: {@link #longAt} for integral, date and timestamp columns, {@link #doubleAt} for float and
 * double ones (a float widened exactly).
 */
interface FilterValues {
  boolean isNull(int i);

  long longAt(int i);

  double doubleAt(int i);

  /**
   * Writes to {@code out[0, m)} whether {@code value op literal} holds for elements {@code [from,
   * from + m)}: {@link ValueFilter#TRUE} or {@link ValueFilter#FALSE}, and at a null {@link
   * ValueFilter.Comparison#ifNull}. Sources with a faster loop override it.
   */
  default void compare(ValueFilter.Comparison c, int from, int m, byte[] out) {
    for (int i = 0; i < m; i++) {
      out[i] = isNull(from + i) ? c.ifNull() : c.test(this, from + i);
    }
  }
}
