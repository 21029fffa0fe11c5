package io.github.sparkzarr.spark.read;

import org.apache.spark.sql.execution.vectorized.WritableColumnVector;

/**
 * The MIN and the MAX of one variable in one query, fed together: a run of floats, or of stored
 * integers, is read once for both ({@link LaneExtremes#extremes}, {@link
 * LaneExtremes#storedIntegerExtremes}), where two accumulators would each load it (and, from
 * blosc's byte-shuffled blocks, gather it from four planes). Everything else is handed to each.
 * It takes the MIN's place among a scan's accumulators; {@link #maxPlace} takes the MAX's.
 */
final class ExtremePair implements RowAccumulator {
  private final ExtremeAccumulator min;
  private final ExtremeAccumulator max;
  private final double[] both = new double[2];
  private final int[] left = new int[2];
  private final long[] stored = new long[LaneExtremes.STORED_OUT];

  ExtremePair(ExtremeAccumulator min, ExtremeAccumulator max) {
    this.min = min;
    this.max = max;
  }

  @Override
  public void ensure(int slots) {
    min.ensure(slots);
    max.ensure(slots);
  }

  @Override
  public void add(NumericChunk chunk, int from, int n, int slot) {
    int taken = min.unfilteredStoredLaneElements(chunk, n);
    if (taken > 0) {
      min.kernels().storedIntegerExtremes(chunk, from, taken, null, stored);
      min.addStoredExtremes(chunk, stored, slot);
      max.addStoredExtremes(chunk, stored, slot);
      min.add(chunk, from + taken, n - taken, slot);
      max.add(chunk, from + taken, n - taken, slot);
      return;
    }
    int whole = min.laneElements(chunk, n);
    if (whole == 0) {
      min.add(chunk, from, n, slot);
      max.add(chunk, from, n, slot);
      return;
    }
    left[0] = 0;
    left[1] = 0;
    min.kernels().extremes(chunk, from, whole, ExtremeAccumulator.skipOf(chunk), null, both, left);
    min.addLaneExtreme(chunk, from, whole, null, both[0], left, slot);
    max.addLaneExtreme(chunk, from, whole, null, both[1], left, slot);
    min.addElements(chunk, from + whole, from + n, slot);
    max.addElements(chunk, from + whole, from + n, slot);
  }

  @Override
  public boolean addsIntegerPlanes() {
    return min.addsIntegerPlanes();
  }

  @Override
  public boolean addsKept(NumericChunk chunk) {
    return min.addsKept(chunk);
  }

  /** Stored integers or floats read once for both, by a filter's marks. */
  @Override
  public void addKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    int done;
    if (chunk.storedIntegersReadable()) {
      done = min.storedLaneElements(chunk, n);
      min.kernels().storedIntegerExtremes(chunk, from, done, keep, stored);
      min.addStoredExtremes(chunk, stored, slot);
      max.addStoredExtremes(chunk, stored, slot);
    } else {
      done = min.laneElements(chunk, n);
      left[0] = 0;
      left[1] = 0;
      min.kernels().extremes(chunk, from, done, ExtremeAccumulator.skipOf(chunk), keep, both, left);
      min.addLaneExtreme(chunk, from, done, keep, both[0], left, slot);
      max.addLaneExtreme(chunk, from, done, keep, both[1], left, slot);
    }
    min.addKeptElements(chunk, from + done, from + n, keep, slot);
    max.addKeptElements(chunk, from + done, from + n, keep, slot);
  }

  @Override
  public void addEach(NumericChunk chunk, int from, int n, int[] slotOf, int group, int stride) {
    if (ExtremeAccumulator.readsStoredEach(chunk)) {
      min.addEachStored(chunk, from, n, slotOf, group, stride, max);
      return;
    }
    min.addEach(chunk, from, n, slotOf, group, stride);
    max.addEach(chunk, from, n, slotOf, group, stride);
  }

  @Override
  public void addRow(NumericChunk chunk, int from, int n, int slot) {
    min.addRow(chunk, from, n, slot);
    max.addRow(chunk, from, n, slot);
  }

  @Override
  public boolean addsRowKept(NumericChunk chunk) {
    return min.addsRowKept(chunk);
  }

  @Override
  public void addRowKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
    min.addRowKept(chunk, from, n, keep, slot);
    max.addRowKept(chunk, from, n, keep, slot);
  }

  /** Writes the MIN; {@link #maxPlace} writes the MAX. */
  @Override
  public void write(WritableColumnVector out, int from, int count) {
    min.write(out, from, count);
  }

  /** What stands in the MAX's place: fed nothing (the pair feeds it), it writes the MAX. */
  RowAccumulator maxPlace() {
    return new RowAccumulator() {
      @Override
      public void ensure(int slots) {
      }

      @Override
      public void add(NumericChunk chunk, int from, int n, int slot) {
      }

      @Override
      public boolean addsIntegerPlanes() {
        return true;
      }

      @Override
      public boolean addsKept(NumericChunk chunk) {
        return true;
      }

      @Override
      public void addKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
      }

      @Override
      public void addEach(NumericChunk chunk, int from, int n, int[] slotOf, int group, int stride) {
      }

      @Override
      public void addRow(NumericChunk chunk, int from, int n, int slot) {
      }

      @Override
      public boolean addsRowKept(NumericChunk chunk) {
        return true;
      }

      @Override
      public void addRowKept(NumericChunk chunk, int from, int n, byte[] keep, int slot) {
      }

      @Override
      public void write(WritableColumnVector out, int from, int count) {
        max.write(out, from, count);
      }
    };
  }
}
