package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.codec.VectorApi;

/**
 * The inner loop of MIN and MAX in SIMD lanes: the extreme of a run of elements; for floating
 * point with NaN left out and counted, so {@link ExtremeAccumulator} applies Spark's NaN ordering
 * once per run instead of testing every element.
 */
interface LaneExtremes {
  int LANES = 8;

  /** The Vector API implementation, or null when the JVM lacks it (elements are then tested one by one). */
  static LaneExtremes best() {
    return Holder.BEST;
  }

  /**
   * The smallest ({@code both[0]}) and the largest ({@code both[1]}) of elements {@code [i, i +
   * n)} of {@code chunk}, a float layout, {@code n} a multiple of 8, in one pass, leaving out NaN
   * and the elements equal to {@code skip} as doubles (a masked fill value; NaN for none) and,
   * unless {@code keep} is null, those a filter dropped ({@code keep[k]} 0 for element {@code k}):
   * +infinity and -infinity when every element is left out. Adds the number of NaN elements kept
   * to {@code left[0]}, of the others left out to {@code left[1]}. A lone MIN or MAX takes its side:
   * the other costs one lane operation per load.
   */
  void extremes(NumericChunk chunk, int i, int n, double skip, byte[] keep, double[] both, int[] left);

  /**
   * The largest ({@code max}) or smallest of elements {@code [i, i + n)} of {@code chunk}, an
   * integer layout, {@code n} a multiple of 8.
   */
  long integralExtreme(NumericChunk chunk, int i, int n, boolean max);

  /** Elements a run of {@link #storedIntegerExtremes} must be a multiple of: one byte vector. */
  int STORED_LANES = 32;

  /** The length of {@link #storedIntegerExtremes}'s {@code out}. */
  int STORED_OUT = 4;

  /**
   * The smallest ({@code out[0]}) and the largest ({@code out[1]}) stored value of elements
   * {@code [i, i + n)} of {@code chunk}, integers of any layout one after the other ({@link
   * #takesStored}) or, with {@code keep} null, 4- and 8-byte integers in a blosc block's byte
   * planes ({@link #takesStoredUnfiltered}), {@code n} a multiple of {@link #STORED_LANES}, in one pass, leaving out the
   * elements storing {@link NumericChunk#skippedValue} when {@link NumericChunk#skipsOneValue}
   * and, unless {@code keep} is null, those a filter dropped ({@code keep[k]} 0 for element {@code
   * k}); {@code out[2]} positive when any element was not left out (when none, 0, and {@code
   * out[0]} and {@code out[1]} mean nothing). {@code out} has {@link #STORED_OUT} elements, the
   * last for the kernel's own use.
   */
  void storedIntegerExtremes(NumericChunk chunk, int i, int n, byte[] keep, long[] out);

  /** Whether {@link #storedIntegerExtremes} reads {@code chunk}: integers one after the other, at most one value masked. */
  static boolean takesStored(NumericChunk chunk) {
    return !chunk.layout.isFloat() && chunk.plane == 0 && chunk.storedIntegersReadable();
  }

  /**
   * Whether {@link #storedIntegerExtremes} reads {@code chunk} with {@code keep} null: as {@link
   * #takesStored}, and also 4- and 8-byte integers in a blosc block's byte planes.
   */
  static boolean takesStoredUnfiltered(NumericChunk chunk) {
    return !chunk.layout.isFloat() && chunk.storedIntegersReadable()
        && (chunk.plane == 0 || chunk.layout == NumericChunk.Layout.INT32
            || chunk.layout == NumericChunk.Layout.UINT32 || chunk.layout == NumericChunk.Layout.INT64);
  }

  /**
   * A row of a map (one slot per element): element {@code j} of {@code [i, i + n)} of
   * {@code chunk}, a float layout, {@code n} a multiple of 8, becomes {@code extremes[at + j]}
   * when it is larger ({@code max}) or smaller, or when that slot is empty (NaN); NaN elements, and
   * those equal to {@code skip} as doubles (a masked fill value; NaN for none), are left out
   * (missing), and so are those a filter dropped ({@code keep[i + j]} 0, unless {@code keep} is
   * null). Equal values keep the first, as the element loop does. Returns {@link #ROW_NAN} if any
   * element is NaN, dropped ones included (where NaN is a value, not missing, the caller then adds
   * those), or-ed with {@link #ROW_FILLED} if an empty slot took a number (else no slot changed
   * from empty to filled, and the caller need not look for one).
   */
  int row(NumericChunk chunk, int i, int n, byte[] keep, boolean max, double skip, double[] extremes, int at);

  /**
   * A row of a map of stored integers of at most 32 bits one after the other (not unpacked): as
   * {@link #row}, into {@code extremes}, where an empty slot holds the side's identity ({@code
   * Long.MIN_VALUE} for MAX, {@code Long.MAX_VALUE} for MIN), which no such integer equals. The
   * elements storing {@link NumericChunk#skippedValue} (when {@link NumericChunk#skipsOneValue})
   * are left out, and so are those a filter dropped. Returns {@link #ROW_FILLED} if an empty slot
   * took a value, else 0.
   */
  int integerRow(NumericChunk chunk, int i, int n, byte[] keep, boolean max, long[] extremes, int at);

  /** Whether {@link #integerRow} reads {@code chunk}. */
  static boolean takesIntegerRow(NumericChunk chunk) {
    return chunk.layout.isSmallInteger() || chunk.layout == NumericChunk.Layout.INT32
        || chunk.layout == NumericChunk.Layout.UINT32;
  }

  /** What {@link #row} returns when an element is NaN. */
  int ROW_NAN = 1;

  /** What {@link #row} returns when an empty slot took a number. */
  int ROW_FILLED = 2;

  /** Chooses once per JVM. */
  final class Holder {
    static final LaneExtremes BEST =
        VectorApi.choose(LaneExtremes.class, "io.github.sparkzarr.spark.read.VectorLaneExtremes", null);

    private Holder() {
    }
  }
}
