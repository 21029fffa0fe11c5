package io.github.sparkzarr.zarr.codec.filter;

import static io.github.sparkzarr.zarr.dtype.ByteViews.INT_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.LONG_LE;
import static io.github.sparkzarr.zarr.dtype.ByteViews.SHORT_LE;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.RunDecoder;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.LittleEndianIntegers;
import io.github.sparkzarr.zarr.dtype.NumericArray;

/**
 * numcodecs Delta: the first element, then the differences of neighbours (computed in dtype,
 * cast to astype); decoding is numpy's cumsum into a dtype array.
 */
public final class Delta extends ViewFilter {
  public static final String ID = "delta";

  public Delta(DataType dtype, DataType astype) throws CodecException {
    super(dtype, astype);
    if (dtype.kind() == DataType.Kind.BOOL || astype.kind() == DataType.Kind.BOOL) {
      // numpy's diff and cumsum of bools are xor and or: numcodecs cannot round trip them
      throw new CodecException("codec 'delta' does not support bool dtypes");
    }
  }

  public static Delta fromConfig(JsonNode config) throws CodecException {
    DataType dtype = FilterConfig.numericDtype(config, "dtype");
    return new Delta(dtype, FilterConfig.optionalNumericDtype(config, "astype", dtype));
  }

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    ObjectNode c = CodecConfig.withId(ID);
    c.put("dtype", FilterConfig.text(dtype));
    c.put("astype", FilterConfig.text(astype));
    return c;
  }

  @Override
  NumericArray encodeValues(NumericArray x) throws CodecException {
    int n = x.length();
    NumericArray enc = NumericArray.allocate(astype, n);
    if (n == 0) {
      return enc;
    }
    NumpyCast.setItem(x, 0, enc, 0);
    NumericArray diff = NumericArray.allocate(dtype, 1);
    for (int i = 1; i < n; i++) {
      if (x.isFloat()) {
        diff.setDouble(0, ScalarArithmetic.apply(ScalarArithmetic.Op.SUBTRACT, x.getDouble(i), x.getDouble(i - 1)));
      } else {
        diff.setLong(0, x.getLong(i) - x.getLong(i - 1));
      }
      NumpyCast.copy(diff, 0, enc, i);
    }
    return enc;
  }

  @Override
  NumericArray decodeValues(NumericArray enc) throws CodecException {
    if (sumsIntegers()) {
      return integerCumsum(enc);
    }
    if (sumsFloatsOfItsType()) {
      NumericArray dec = NumericArray.allocate(dtype, enc.length());
      new FloatCumsumRuns(dtype).decode(enc.bytes(), 0, dec.bytes(), 0, enc.length());
      return dec;
    }
    return cumsumStepByStep(enc);
  }

  /** float32 or float64 in and out, little-endian: numpy adds in that type. */
  private boolean sumsFloatsOfItsType() {
    return astype.equals(dtype) && FastCasts.isFloat32Or64(dtype) && !dtype.needsSwap();
  }

  /**
   * Integers in and out, accumulated in an integer type: numpy's sums wrap around, so the low
   * bits of a 64-bit running sum are every step's result.
   */
  private boolean sumsIntegers() {
    return FastCasts.isInteger(astype) && FastCasts.isInteger(dtype)
        && NumpyPromotion.promote(astype, dtype).kind() != DataType.Kind.FLOAT;
  }

  /** numpy's cumsum of integers in one pass (see {@link #sumsIntegers}). */
  NumericArray integerCumsum(NumericArray enc) {
    NumericArray dec = NumericArray.allocate(dtype, enc.length());
    RunDecoder runs = valueRuns();
    if (runs != null) {
      runs.decode(enc.bytes(), 0, dec.bytes(), 0, enc.length());
      return dec;
    }
    long acc = 0; // big-endian types
    for (int i = 0; i < enc.length(); i++) {
      acc += enc.getLong(i);
      dec.setLong(i, acc);
    }
    return dec;
  }

  /**
   * The running sum of one integer type in its own width, the commonest Delta, without dispatch:
   * {@code count} elements of {@code size} bytes from {@code src[srcAt...]} into {@code
   * dst[dstAt...]} (which may be the same bytes), adding to {@code start}.
   *
   * @return the sum after the last element, to go on from
   */
  private static long cumsumLittleEndian(byte[] src, int srcAt, byte[] dst, int dstAt, int count,
      int size, long start) {
    int end = srcAt + count * size;
    int d = dstAt - srcAt;
    switch (size) {
      case 1 -> {
        byte acc = (byte) start;
        for (int at = srcAt; at < end; at++) {
          acc += src[at];
          dst[at + d] = acc;
        }
        return acc;
      }
      case 2 -> {
        short acc = (short) start;
        for (int at = srcAt; at < end; at += 2) {
          acc += (short) SHORT_LE.get(src, at);
          SHORT_LE.set(dst, at + d, acc);
        }
        return acc;
      }
      case 4 -> {
        int acc = (int) start;
        for (int at = srcAt; at < end; at += 4) {
          acc += (int) INT_LE.get(src, at);
          INT_LE.set(dst, at + d, acc);
        }
        return acc;
      }
      default -> {
        long acc = start;
        for (int at = srcAt; at < end; at += 8) {
          acc += (long) LONG_LE.get(src, at);
          LONG_LE.set(dst, at + d, acc);
        }
        return acc;
      }
    }
  }

  /**
   * Little-endian integers and float32/float64 of one type are summed a run at a time, the sum
   * carried between runs.
   */
  @Override
  RunDecoder valueRuns() {
    if (sumsFloatsOfItsType()) {
      return new FloatCumsumRuns(dtype);
    }
    if (!sumsIntegers() || dtype.needsSwap() || astype.needsSwap()) {
      return null;
    }
    if (!astype.equals(dtype)) {
      return new WideningCumsumRuns(astype, dtype.size());
    }
    int size = dtype.size();
    long[] sum = {0};
    return (in, inOffset, out, outOffset, count) ->
        sum[0] = cumsumLittleEndian(in, inOffset, out, outOffset, count, size, sum[0]);
  }

  /**
   * numpy's cumsum of little-endian integers of one type into another (int64 timestamps stored as
   * int16 steps, say), a block at a time: widened to 64 bits, summed with wrap-around, and the low
   * bits of each sum stored.
   */
  private static final class WideningCumsumRuns implements RunDecoder {
    private static final int BLOCK = 2048;
    private final DataType from;
    private final int toSize;
    private final long[] block = new long[BLOCK];
    private long sum;

    WideningCumsumRuns(DataType from, int toSize) {
      this.from = from;
      this.toSize = toSize;
    }

    @Override
    public void decode(byte[] in, int inOffset, byte[] out, int outOffset, int count) {
      for (int done = 0; done < count; done += BLOCK) {
        int n = Math.min(BLOCK, count - done);
        LittleEndianIntegers.widen(in, inOffset + done * from.size(), from.size(),
            from.kind() == DataType.Kind.UINT, n, block);
        long s = sum;
        for (int j = 0; j < n; j++) {
          s += block[j];
          block[j] = s;
        }
        sum = s;
        narrow(out, outOffset + done * toSize, n);
      }
    }

    private void narrow(byte[] b, int at, int n) {
      switch (toSize) {
        case 1 -> {
          for (int j = 0; j < n; j++) {
            b[at + j] = (byte) block[j];
          }
        }
        case 2 -> {
          for (int j = 0; j < n; j++, at += 2) {
            SHORT_LE.set(b, at, (short) block[j]);
          }
        }
        case 4 -> {
          for (int j = 0; j < n; j++, at += 4) {
            INT_LE.set(b, at, (int) block[j]);
          }
        }
        default -> {
          for (int j = 0; j < n; j++, at += 8) {
            LONG_LE.set(b, at, block[j]);
          }
        }
      }
    }
  }

  /** numpy's cumsum element by element through numpy's casts, for every type. */
  NumericArray cumsumStepByStep(NumericArray enc) throws CodecException {
    // with out= given, numpy accumulates in the promotion of both types, then casts once
    DataType accType = NumpyPromotion.promote(astype, dtype);
    NumericArray acc = NumericArray.allocate(accType, 1);
    NumericArray term = NumericArray.allocate(accType, 1);
    NumericArray dec = NumericArray.allocate(dtype, enc.length());
    for (int i = 0; i < enc.length(); i++) {
      step(enc, i, i == 0, term, acc, dec, i);
    }
    return dec;
  }

  /**
   * One step of numpy's cumsum: element {@code i} of {@code enc} cast to the accumulator's type
   * ({@code term}), added to {@code acc} (or its first value), and {@code acc} cast into {@code
   * dec[j]}.
   */
  private static void step(NumericArray enc, int i, boolean first, NumericArray term,
      NumericArray acc, NumericArray dec, int j) throws CodecException {
    NumpyCast.copy(enc, i, term, 0);
    if (first) {
      NumpyCast.copy(term, 0, acc, 0);
    } else if (acc.isFloat()) {
      // numpy's float16 loop adds in the other operand order, which decides which NaN survives
      boolean half = acc.type().size() == 2;
      double a = half ? term.getDouble(0) : acc.getDouble(0);
      double b = half ? acc.getDouble(0) : term.getDouble(0);
      acc.setDouble(0, ScalarArithmetic.apply(ScalarArithmetic.Op.ADD, a, b));
    } else {
      acc.setLong(0, acc.getLong(0) + term.getLong(0));
    }
    NumpyCast.copy(acc, 0, dec, j);
  }

  /**
   * The running sum of float32 or float64 in its own type a run at a time until an element is NaN
   * or infinite, the bits of numpy's loop (no NaN arises, whose bits Java leaves open); then
   * numpy's steps ({@link #step}) for the rest of the chunk, from the sum so far.
   */
  private static final class FloatCumsumRuns implements RunDecoder {
    private final int size;
    private final NumericArray one;
    private final NumericArray term;
    private final NumericArray acc;
    private double sum = -0.0; // adding to it leaves the first element as it is, -0.0 included
    private boolean started;
    private boolean stepwise;

    FloatCumsumRuns(DataType type) {
      this.size = type.size();
      this.one = NumericArray.allocate(type, 1);
      this.term = NumericArray.allocate(type, 1);
      this.acc = NumericArray.allocate(type, 1);
    }

    @Override
    public void decode(byte[] in, int inOffset, byte[] out, int outOffset, int count) {
      int done = stepwise ? 0 : size == 4
          ? addFloats(in, inOffset, out, outOffset, count) : addDoubles(in, inOffset, out, outOffset, count);
      if (done < count && !stepwise) {
        stepwise = true;
        acc.setDouble(0, sum); // exact: the sum is finite and of the array's type
      }
      for (int i = done; i < count; i++) {
        one.put(0, size == 4 ? (int) INT_LE.get(in, inOffset + 4 * i) & 0xffffffffL
            : (long) LONG_LE.get(in, inOffset + 8 * i));
        try {
          step(one, 0, !started, term, acc, one, 0);
        } catch (CodecException e) {
          throw new IllegalStateException("a float cast failed", e); // same-type casts do not
        }
        started = true;
        if (size == 4) {
          INT_LE.set(out, outOffset + 4 * i, (int) one.raw(0));
        } else {
          LONG_LE.set(out, outOffset + 8 * i, one.raw(0));
        }
      }
    }

    /** Adds finite float32 elements in float32; returns how many before a NaN or infinity. */
    private int addFloats(byte[] in, int inOffset, byte[] out, int outOffset, int count) {
      float s = (float) sum;
      for (int i = 0; i < count; i++) {
        float v = Float.intBitsToFloat((int) INT_LE.get(in, inOffset + 4 * i));
        if (!Float.isFinite(v)) {
          sum = s;
          return i;
        }
        s += v;
        started = true;
        INT_LE.set(out, outOffset + 4 * i, Float.floatToRawIntBits(s));
      }
      sum = s;
      return count;
    }

    /** Adds finite float64 elements; returns how many before a NaN or infinity. */
    private int addDoubles(byte[] in, int inOffset, byte[] out, int outOffset, int count) {
      double s = sum;
      for (int i = 0; i < count; i++) {
        double v = Double.longBitsToDouble((long) LONG_LE.get(in, inOffset + 8 * i));
        if (!Double.isFinite(v)) {
          sum = s;
          return i;
        }
        s += v;
        started = true;
        LONG_LE.set(out, outOffset + 8 * i, Double.doubleToRawLongBits(s));
      }
      sum = s;
      return count;
    }
  }
}
