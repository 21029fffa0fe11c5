package io.github.sparkzarr.bench.jmh;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.codec.v3.V3Codecs;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.FillValue;
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
 * Zarr v3 codec chains (the final spec's codecs that are not numcodecs compressors, which
 * CodecBench measures) decoding and encoding one 64 x 64 x 64 float32 chunk of the suite's
 * field: operations per second = MiB/s. The plain little-endian chain is the scale: it copies.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class V3CodecBench {
  private static final String BYTES = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";
  private static final String ZSTD = "{\"name\":\"zstd\",\"configuration\":{\"level\":1,\"checksum\":false}}";

  /** A "codecs" list of array metadata. */
  @Param({
    "[" + BYTES + "]",
    "[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}]",
    "[{\"name\":\"transpose\",\"configuration\":{\"order\":[2,1,0]}}," + BYTES + "]",
    "[" + BYTES + ",{\"name\":\"crc32c\"}]",
    "[" + BYTES + "," + ZSTD + "]",
    "[" + BYTES + ",{\"name\":\"blosc\",\"configuration\":{\"cname\":\"lz4\",\"clevel\":5,"
        + "\"shuffle\":\"shuffle\",\"typesize\":4,\"blocksize\":0}}]",
    "[" + BYTES + ",{\"name\":\"gzip\",\"configuration\":{\"level\":1}}]",
    "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[16,32,32],\"codecs\":[" + BYTES
        + "," + ZSTD + "],\"index_codecs\":[" + BYTES + ",{\"name\":\"crc32c\"}],\"index_location\":\"end\"}}]",
  })
  public String codecs;

  static final int[] SHAPE = {64, 64, 64};

  V3ChunkCodec chain;
  ChunkData decoded;
  byte[] encoded;

  @Setup
  public void setUp() throws Exception {
    DataType type = NumpyDtype.parse("<f4");
    chain = V3Codecs.parse(Json.parse(codecs.getBytes(StandardCharsets.UTF_8), "bench", "codecs"), type,
        FillValue.parseV2(Json.nodes().textNode("NaN"), type), SHAPE);
    decoded = ChunkData.ofBytes(type, SHAPE, CodecBench.field(SHAPE[0] * SHAPE[1] * SHAPE[2]));
    encoded = chain.encode(decoded);
  }

  @Benchmark
  public ChunkData decode() throws Exception {
    return chain.decode(encoded, SHAPE);
  }

  @Benchmark
  public byte[] encode() throws Exception {
    return chain.encode(decoded);
  }
}
