package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Decoded chunk → ColumnarBatch, the step between the codec and Spark: a 1 MiB float32 chunk
 * (operations per second = MiB/s) copied into a fresh column vector the way ChunkBatchReader
 * does it (the reader's package, to use its writers), and for scale a plain System.arraycopy.
 * Lives in the reader's package because the writers are package-private.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class FillBench {
  static final int ELEMENTS = 1 << 18;

  ChunkData chunk;
  ValueWriter writer;
  /** The dataset view's writer when fill_value is NaN (xarray's default for floats): NaN → null. */
  ValueWriter maskedWriter;
  byte[] copy = new byte[ELEMENTS * 4];

  @Setup
  public void setUp() {
    DataType f4 = DataType.numeric(DataType.Kind.FLOAT, 4, ByteOrder.LITTLE_ENDIAN);
    byte[] bytes = new byte[ELEMENTS * 4];
    for (int i = 0; i < ELEMENTS; i++) {
      int bits = Float.floatToIntBits(280f + i % 97);
      bytes[4 * i] = (byte) bits;
      bytes[4 * i + 1] = (byte) (bits >> 8);
      bytes[4 * i + 2] = (byte) (bits >> 16);
      bytes[4 * i + 3] = (byte) (bits >> 24);
    }
    chunk = ChunkData.ofBytes(f4, new int[] {ELEMENTS}, bytes);
    writer = ValueWriters.of(f4, null);
    maskedWriter = ValueWriters.of(f4, new CfDecoding(new double[0], true, 1, 0, false, true, null));
  }

  /** What the reader does per chunk and value column: allocate a vector, bulk-copy, wrap. */
  @Benchmark
  public float fillColumnarBatch() {
    WritableColumnVector v = new OnHeapColumnVector(ELEMENTS, DataTypes.FloatType);
    writer.write(chunk, 0, v, 0, ELEMENTS);
    ColumnarBatch batch = new ColumnarBatch(new ColumnVector[] {v}, ELEMENTS);
    float last = batch.column(0).getFloat(ELEMENTS - 1);
    batch.close();
    return last;
  }

  /** The same with CF masking of a NaN fill value, the case of zarr-python/xarray float stores. */
  @Benchmark
  public float fillColumnarBatchMaskedNaN() {
    WritableColumnVector v = new OnHeapColumnVector(ELEMENTS, DataTypes.FloatType);
    maskedWriter.write(chunk, 0, v, 0, ELEMENTS);
    ColumnarBatch batch = new ColumnarBatch(new ColumnVector[] {v}, ELEMENTS);
    float last = batch.column(0).getFloat(ELEMENTS - 1);
    batch.close();
    return last;
  }

  /** The memory-bandwidth bound of the same copy. */
  @Benchmark
  public byte[] arraycopy() {
    System.arraycopy(chunk.bytes(), 0, copy, 0, copy.length);
    return copy;
  }
}
