package io.github.sparkzarr.zarr.codec.filter;

import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;

/**
 * numpy's {@code array op python_scalar} and {@code np.around}. Floats are computed in double
 * and rounded once to the result type: double has enough precision for that to equal numpy's
 * float32 and float16 arithmetic for one +, -, * or /.
 */
final class ScalarArithmetic {
  private ScalarArithmetic() {}

  enum Op {
    ADD,
    SUBTRACT,
    MULTIPLY,
    TRUE_DIVIDE
  }

  static NumericArray apply(NumericArray array, Op op, PyNumber scalar) throws CodecException {
    DataType resultType =
        op == Op.TRUE_DIVIDE
            ? NumpyPromotion.trueDivide(array.type(), scalar)
            : NumpyPromotion.withScalar(array.type(), scalar);
    NumericArray x = NumpyCast.cast(array, resultType);
    int n = x.length();
    if (resultType.kind() == DataType.Kind.FLOAT) {
      double s = asFloat(scalar, resultType.size());
      for (int i = 0; i < n; i++) {
        x.setDouble(i, apply(op, x.getDouble(i), s));
      }
    } else {
      // the promotion guarantees the scalar fits; integer arithmetic wraps around
      long s = scalar.longValue();
      for (int i = 0; i < n; i++) {
        long v = x.getLong(i);
        x.setLong(i, op == Op.ADD ? v + s : op == Op.SUBTRACT ? v - s : v * s);
      }
    }
    return x;
  }

  /** The Python scalar as numpy sees it beside a float array of {@code size} bytes. */
  static double asFloat(PyNumber scalar, int size) {
    double x = scalar.integral()
        ? NumpyCast.integerToFloat(scalar.longValue(), false, size)
        : scalar.doubleValue();
    return NumpyCast.roundTo(x, size);
  }

  static double asFloat64(PyNumber scalar) {
    return asFloat(scalar, 8);
  }

  /**
   * One float operation with x86 SSE NaN rules, which numpy inherits: a NaN operand propagates
   * (the first one if both are), and an invalid operation gives the negative default NaN.
   */
  static double apply(Op op, double a, double b) {
    if (Double.isNaN(a) || Double.isNaN(b)) {
      long bits = Double.doubleToRawLongBits(Double.isNaN(a) ? a : b);
      return Double.longBitsToDouble(bits | 0x0008000000000000L);
    }
    double r = switch (op) {
      case ADD -> a + b;
      case SUBTRACT -> a - b;
      case MULTIPLY -> a * b;
      case TRUE_DIVIDE -> a / b;
    };
    return Double.isNaN(r) ? Double.longBitsToDouble(0xfff8000000000000L) : r;
  }

  /** {@code np.around(x)}: round half to even for floats, unchanged integers. */
  static NumericArray around(NumericArray x) {
    if (!x.isFloat()) {
      return x;
    }
    NumericArray out = NumericArray.allocate(x.type(), x.length());
    for (int i = 0; i < x.length(); i++) {
      double v = x.getDouble(i);
      out.setDouble(i, Double.isNaN(v) ? v : Math.rint(v));
    }
    return out;
  }
}
