package io.github.sparkzarr.spark.read;

import java.io.Serializable;

/**
 * A floating-point variable combined with a constant, as in {@code avg(t2m - 273.15)}: the value
 * each element contributes, computed in double as Spark computes {@code CAST(v AS DOUBLE) - 273.15}
 * row by row, so sums in the scan add the same values Spark would.
 *
 * @param op one of {@code + - * /} (a division only by a non-zero constant: Spark divides by zero
 *     into null, not infinity)
 * @param constant the constant
 * @param constantFirst whether the constant is the left operand ({@code 273.15 - v})
 */
public record ValueTransform(char op, double constant, boolean constantFirst) implements Serializable {

  double apply(double v) {
    double a = constantFirst ? constant : v;
    double b = constantFirst ? v : constant;
    return switch (op) {
      case '+' -> a + b;
      case '-' -> a - b;
      case '*' -> a * b;
      default -> a / b;
    };
  }

  /**
   * Whether larger values never give smaller results (and NaN stays NaN): then the extreme of the
   * results is the result of the extreme, Spark's NaN ordering included.
   */
  boolean increasing() {
    return switch (op) {
      case '+' -> true;
      case '-' -> !constantFirst;
      case '*' -> constant > 0;
      default -> !constantFirst && constant > 0;
    };
  }

  /** The expression with {@code name} for the variable, for plans. */
  String describe(String name) {
    return constantFirst ? constant + " " + op + " " + name : name + " " + op + " " + constant;
  }
}
