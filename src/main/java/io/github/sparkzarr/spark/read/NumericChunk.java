package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The elements of a decoded little-endian chunk of int32, int64, float32 or float64, read in place,
 * with the variable's CF masking: which elements are missing is decided here, in one place, for
 * the in-place column ({@link ChunkValueVector}) and for aggregates computed in the scan. For
 * aggregates, integers may also be packed (CF {@code scale_factor}/{@code add_offset}): their
 * values are then the unpacked floating-point ones ({@link #unpacks}).
 */
final class NumericChunk {
  private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOAT = MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle DOUBLE = MethodHandles.byteArrayViewVarHandle(double[].class, ByteOrder.LITTLE_ENDIAN);

  /**
   * The element layouts read in place: the first four by columns and aggregates, the others
   * (1- and 2-byte integers, uint32: images, counts) by aggregates only.
   */
  enum Layout {
    INT32, INT64, FLOAT32, FLOAT64, INT8, UINT8, INT16, UINT16, UINT32;

    boolean isFloat() {
      return this == FLOAT32 || this == FLOAT64;
    }

    /** Whether this is an integer of 1 or 2 bytes, which a float holds exactly. */
    boolean isSmallInteger() {
      return this == INT8 || this == UINT8 || this == INT16 || this == UINT16;
    }

    /** Whether the SIMD lane kernels read this layout. */
    boolean hasLanes() {
      return ordinal() <= FLOAT64.ordinal();
    }
  }

  final byte[] bytes;
  /** Where element 0 starts in {@link #bytes}. */
  final int offset;
  /**
   * 0 for elements stored one after the other; else the elements are byte-shuffled as blosc
   * stores a block: byte k of element i at {@code bytes[offset + k * plane + i]}.
   */
  final int plane;
  final Layout layout;
  /**
   * The number of element 0 among the pieces of one decoded chunk (0 for a whole chunk), so that
   * what depends on an element's place, like a sum's lanes, does not depend on how it was cut.
   */
  final int first;
  /** Whether NaN means missing (a NaN fill value or _FillValue). */
  final boolean maskNaN;
  /** Other values meaning missing, compared as doubles (CF's rule); empty when none. */
  private final double[] masked;
  private final CfDecoding cf;
  /**
   * Whether the stored integers are packed: missing values are still decided on the stored ones,
   * but {@link #floatingAt} gives the unpacked values, which are what aggregates see.
   */
  final boolean unpacks;
  /**
   * Whether the missing elements are exactly those storing {@link #skippedValue}: integers with one
   * masked value that is an integer, below 2^53 in magnitude for int64. Comparing longs is then
   * comparing doubles, CF's rule: a double holds every integer of at most 32 bits exactly, and an
   * int64 rounds to such a mask only if it is that mask. An int64 mask of 2^53 or more matches
   * every int64 that rounds to it, so it is not one value. False when nothing is masked.
   */
  final boolean skipsOneValue;
  final long skippedValue;

  NumericChunk(byte[] bytes, DataType t, CfDecoding cf) {
    this(bytes, 0, 0, 0, t, cf);
  }

  /**
   * Elements from {@code bytes[offset]} on, one after the other ({@code plane} 0) or byte-shuffled
   * in planes of {@code plane} bytes (a blosc block of {@code plane} elements); element 0 is
   * element {@code first} of the decoded chunk.
   */
  NumericChunk(byte[] bytes, int offset, int plane, int first, DataType t, CfDecoding cf) {
    this.bytes = bytes;
    this.offset = offset;
    this.plane = plane;
    this.first = first;
    this.layout = layoutOf(t);
    this.cf = cf;
    this.maskNaN = cf != null && cf.maskNaN();
    this.masked = cf == null ? new double[0] : cf.masked();
    this.unpacks = cf != null && cf.scaled() && !layout.isFloat();
    int integral = 0;
    long skipped = 0;
    boolean oneEach = true; // each masked integer matches one stored value at most
    if (!layout.isFloat()) {
      for (double m : masked) {
        if (m != Math.rint(m)) {
          continue; // a fraction never matches an integer
        }
        if (layout == Layout.INT64 && Math.abs(m) >= 0x1p53) {
          oneEach = false;
        } else if (Math.abs(m) < 0x1p62) { // larger ones match no integer of at most 32 bits
          integral++;
          skipped = (long) m;
        }
      }
    }
    this.skipsOneValue = oneEach && integral == 1;
    this.skippedValue = skipsOneValue ? skipped : 0;
  }

  /** The same kind of elements, with the same masking, in {@code bytes} from 0 on, one after the other. */
  private NumericChunk(NumericChunk like, byte[] bytes) {
    this.bytes = bytes;
    this.offset = 0;
    this.plane = 0;
    this.first = 0;
    this.layout = like.layout;
    this.cf = like.cf;
    this.maskNaN = like.maskNaN;
    this.masked = like.masked;
    this.unpacks = like.unpacks;
    this.skipsOneValue = like.skipsOneValue;
    this.skippedValue = like.skippedValue;
  }

  /** The bytes an element takes. */
  int elementSize() {
    return switch (layout) {
      case INT8, UINT8 -> 1;
      case INT16, UINT16 -> 2;
      case INT32, UINT32, FLOAT32 -> 4;
      default -> 8;
    };
  }

  /**
   * The elements {@code i} of {@code [at, at + n)} with {@code keep[i]} 1, copied one after the other
   * into {@code into} (at least {@code n} elements long) and read from there. Elements one after the
   * other only ({@link #plane} 0).
   */
  Kept gather(byte[] keep, int at, int n, byte[] into) {
    int size = elementSize();
    int from = offset + at * size;
    int k = 0;
    int j = 0;
    // Eight marks at a time: a block none or all of whose elements are kept (most blocks, where
    // kept values lie together, as values above a threshold do) is skipped or copied whole.
    for (; j + 8 <= n; j += 8) {
      long marks = (long) LONG.get(keep, at + j);
      if (marks == ALL_KEPT) {
        for (int q = 0; q < size; q++) {
          LONG.set(into, size * k + 8 * q, (long) LONG.get(bytes, from + size * j + 8 * q));
        }
        k += 8;
      } else if (marks != 0) {
        k = gatherEach(keep, at, from, j, j + 8, into, k);
      }
    }
    k = gatherEach(keep, at, from, j, n, into, k);
    return new Kept(new NumericChunk(this, into), k);
  }

  /** Eight marks of 1: a block of elements all kept. */
  private static final long ALL_KEPT = 0x0101010101010101L;

  /**
   * {@link #gather} of elements {@code [at + j0, at + j1)} (their bytes from {@code from + j0 *
   * size}) into {@code into} from element {@code k} on; returns the next free element.
   */
  private int gatherEach(byte[] keep, int at, int from, int j0, int j1, byte[] into, int k) {
    // Each element is written, and the write position moves on only past kept ones: no branch.
    switch (elementSize()) {
      case 1 -> {
        for (int j = j0; j < j1; j++) {
          into[k] = bytes[from + j];
          k += keep[at + j];
        }
      }
      case 2 -> {
        for (int j = j0; j < j1; j++) {
          SHORT.set(into, 2 * k, (short) SHORT.get(bytes, from + 2 * j));
          k += keep[at + j];
        }
      }
      case 4 -> {
        for (int j = j0; j < j1; j++) {
          INT.set(into, 4 * k, (int) INT.get(bytes, from + 4 * j));
          k += keep[at + j];
        }
      }
      default -> {
        for (int j = j0; j < j1; j++) {
          LONG.set(into, 8 * k, (long) LONG.get(bytes, from + 8 * j));
          k += keep[at + j];
        }
      }
    }
    return k;
  }

  /** Elements a filter kept: the first {@code count} of {@code chunk}. */
  record Kept(NumericChunk chunk, int count) {}

  /**
   * Whether {@link StoredIntegers} reads this chunk: integers with nothing masked, or one skipped
   * value.
   */
  boolean storedIntegersReadable() {
    return !layout.isFloat() && (masked.length == 0 || skipsOneValue);
  }

  /**
   * Whether a variable of memory type {@code t} with decoding {@code cf} can be read in place, by
   * the in-place column and by aggregates computed in the scan: 4- and 8-byte signed integers and
   * floats, 1- and 2-byte integers and uint32, signed or not (whose values a long holds), with
   * their stored values (masking is fine, time decoding is not), and integers packed by CF scaling
   * with a finite scale and offset.
   */
  static boolean supports(DataType t, CfDecoding cf) {
    boolean integer = t.kind() == DataType.Kind.INT || t.kind() == DataType.Kind.UINT;
    boolean plain = (t.kind() == DataType.Kind.INT || t.kind() == DataType.Kind.FLOAT) && (t.size() == 4 || t.size() == 8);
    boolean small = integer && (t.size() == 1 || t.size() == 2 || t.kind() == DataType.Kind.UINT && t.size() == 4);
    boolean held = integer && (small || t.kind() == DataType.Kind.INT);
    return (plain || small) && storedValues(cf) || held && packed(cf);
  }

  /**
   * Whether aggregates can be computed in the scan over a variable of memory type {@code t}: those
   * {@link #supports} reads in place, and float16 with its stored values, whose pieces
   * {@link ChunkFeeder} widens to float32 (exactly) first.
   */
  static boolean aggregatable(DataType t, CfDecoding cf) {
    return supports(t, cf) || isHalf(t) && storedValues(cf);
  }

  static boolean isHalf(DataType t) {
    return t.kind() == DataType.Kind.FLOAT && t.size() == 2;
  }

  /** Whether the values read are the stored ones: no scaling or time decoding (masking is fine). */
  private static boolean storedValues(CfDecoding cf) {
    return cf == null || (!cf.scaled() && cf.time() == null);
  }

  /** Whether {@code cf} unpacks integers by a finite scale and offset, and nothing more. */
  static boolean packed(CfDecoding cf) {
    return cf != null && cf.scaled() && cf.time() == null
        && Double.isFinite(cf.scale()) && Double.isFinite(cf.offset());
  }

  /** Whether the values aggregates see are floating point: stored so, or unpacked. */
  boolean floating() {
    return layout.isFloat() || unpacks;
  }

  private static Layout layoutOf(DataType t) {
    boolean unsigned = t.kind() == DataType.Kind.UINT;
    return switch (t.size()) {
      case 1 -> unsigned ? Layout.UINT8 : Layout.INT8;
      case 2 -> unsigned ? Layout.UINT16 : Layout.INT16;
      case 4 -> t.kind() == DataType.Kind.FLOAT ? Layout.FLOAT32 : unsigned ? Layout.UINT32 : Layout.INT32;
      default -> t.kind() == DataType.Kind.FLOAT ? Layout.FLOAT64 : Layout.INT64;
    };
  }

  int intAt(int i) {
    return plane == 0 ? (int) INT.get(bytes, offset + i * 4) : shuffledInt(i);
  }

  long longAt(int i) {
    return plane == 0 ? (long) LONG.get(bytes, offset + i * 8) : shuffledLong(i);
  }

  float floatAt(int i) {
    return plane == 0 ? (float) FLOAT.get(bytes, offset + i * 4) : Float.intBitsToFloat(shuffledInt(i));
  }

  double doubleAt(int i) {
    return plane == 0 ? (double) DOUBLE.get(bytes, offset + i * 8) : Double.longBitsToDouble(shuffledLong(i));
  }

  /** The 4 bytes of element {@code i} of a byte-shuffled block. */
  int shuffledInt(int i) {
    int p = offset + i;
    return (bytes[p] & 0xFF) | (bytes[p + plane] & 0xFF) << 8 | (bytes[p + 2 * plane] & 0xFF) << 16
        | bytes[p + 3 * plane] << 24;
  }

  /** The 8 bytes of element {@code i} of a byte-shuffled block. */
  long shuffledLong(int i) {
    int p = offset + i;
    long lo = (bytes[p] & 0xFF) | (bytes[p + plane] & 0xFF) << 8 | (bytes[p + 2 * plane] & 0xFF) << 16
        | (bytes[p + 3 * plane] & 0xFFL) << 24;
    p += 4 * plane;
    long hi = (bytes[p] & 0xFF) | (bytes[p + plane] & 0xFF) << 8 | (bytes[p + 2 * plane] & 0xFF) << 16
        | (long) bytes[p + 3 * plane] << 24;
    return lo | hi << 32;
  }

  /** Element {@code i} widened to long (integer layouts only). */
  long integralAt(int i) {
    return switch (layout) {
      case INT32 -> intAt(i);
      case UINT32 -> intAt(i) & 0xFFFFFFFFL;
      case INT8 -> bytes[offset + i];
      case UINT8 -> bytes[offset + i] & 0xFF;
      case INT16 -> shortAt(i);
      case UINT16 -> shortAt(i) & 0xFFFF;
      default -> longAt(i);
    };
  }

  /** The 2 bytes of element {@code i}; 2-byte elements are never handed over byte-shuffled. */
  private short shortAt(int i) {
    int p = offset + 2 * i;
    return (short) ((bytes[p] & 0xFF) | bytes[p + 1] << 8);
  }

  /** Element {@code i} widened to double (float layouts), or unpacked ({@link #unpacks}). */
  double floatingAt(int i) {
    if (unpacks) {
      return unpack(integralAt(i));
    }
    return layout == Layout.FLOAT32 ? floatAt(i) : doubleAt(i);
  }

  /** The unpacked value of the stored integer {@code raw}, as the column reads it. */
  double unpack(long raw) {
    return cf.unpack(raw);
  }

  /** Whether unpacking computes in float32 arithmetic ({@link CfDecoding#singlePrecision}), else in double. */
  boolean unpacksInFloat() {
    return cf.singlePrecision();
  }

  /** The scale factor unpacking multiplies by ({@link #unpacks}). */
  double unpackScale() {
    return cf.scale();
  }

  /** The offset unpacking adds ({@link #unpacks}). */
  double unpackOffset() {
    return cf.offset();
  }

  /** Whether unpacking reverses the order of stored values, so MAX comes from the smallest. */
  boolean unpackReversesOrder() {
    return unpacks && cf.reversesOrder();
  }

  /** Whether any value besides NaN is masked: then every element needs {@link #isMaskedValue}. */
  boolean masksValues() {
    return masked.length > 0;
  }

  /** How many values besides NaN are masked. */
  int maskedValueCount() {
    return masked.length;
  }

  /** Masked value {@code k} (besides NaN). */
  double maskedValue(int k) {
    return masked[k];
  }

  /** Whether the non-NaN value {@code v} is one of the masked values. */
  boolean isMaskedValue(double v) {
    return cf.isMissing(v);
  }

  /** Whether element {@code i} reads as null. */
  boolean isMissing(int i) {
    if (layout.isFloat()) {
      double v = floatingAt(i);
      return v != v ? maskNaN : masked.length > 0 && cf.isMissing(v);
    }
    return masked.length > 0 && cf.isMissing(integralAt(i));
  }
}
