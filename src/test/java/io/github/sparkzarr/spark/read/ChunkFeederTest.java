package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.ZarrArray;
import io.github.sparkzarr.zarr.ZarrHierarchy;
import io.github.sparkzarr.zarr.chunk.BoxCopy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.BlockSink;
import io.github.sparkzarr.zarr.codec.ChunkCodec;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.codec.V2ChunkCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscCname;
import io.github.sparkzarr.zarr.codec.blosc.BloscCodec;
import io.github.sparkzarr.zarr.codec.blosc.BloscShuffle;
import io.github.sparkzarr.zarr.codec.v3.BytesToBytesCodec;
import io.github.sparkzarr.zarr.codec.v3.EndianCodec;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ChunkKeyEncoding;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import io.github.sparkzarr.zarr.store.HadoopStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Aggregates fed block by block as blosc decodes a chunk (fused with the un-shuffle, or from
 * un-shuffled blocks) are bit for bit those fed from the whole decoded chunk: same sums (same
 * values in the same order), counts, minima and maxima, for every group, over edge chunks, a
 * missing chunk, blocks that split rows, a last partial block, NaNs and fill values.
 */
class ChunkFeederTest {

  static Stream<Arguments> cases() {
    return Stream.of(
        // lz4 splits full blocks into byte streams: 64 KiB blocks then a leftover of 14464 bytes
        Arguments.of("f4 lz4 split", 2, "<f4", new long[] {90, 1100}, new int[] {40, 500},
            blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 4096), "NaN", true),
        Arguments.of("f8 zstd small blocks", 2, "<f8", new long[] {20, 70}, new int[] {7, 30},
            blosc(BloscCname.ZSTD, 3, BloscShuffle.SHUFFLE, 1000), "-1", true),
        Arguments.of("f8 lz4 split", 2, "<f8", new long[] {50, 700}, new int[] {30, 400},
            blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 4096), "NaN", true),
        Arguments.of("f4 v3 blocks of 256", 3, "<f4", new long[] {13, 60}, new int[] {6, 25},
            blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 256), "NaN", true),
        Arguments.of("f4 3-d", 2, "<f4", new long[] {5, 9, 33}, new int[] {2, 4, 33},
            blosc(BloscCname.ZSTD, 1, BloscShuffle.SHUFFLE, 200), "NaN", true),
        Arguments.of("i4 lz4", 2, "<i4", new long[] {13, 60}, new int[] {6, 25},
            blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 256), "-7", true),
        Arguments.of("i8 v3 zstd", 3, "<i8", new long[] {13, 60}, new int[] {6, 25},
            blosc(BloscCname.ZSTD, 3, BloscShuffle.SHUFFLE, 256), "0", true),
        // float16 pieces are widened to float32 (never read byte-shuffled)
        Arguments.of("f2 zstd", 2, "<f2", new long[] {90, 1100}, new int[] {40, 500},
            blosc(BloscCname.ZSTD, 3, BloscShuffle.SHUFFLE, 4096), "NaN", false),
        Arguments.of("f2 stored (clevel 0)", 2, "<f2", new long[] {13, 60}, new int[] {6, 25},
            blosc(BloscCname.LZ4, 0, BloscShuffle.SHUFFLE, 256), "NaN", false),
        Arguments.of("f4 noshuffle", 2, "<f4", new long[] {13, 60}, new int[] {6, 25},
            blosc(BloscCname.LZ4, 5, BloscShuffle.NOSHUFFLE, 256), "NaN", false),
        Arguments.of("f8 bitshuffle", 2, "<f8", new long[] {13, 60}, new int[] {6, 25},
            blosc(BloscCname.ZSTD, 3, BloscShuffle.BITSHUFFLE, 256), "NaN", true),
        // 512 elements a block: bit rows are transposed 8 bytes at a time
        Arguments.of("f4 bitshuffle, blocks of 2 KiB", 3, "<f4", new long[] {20, 300}, new int[] {8, 128},
            blosc(BloscCname.ZSTD, 3, BloscShuffle.BITSHUFFLE, 2048), "NaN", true),
        Arguments.of("i4 bitshuffle, blocks of 2 KiB", 2, "<i4", new long[] {20, 300}, new int[] {8, 128},
            blosc(BloscCname.ZSTD, 3, BloscShuffle.BITSHUFFLE, 2048), "-7", true),
        // Big-endian elements are swapped block by block, after the un-shuffle
        Arguments.of("f4 big-endian", 2, ">f4", new long[] {13, 60}, new int[] {6, 25},
            blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 256), "NaN", false),
        Arguments.of("i8 big-endian v3", 3, ">i8", new long[] {13, 60}, new int[] {6, 25},
            blosc(BloscCname.ZSTD, 3, BloscShuffle.SHUFFLE, 256), "0", false),
        Arguments.of("f8 big-endian stored (clevel 0)", 2, ">f8", new long[] {13, 60}, new int[] {6, 25},
            blosc(BloscCname.LZ4, 0, BloscShuffle.SHUFFLE, 256), "NaN", false),
        Arguments.of("f8 stored (clevel 0)", 2, "<f8", new long[] {13, 60}, new int[] {6, 25},
            blosc(BloscCname.LZ4, 0, BloscShuffle.SHUFFLE, 256), "NaN", false));
  }

  private static BloscCodec blosc(BloscCname cname, int clevel, BloscShuffle shuffle, int blockSize) {
    try {
      return new BloscCodec(cname, clevel, shuffle, blockSize, 0);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void blocksAddUpExactlyAsTheWholeChunk(String name, int format, String dtype, long[] shape,
      int[] chunks, BloscCodec blosc, String fill, boolean shuffledBlocks) throws Exception {
    ZarrArray array = write(format, dtype, shape, chunks, blosc, fill);
    assertTrue(array.decodesByBlock());
    int rank = shape.length;
    List<int[]> groupings = new ArrayList<>();
    groupings.add(new int[0]);
    groupings.add(new int[] {0});
    groupings.add(new int[] {rank - 1});
    groupings.add(rank == 3 ? new int[] {0, 2} : new int[] {0, 1});
    for (boolean masked : new boolean[] {true, false}) {
      CfDecoding cf = masked ? CfDecoding.of("v", array.metadata(), true) : null;
      for (int[] groupDims : groupings) {
        Result whole = aggregate(array, cf, groupDims, Mode.WHOLE);
        Result fused = aggregate(array, cf, groupDims, Mode.FUSED);
        Result blocks = aggregate(array, cf, groupDims, Mode.BLOCKS);
        String what = name + " masked=" + masked + " groups=" + java.util.Arrays.toString(groupDims);
        assertEquals(whole.values, fused.values, what + " (fused)");
        assertEquals(whole.values, blocks.values, what + " (blocks)");
        // A stored (memcpyed) frame is handed out whole, straight from the frame.
        assertEquals(!name.contains("stored"), fused.pieces > fused.chunks, what + ": several blocks per chunk");
        // Elements added one by one (the last dimension grouped) are read from un-shuffled blocks,
        // and so are integers (widened a block at a time from un-shuffled bytes), except 4- and
        // 8-byte ones in runs of 1,024 or more (here: whole chunks), which the kernels gather from
        // the planes.
        boolean lastGrouped = java.util.Arrays.stream(groupDims).anyMatch(d -> d == rank - 1);
        boolean floats = dtype.contains("f");
        boolean integerPlanes = !floats && groupDims.length == 0
            && java.util.Arrays.stream(chunks).reduce(1, (x, y) -> x * y) >= 1024;
        assertEquals(shuffledBlocks && !lastGrouped && (floats || integerPlanes), fused.shuffledPieces > 0,
            what + ": byte-shuffled blocks read");
        assertEquals(0, blocks.shuffledPieces, what);
      }
    }
  }

  /**
   * int64, int32 and uint32 only summed and counted (no mask) are read from blosc's byte planes,
   * each plane's bytes summed, in runs of at least 1,024 elements: the whole chunk's sums and
   * counts, for every group; an edge chunk's shorter rows and a grouped last dimension are read
   * un-shuffled.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("integerCases")
  void integerSumsAndExtremesReadTheBytePlanes(String name, String dtype, BloscCodec blosc) throws Exception {
    ZarrArray array = write(2, dtype, new long[] {13, 3000}, new int[] {6, 2048}, blosc, "0");
    // SUM and COUNT(v), then COUNT(v), MIN and MAX
    for (boolean sumsOnly : new boolean[] {true, false}) {
      for (int[] groupDims : new int[][] {{}, {0}, {1}}) {
        Result whole = aggregate(array, null, groupDims, Mode.WHOLE, sumsOnly);
        Result fused = aggregate(array, null, groupDims, Mode.FUSED, sumsOnly);
        String what = name + " sums " + sumsOnly + " groups=" + java.util.Arrays.toString(groupDims);
        assertEquals(whole.values, fused.values, what);
        assertEquals(groupDims.length == 0 || groupDims[0] == 0, fused.shuffledPieces > 0, what + ": planes read");
        // the missing chunk's fill, and at least a block of each of the two edge chunks (rows of 952)
        assertTrue(fused.pieces - fused.shuffledPieces >= 3, what + ": short runs are read un-shuffled");
      }
      // the fill (0) masked: its matches counted in the planes, or left out of the extremes
      CfDecoding fill = CfDecoding.of("v", array.metadata(), true);
      Result masked = aggregate(array, fill, new int[0], Mode.FUSED, sumsOnly);
      assertTrue(masked.shuffledPieces > 0, name + " masked: planes read");
      assertEquals(aggregate(array, fill, new int[0], Mode.WHOLE, sumsOnly).values, masked.values,
          name + " sums " + sumsOnly + " masked");
    }
  }

  static Stream<Arguments> integerCases() {
    return Stream.of(
        Arguments.of("i8 lz4, blocks of 4,096 elements", "<i8", blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 32768)),
        Arguments.of("i8 zstd, blocks of 100 elements", "<i8", blosc(BloscCname.ZSTD, 1, BloscShuffle.SHUFFLE, 800)),
        Arguments.of("i8 lz4, whole chunks", "<i8", blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 0)),
        Arguments.of("i4 zstd, blocks of 100 elements", "<i4", blosc(BloscCname.ZSTD, 1, BloscShuffle.SHUFFLE, 400)),
        Arguments.of("u4 lz4, blocks of 4,096 elements", "<u4", blosc(BloscCname.LZ4, 5, BloscShuffle.SHUFFLE, 16384)));
  }

  private enum Mode { WHOLE, FUSED, BLOCKS }

  private record Result(List<Object> values, int chunks, int pieces, int shuffledPieces) {}

  /** Every aggregate over the whole array as a partition would compute it, chunk by chunk. */
  private static Result aggregate(ZarrArray array, CfDecoding cf, int[] groupDims, Mode mode)
      throws IOException {
    return aggregate(array, cf, groupDims, mode, false);
  }

  /** @param sumsOnly integer SUM and COUNT(v) only, instead of COUNT(v), MIN, MAX (and SUM of floats) */
  private static Result aggregate(ZarrArray array, CfDecoding cf, int[] groupDims, Mode mode, boolean sumsOnly)
      throws IOException {
    ArrayMetadata md = array.metadata();
    DataType type = array.memoryType();
    boolean floats = type.kind() == DataType.Kind.FLOAT;
    org.apache.spark.sql.types.DataType resultType = floats
        ? (type.size() <= 4 ? DataTypes.FloatType : DataTypes.DoubleType)
        : (type.size() == 4 ? DataTypes.IntegerType : DataTypes.LongType);
    List<Accumulator> accs = sumsOnly ? new ArrayList<>(List.of(new CountAccumulator(true), new IntSumAccumulator()))
        : new ArrayList<>(List.of(new CountAccumulator(true),
        new ExtremeAccumulator(false, resultType), new ExtremeAccumulator(true, resultType)));
    if (floats && !sumsOnly) {
      accs.add(new SumAccumulator());
    }
    Accumulator[] targets = accs.toArray(new Accumulator[0]);
    Accumulator rows = new CountAccumulator(false);
    long[] grid = md.gridShape();
    int[] chunkShape = md.chunkShape();
    int rank = grid.length;
    int slots = 1;
    for (int d : groupDims) {
      slots *= (int) md.shape()[d];
    }
    for (Accumulator a : targets) {
      a.ensure(slots);
    }
    rows.ensure(slots);
    DecodeBuffers buffers = new DecodeBuffers();
    int[] counters = new int[3];
    long[] coords = new long[rank];
    ConsecutiveRuns runs = new ConsecutiveRuns(); // shared from chunk to chunk, as a reader's
    while (true) {
      int[] len = new int[rank];
      long[] lo = new long[rank];
      for (int d = 0; d < rank; d++) {
        lo[d] = coords[d] * chunkShape[d];
        len[d] = (int) Math.min(chunkShape[d], md.shape()[d] - lo[d]);
      }
      int[] slotOf = slotsOf(groupDims, md.shape(), lo, len);
      long[] strides = BoxCopy.strides(chunkShape);
      ChunkFeeder feeder = new ChunkFeeder(type, cf, mode == Mode.FUSED, targets, len, strides, 0,
          groupDims, slotOf, runs).widenHalfFloats(buffers);
      counters[0]++;
      if (mode == Mode.WHOLE) {
        byte[] bytes = array.readChunk(coords).bytes();
        feeder.block(bytes, 0, 0, bytes.length);
      } else {
        BlockSink counting = new BlockSink() {
          @Override
          public void block(byte[] buffer, int offset, int start, int length) throws IOException {
            counters[1]++;
            feeder.block(buffer, offset, start, length);
          }

          @Override
          public boolean readsByteShuffled(int typeSize) {
            return feeder.readsByteShuffled(typeSize);
          }

          @Override
          public void byteShuffledBlock(byte[] buffer, int offset, int start, int length, int typeSize)
              throws IOException {
            counters[1]++;
            counters[2]++;
            feeder.byteShuffledBlock(buffer, offset, start, length, typeSize);
          }
        };
        if (!array.readChunkBlocks(coords.clone(), buffers, counting)) {
          byte[] fill = array.fillChunk(chunkShape).bytes();
          counting.block(fill, 0, 0, fill.length);
        }
      }
      feeder.checkFinished();
      new ChunkFeeder(null, null, false, new Accumulator[] {rows}, len, BoxCopy.strides(len), 0,
          groupDims, slotOf, new ConsecutiveRuns()).countAll();
      int d = rank - 1;
      while (d >= 0 && ++coords[d] == grid[d]) {
        coords[d] = 0;
        d--;
      }
      if (d < 0) {
        break;
      }
    }
    List<Object> values = new ArrayList<>();
    for (Accumulator a : targets) {
      values.add(written(a, slots, a instanceof SumAccumulator ? DataTypes.DoubleType
          : a instanceof CountAccumulator || a instanceof IntSumAccumulator ? DataTypes.LongType : resultType));
    }
    values.add(written(rows, slots, DataTypes.LongType));
    return new Result(values, counters[0], counters[1], counters[2]);
  }

  /** Slots numbered in C order over the grouped dimensions of the whole array. */
  private static int[] slotsOf(int[] groupDims, long[] shape, long[] lo, int[] len) {
    int groups = 1;
    for (int d : groupDims) {
      groups *= len[d];
    }
    int[] out = new int[groups];
    int[] idx = new int[groupDims.length];
    for (int g = 0; g < groups; g++) {
      long slot = 0;
      for (int k = 0; k < groupDims.length; k++) {
        slot = slot * shape[groupDims[k]] + lo[groupDims[k]] + idx[k];
      }
      out[g] = (int) slot;
      for (int k = groupDims.length - 1; k >= 0 && ++idx[k] == len[groupDims[k]]; k--) {
        idx[k] = 0;
      }
    }
    return out;
  }

  private static List<Object> written(Accumulator a, int slots,
      org.apache.spark.sql.types.DataType type) {
    OnHeapColumnVector v = new OnHeapColumnVector(slots, type);
    a.write(v, 0, slots);
    List<Object> out = new ArrayList<>();
    for (int s = 0; s < slots; s++) {
      if (v.isNullAt(s)) {
        out.add(null);
      } else if (type.equals(DataTypes.DoubleType)) {
        out.add(Double.doubleToRawLongBits(v.getDouble(s)));
      } else if (type.equals(DataTypes.FloatType)) {
        out.add(Float.floatToRawIntBits(v.getFloat(s)));
      } else if (type.equals(DataTypes.IntegerType)) {
        out.add(v.getInt(s));
      } else {
        out.add(v.getLong(s));
      }
    }
    v.close();
    return out;
  }

  /**
   * An array of random values with NaNs (floats) and fill values sprinkled in, every chunk written
   * but chunk (0, 1, ...), which is left missing.
   */
  private static ZarrArray write(int format, String dtype, long[] shape, int[] chunks,
      BloscCodec blosc, String fill) throws Exception {
    HadoopStore s = new HadoopStore(Files.createTempDirectory("feeder").resolve("a.zarr").toString(),
        new Configuration());
    DataType t = NumpyDtype.parse(dtype);
    com.fasterxml.jackson.databind.JsonNode fillJson = fill.equals("NaN")
        ? Json.nodes().textNode("NaN") : Json.nodes().numberNode(Long.parseLong(fill));
    FillValue fv = FillValue.parseV2(fillJson, t);
    List<String> dims = shape.length == 3 ? List.of("t", "y", "x") : List.of("y", "x");
    ZarrArray array;
    if (format == 2) {
      ChunkCodec codec = new V2ChunkCodec(t, false, List.of(), blosc);
      array = ZarrHierarchy.writeArrayV2(s, "v", new ArrayMetadata(2, shape, chunks, t, fv, codec,
          ChunkKeyEncoding.v2('.'), dims, Json.object()));
    } else {
      // v3 types have no byte order: the "bytes" codec has it
      DataType v3 = t.littleEndian();
      EndianCodec bytes = t.needsSwap() ? new EndianCodec(ByteOrder.BIG_ENDIAN) : EndianCodec.little();
      V3ChunkCodec codec = new V3ChunkCodec(v3, List.of(), bytes,
          List.of(new BytesToBytesCodec("blosc", blosc.toConfig(), blosc)));
      array = ZarrHierarchy.writeArrayV3(s, "v", new ArrayMetadata(3, shape, chunks, v3, FillValue.parseV2(fillJson, v3), codec,
          ChunkKeyEncoding.v3Default('/'), dims, Json.object()));
    }
    int n = 1;
    int[] region = new int[shape.length];
    for (int d = 0; d < shape.length; d++) {
      region[d] = (int) shape[d];
      n *= region[d];
    }
    ByteBuffer b = ByteBuffer.allocate(n * t.size()).order(ByteOrder.LITTLE_ENDIAN);
    Random r = new Random(dtype.hashCode() * 31L + n);
    double fillNumber = fill.equals("NaN") ? Double.NaN : Double.parseDouble(fill);
    for (int i = 0; i < n; i++) {
      int k = r.nextInt(40);
      double v = k == 0 ? Double.NaN : k == 1 ? fillNumber : (r.nextDouble() - 0.3) * 1e4;
      switch (dtype.substring(1)) {
        case "f4" -> b.putFloat((float) v);
        case "f2" -> b.putShort(io.github.sparkzarr.zarr.dtype.HalfFloat.fromDouble(v));
        case "f8" -> b.putDouble(v);
        case "i4" -> b.putInt(Double.isNaN(v) ? 5 : (int) v);
        case "u4" -> b.putInt(Double.isNaN(v) ? 5 : (int) (long) (v * 4e5)); // the top bit set in most
        default -> b.putLong(Double.isNaN(v) ? 5 : (long) (v * 1e9));
      }
    }
    array.write(new long[shape.length], ChunkData.ofBytes(t.littleEndian(), region, b.array()));
    long[] missing = new long[shape.length];
    missing[1] = 1;
    s.delete(array.chunkKey(missing));
    assertFalse(array.readChunkIfPresent(missing).isPresent());
    return array;
  }
}
