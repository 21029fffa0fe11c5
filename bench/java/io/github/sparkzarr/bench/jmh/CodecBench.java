package io.github.sparkzarr.bench.jmh;

import io.github.sparkzarr.zarr.codec.BytesCodec;
import io.github.sparkzarr.zarr.codec.CodecRegistry;
import io.github.sparkzarr.zarr.metadata.Json;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Random;
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
 * Decode and encode of one 1 MiB float32 chunk per codec, so operations per second read directly
 * as MiB/s of decoded data. The chunk is the suite's climate-like field (smooth, a little noise),
 * so compression ratios and speeds are those of real data.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class CodecBench {
  /** The numcodecs configurations the suite measures. */
  @Param({
    "{\"id\":\"blosc\",\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":1,\"blocksize\":0}",
    "{\"id\":\"blosc\",\"cname\":\"zstd\",\"clevel\":5,\"shuffle\":1,\"blocksize\":0}",
    "{\"id\":\"blosc\",\"cname\":\"blosclz\",\"clevel\":5,\"shuffle\":1,\"blocksize\":0}",
    "{\"id\":\"blosc\",\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":2,\"blocksize\":0}",
    "{\"id\":\"blosc\",\"cname\":\"zstd\",\"clevel\":3,\"shuffle\":2,\"blocksize\":0}",
    "{\"id\":\"zstd\",\"level\":1}",
    "{\"id\":\"zlib\",\"level\":1}",
    "{\"id\":\"lz4\",\"acceleration\":1}",
    "{\"id\":\"gzip\",\"level\":1}",
    "{\"id\":\"blosc\",\"cname\":\"lz4hc\",\"clevel\":5,\"shuffle\":1,\"blocksize\":0}",
    "{\"id\":\"blosc\",\"cname\":\"zlib\",\"clevel\":5,\"shuffle\":1,\"blocksize\":0}",
    "{\"id\":\"blosc\",\"cname\":\"snappy\",\"clevel\":5,\"shuffle\":1,\"blocksize\":0}",
    "{\"id\":\"blosc\",\"cname\":\"lz4\",\"clevel\":5,\"shuffle\":0,\"blocksize\":0}",
    "{\"id\":\"bz2\",\"level\":1}",
    "{\"id\":\"lzma\",\"preset\":1}",
    "{\"id\":\"crc32\"}",
    "{\"id\":\"adler32\"}",
    "{\"id\":\"crc32c\"}",
    "{\"id\":\"fletcher32\"}",
  })
  public String codec;

  static final int ELEMENTS = 1 << 18; // 1 MiB of float32

  BytesCodec bytesCodec;
  byte[] decoded;
  byte[] encoded;

  @Setup
  public void setUp() throws Exception {
    bytesCodec = (BytesCodec) CodecRegistry.fromConfig(
        Json.parseObject(codec.getBytes(StandardCharsets.UTF_8), "bench", "codec"));
    decoded = field(ELEMENTS);
    encoded = bytesCodec.encode(decoded, 4);
  }

  /** A 64x64x64 block of the generator's field: cold poles, a daily cycle, a wave, noise. */
  static byte[] field(int n) {
    ByteBuffer b = ByteBuffer.allocate(n * 4).order(ByteOrder.LITTLE_ENDIAN);
    Random rng = new Random(42);
    int side = 64;
    for (int i = 0; i < n; i++) {
      int t = i / (side * side);
      double lat = -90 + 180.0 * ((i / side) % side) / 511;
      double lon = 360.0 * (i % side) / 512;
      double v = 288 - 30 * Math.abs(lat) / 90 + 5 * Math.sin(2 * Math.PI * (t % 24) / 24.0)
          * Math.cos(Math.toRadians(lat)) + 2 * Math.cos(Math.toRadians(lon) * 3 + t / 100.0)
          + 0.05 * rng.nextGaussian();
      b.putFloat((float) v);
    }
    return b.array();
  }

  @Benchmark
  public byte[] decode() throws Exception {
    return bytesCodec.decode(encoded, decoded.length);
  }

  @Benchmark
  public byte[] encode() throws Exception {
    return bytesCodec.encode(decoded, 4);
  }
}
