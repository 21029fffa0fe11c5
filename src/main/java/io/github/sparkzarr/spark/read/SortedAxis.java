package io.github.sparkzarr.spark.read;

/**
 * The values along one dimension, searchable because they are monotonic: positions themselves, or
 * a coordinate's values (increasing or decreasing, no nulls or NaN). Answers which positions hold
 * values below, equal to, or above a literal.
 */
abstract class SortedAxis {
  final long length;

  SortedAxis(long length) {
    this.length = length;
  }

  /** In increasing order (positions of a decreasing coordinate counted from the end): the first
   * index whose value is >= v ({@code strict} false) or > v ({@code strict} true); -1 when v is not
   * comparable here (wrong literal type, NaN). */
  abstract long bound(Object literal, boolean strict);

  /** Whether increasing-order indexes run backwards over positions. */
  abstract boolean reversed();

  /** Positions whose value compares to the literal as {@code op}, or null when unknown. */
  IntervalSet compare(String op, Object literal) {
    long lo = bound(literal, false);
    long hi = bound(literal, true);
    if (lo < 0 || hi < 0) {
      return null;
    }
    IntervalSet inIncreasingOrder = switch (op) {
      case "<" -> IntervalSet.range(0, lo);
      case "<=" -> IntervalSet.range(0, hi);
      case ">" -> IntervalSet.range(hi, length);
      case ">=" -> IntervalSet.range(lo, length);
      case "=", "<=>" -> IntervalSet.range(lo, hi);
      default -> null;
    };
    if (inIncreasingOrder == null || !reversed() || inIncreasingOrder.isEmpty()) {
      return inIncreasingOrder;
    }
    return IntervalSet.range(length - inIncreasingOrder.end(0), length - inIncreasingOrder.start(0));
  }

  static Long integral(Object literal) {
    if (literal instanceof Long || literal instanceof Integer || literal instanceof Short
        || literal instanceof Byte) {
      return ((Number) literal).longValue();
    }
    return null;
  }

  /** Positions 0..length-1. */
  static SortedAxis positions(long length) {
    return new SortedAxis(length) {
      long bound(Object literal, boolean strict) {
        Long v = integral(literal);
        if (v == null) {
          return -1;
        }
        long b = strict ? (v == Long.MAX_VALUE ? v : v + 1) : v;
        return Math.max(0, Math.min(length, b));
      }

      boolean reversed() {
        return false;
      }
    };
  }

  /** The first index in [0, n) whose value is not below the bound, for values sorted increasingly. */
  private static int firstNotBelow(int n, java.util.function.IntPredicate below) {
    int lo = 0;
    int hi = n;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (below.test(mid)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Integral coordinate values (integers, timestamps as microseconds), sorted increasingly. */
  static SortedAxis ofLongs(long[] increasing, boolean reversed) {
    return new SortedAxis(increasing.length) {
      long bound(Object literal, boolean strict) {
        Long v = integral(literal);
        if (v == null) {
          return -1;
        }
        return firstNotBelow(increasing.length,
            i -> increasing[i] < v || (strict && increasing[i] == v));
      }

      boolean reversed() {
        return reversed;
      }
    };
  }

  /** Floating coordinate values, sorted increasingly, none NaN. */
  static SortedAxis ofDoubles(double[] increasing, boolean reversed) {
    return new SortedAxis(increasing.length) {
      long bound(Object literal, boolean strict) {
        if (!(literal instanceof Double || literal instanceof Float)) {
          return -1;
        }
        double v = ((Number) literal).doubleValue();
        if (Double.isNaN(v)) {
          return -1;
        }
        return firstNotBelow(increasing.length,
            i -> increasing[i] < v || (strict && increasing[i] == v));
      }

      boolean reversed() {
        return reversed;
      }
    };
  }
}
