package io.github.sparkzarr.zarr.codec.filter;

import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.DataType.Kind;
import java.nio.ByteOrder;

/**
 * numpy 1.x type promotion for integer and float types, including the value-based rule for an
 * array combined with a Python scalar ({@code arr - 1000} stays int16, {@code arr - 70000} becomes
 * int32, {@code float16_arr * 1024.0} stays float16, {@code int_arr * 0.5} becomes float64).
 */
final class NumpyPromotion {
  private NumpyPromotion() {}

  /** The result type of {@code array op scalar} for add, subtract and multiply. */
  static DataType withScalar(DataType array, PyNumber scalar) {
    boolean floatArray = array.kind() == Kind.FLOAT;
    if (scalar.integral()) {
      return promote(array, minScalarInt(scalar.longValue(), array.kind() == Kind.INT));
    }
    return floatArray ? promote(array, minScalarFloat(scalar.doubleValue())) : type(Kind.FLOAT, 8);
  }

  /** The result type of {@code array / scalar}: integer results become float64. */
  static DataType trueDivide(DataType array, PyNumber scalar) {
    DataType t = withScalar(array, scalar);
    return t.kind() == Kind.FLOAT ? t : type(Kind.FLOAT, 8);
  }

  /** numpy.promote_types for INT, UINT and FLOAT. */
  static DataType promote(DataType a, DataType b) {
    if (a.kind() == Kind.FLOAT || b.kind() == Kind.FLOAT) {
      return type(Kind.FLOAT, Math.max(floatSizeFor(a), floatSizeFor(b)));
    }
    if (a.kind() == b.kind()) {
      return type(a.kind(), Math.max(a.size(), b.size()));
    }
    DataType signed = a.kind() == Kind.INT ? a : b;
    DataType unsigned = a.kind() == Kind.INT ? b : a;
    if (unsigned.size() < signed.size()) {
      return type(Kind.INT, signed.size());
    }
    return unsigned.size() < 8 ? type(Kind.INT, 2 * unsigned.size()) : type(Kind.FLOAT, 8);
  }

  /** The smallest float that holds every value of {@code t} (floats: itself). */
  private static int floatSizeFor(DataType t) {
    if (t.kind() == Kind.FLOAT) {
      return t.size();
    }
    return t.size() == 1 ? 2 : t.size() == 2 ? 4 : 8;
  }

  /**
   * numpy's min_scalar_type for an integer; a non-negative value that also fits the signed type
   * of the same size counts as signed when combined with a signed array.
   */
  private static DataType minScalarInt(long v, boolean signedArray) {
    for (int size = 1; size < 8; size *= 2) {
      long half = 1L << (8 * size - 1);
      if (v < 0 ? v >= -half : v < 2 * half) {
        boolean signed = v < 0 || (signedArray && v < half);
        return type(signed ? Kind.INT : Kind.UINT, size);
      }
    }
    return type(v < 0 || signedArray ? Kind.INT : Kind.UINT, 8);
  }

  /** numpy's min_scalar_type for a float: it looks at the range only, not the precision. */
  private static DataType minScalarFloat(double v) {
    if (!Double.isFinite(v) || (v > -65000 && v < 65000)) {
      return type(Kind.FLOAT, 2);
    }
    return type(Kind.FLOAT, v > -3.4e38 && v < 3.4e38 ? 4 : 8);
  }

  private static DataType type(Kind kind, int size) {
    return DataType.numeric(kind, size, ByteOrder.LITTLE_ENDIAN);
  }
}
