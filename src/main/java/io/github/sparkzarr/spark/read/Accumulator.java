package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataTypes;

/** One aggregate's partial results, one per group slot. */
interface Accumulator {
  /** Makes room for slots {@code [0, slots)}. */
  void ensure(int slots);

  /** Adds elements {@code [from, from + n)} of {@code chunk} to group {@code slot}. */
  void add(NumericChunk chunk, int from, int n, int slot);

  /**
   * Adds elements {@code [from, from + n)}, element {@code j} to slot {@code slotOf[group + j *
   * stride]}: a run along a grouped last dimension (GROUP BY lat, lon), each element its own group.
   * Overridden where one call per element costs more than the addition.
   */
  default void addEach(NumericChunk chunk, int from, int n, int[] slotOf, int group, int stride) {
    for (int j = 0; j < n; j++) {
      add(chunk, from + j, 1, slotOf[group + j * stride]);
    }
  }

  /**
   * Whether {@link #addKept} adds elements of {@code chunk} by a filter's marks, so the kept ones
   * need not be gathered first.
   */
  default boolean addsKept(NumericChunk chunk) {
    return false;
  }

  /**
   * Adds the elements {@code k} of {@code [from, from + n)} with {@code keep[k]} 1 to group {@code
   * slot}; only where {@link #addsKept} says so.
   */
  default void addKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    throw new UnsupportedOperationException(getClass().getSimpleName() + " adds only gathered elements");
  }

  /**
   * Whether {@link #add} reads runs of 4- and 8-byte integers straight from a blosc block's byte
   * planes ({@link NumericChunk#plane} not 0) without gathering them one by one, so that the block
   * need not be un-shuffled first.
   */
  default boolean addsIntegerPlanes() {
    return false;
  }

  /** Writes the partial results of slots {@code [from, from + count)} to rows {@code [0, count)}. */
  void write(WritableColumnVector out, int from, int count);

  /** @param elementwise whether consecutive elements go to different groups (the last dimension is grouped on) */
  static Accumulator of(AggregateCall call, boolean elementwise) {
    return switch (call.kind()) {
      case COUNT_ROWS -> new CountAccumulator(false);
      case COUNT -> new CountAccumulator(true, elementwise);
      case SUM -> call.resultType() == DataTypes.LongType ? new IntSumAccumulator()
          : new SumAccumulator(call.transform(), elementwise);
      case MIN -> new ExtremeAccumulator(false, call.resultType(), LaneExtremes.best(), call.transform());
      case MAX -> new ExtremeAccumulator(true, call.resultType(), LaneExtremes.best(), call.transform());
    };
  }

  /** A capacity of at least {@code needed}, grown geometrically. */
  static int grow(int capacity, int needed) {
    return Math.max(needed, Math.max(4, capacity * 2));
  }
}
