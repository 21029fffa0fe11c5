package io.github.sparkzarr.bench.jmh;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.Json;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Decoding and encoding of one chunk of 2^18 elements by each numcodecs filter: operations per
 * second times the decoded size (1 MiB for 4-byte types, 2 MiB for 8-byte ones, 256 KiB for
 * booleans) is the filter's speed. Quantize and BitRound change values only when encoding; their
 * decode is the identity a scan leaves out.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class FilterBench {
  /** A filter configuration, then the decoded dtype. */
  @Param({
    "{\"id\":\"fixedscaleoffset\",\"offset\":250,\"scale\":100,\"dtype\":\"<f4\",\"astype\":\"<u2\"} <f4",
    "{\"id\":\"delta\",\"dtype\":\"<i4\"} <i4",
    "{\"id\":\"delta\",\"dtype\":\"<i8\",\"astype\":\"<i2\"} <i8",
    "{\"id\":\"delta\",\"dtype\":\"<f4\"} <f4",
    "{\"id\":\"astype\",\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\"} <f8",
    "{\"id\":\"shuffle\",\"elementsize\":4} <f4",
    "{\"id\":\"quantize\",\"digits\":2,\"dtype\":\"<f4\"} <f4",
    "{\"id\":\"bitround\",\"keepbits\":10} <f4",
    "{\"id\":\"packbits\"} |b1",
  })
  public String filter;

  static final int ELEMENTS = 1 << 18;

  ArrayFilter arrayFilter;
  DataType type;
  ChunkData decoded;
  ChunkData encoded;

  @Setup
  public void setUp() throws Exception {
    int space = filter.lastIndexOf(' ');
    arrayFilter = (ArrayFilter) CodecRegistry.fromConfig(Json.parseObject(
        filter.substring(0, space).getBytes(StandardCharsets.UTF_8), "bench", "filter"));
    type = NumpyDtype.parse(filter.substring(space + 1));
    NumericArray values = NumericArray.allocate(type, ELEMENTS);
    java.nio.ByteBuffer field = java.nio.ByteBuffer.wrap(CodecBench.field(ELEMENTS))
        .order(java.nio.ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < ELEMENTS; i++) {
      double v = field.getFloat(4 * i); // the suite's field, 260-300 K
      if (type.kind() == DataType.Kind.FLOAT) {
        values.setDouble(i, v);
      } else if (type.kind() == DataType.Kind.BOOL) {
        values.setLong(i, v > 288 ? 1 : 0);
      } else {
        values.setLong(i, Math.round(v * 100));
      }
    }
    decoded = ChunkData.ofBytes(type, new int[] {ELEMENTS}, values.bytes());
    encoded = arrayFilter.encode(decoded);
  }

  @Benchmark
  public ChunkData decode() throws Exception {
    return arrayFilter.decode(encoded, type, ELEMENTS);
  }

  @Benchmark
  public ChunkData encode() throws Exception {
    return arrayFilter.encode(decoded);
  }
}
