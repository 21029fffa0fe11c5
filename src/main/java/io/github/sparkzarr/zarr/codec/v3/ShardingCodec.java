package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.BoxCopy;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.chunk.FillChunks;
import io.github.sparkzarr.zarr.chunk.GridOverlaps;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.metadata.FillValue;
import io.github.sparkzarr.zarr.metadata.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * The v3 "sharding_indexed" codec: a shard is a grid of inner chunks, each encoded with the inner
 * chain and stored back to back, plus an index (encoded with the index chain) at the start or end
 * giving each inner chunk's byte range. Missing inner chunks read as the fill value; inner chunks
 * that hold only the fill value are not written.
 */
public final class ShardingCodec implements ArrayToBytesCodec {
  public static final String NAME = "sharding_indexed";
  private final int[] innerShape;
  private final V3ChunkCodec inner;
  private final V3ChunkCodec indexCodec;
  private final boolean indexAtEnd;
  private final FillValue fill;

  public ShardingCodec(int[] innerShape, V3ChunkCodec inner, V3ChunkCodec indexCodec,
      boolean indexAtEnd, FillValue fill) {
    this.innerShape = innerShape.clone();
    this.inner = inner;
    this.indexCodec = indexCodec;
    this.indexAtEnd = indexAtEnd;
    this.fill = fill;
  }

  public int[] innerShape() {
    return innerShape.clone();
  }

  public V3ChunkCodec inner() {
    return inner;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode node = Json.object().put("name", NAME);
    ObjectNode config = node.putObject("configuration");
    var shape = config.putArray("chunk_shape");
    Arrays.stream(innerShape).forEach(shape::add);
    config.set("codecs", inner.toJson());
    config.set("index_codecs", indexCodec.toJson());
    config.put("index_location", indexAtEnd ? "end" : "start");
    return node;
  }

  /** Inner chunks per dimension of a shard of {@code shardShape}. */
  public int[] grid(int[] shardShape) throws CodecException {
    if (shardShape.length != innerShape.length) {
      throw new CodecException("sharding_indexed: chunk_shape " + Arrays.toString(innerShape)
          + " does not match the rank of the shard " + Arrays.toString(shardShape));
    }
    int[] grid = new int[shardShape.length];
    for (int i = 0; i < grid.length; i++) {
      if (shardShape[i] % innerShape[i] != 0) {
        throw new CodecException("sharding_indexed: the shard shape " + Arrays.toString(shardShape)
            + " is not a multiple of the inner chunk shape " + Arrays.toString(innerShape));
      }
      grid[i] = shardShape[i] / innerShape[i];
    }
    return grid;
  }

  private static int[] indexShape(int[] grid) {
    int[] s = Arrays.copyOf(grid, grid.length + 1);
    s[grid.length] = 2;
    return s;
  }

  /** The encoded index's size in bytes; the index codecs must give a fixed size. */
  public int indexSize(int[] grid) throws IOException {
    return encodeIndex(ShardIndex.empty(count(grid)), grid).length;
  }

  private byte[] encodeIndex(ShardIndex index, int[] grid) throws IOException {
    DataType u64 = indexCodec.type();
    return indexCodec.encode(ChunkData.ofBytes(u64, indexShape(grid), index.toLittleEndian()));
  }

  private ShardIndex decodeIndex(byte[] encoded, int[] grid, long dataStart, long dataEnd)
      throws IOException {
    ChunkData decoded = indexCodec.decode(encoded, indexShape(grid));
    return ShardIndex.parse(decoded.bytes(), count(grid), dataStart, dataEnd);
  }

  private static int count(int[] grid) {
    return Math.toIntExact(ChunkData.count(grid));
  }

  @Override
  public byte[] encode(ChunkData shard) throws IOException {
    int[] shardShape = shard.shape();
    int[] grid = grid(shardShape);
    int n = count(grid);
    ShardIndex index = ShardIndex.empty(n);
    int indexSize = indexSize(grid);
    ByteArrayOutputStream data = new ByteArrayOutputStream();
    long base = indexAtEnd ? 0 : indexSize;
    int[] coords = new int[grid.length];
    for (int i = 0; i < n; i++) {
      ChunkData part = extract(shard, shardShape, origin(coords), innerShape);
      if (!FillChunks.isAllFill(part, fill)) {
        byte[] encoded = inner.encode(part);
        index.set(i, base + data.size(), encoded.length);
        data.write(encoded);
      }
      next(coords, grid);
    }
    byte[] encodedIndex = encodeIndex(index, grid);
    ByteArrayOutputStream out = new ByteArrayOutputStream(data.size() + indexSize);
    if (!indexAtEnd) {
      out.write(encodedIndex);
    }
    data.writeTo(out);
    if (indexAtEnd) {
      out.write(encodedIndex);
    }
    return out.toByteArray();
  }

  @Override
  public ChunkData decode(byte[] encoded, DataType type, int[] shardShape) throws IOException {
    RangeReader inMemory = new RangeReader() {
      @Override
      public Optional<Long> size() {
        return Optional.of((long) encoded.length);
      }

      @Override
      public Optional<byte[]> read(long offset, int length) {
        return Optional.of(Arrays.copyOfRange(encoded, (int) offset, (int) offset + length));
      }
    };
    return decodeRegion(inMemory, type, shardShape, new int[shardShape.length], shardShape)
        .orElseThrow();
  }

  /**
   * Decodes only the box {@code [start, start + box)} of a shard of {@code shardShape}, fetching
   * its index and the inner chunks that meet the box. Empty when the shard is absent.
   */
  public Optional<ChunkData> decodeRegion(RangeReader shard, DataType type, int[] shardShape,
      int[] start, int[] box) throws IOException {
    ChunkData out = FillChunks.filled(type, box, fill);
    boolean present = visitRegion(shard, shardShape, start, box, (stored, inChunk, inBox, overlap) -> {
      if (stored != null) {
        copy(inner.decode(stored, innerShape), innerShape, inChunk, out, box, inBox, overlap);
      }
    });
    return present ? Optional.of(out) : Optional.empty();
  }

  /** Receives the inner chunks of a shard that meet a box, in C order of the shard's grid. */
  public interface InnerChunkVisitor {
    /**
     * @param stored the inner chunk's stored bytes (inner chain), or null when it is not stored:
     *     all of it is the fill value
     * @param inChunk where the overlap with the box starts in the inner chunk
     * @param inBox where the overlap starts relative to the box
     * @param overlap the overlap's size
     */
    void visit(byte[] stored, int[] inChunk, int[] inBox, int[] overlap) throws IOException;
  }

  /**
   * Hands {@code visitor} each inner chunk of a shard of {@code shardShape} that meets the box
   * {@code [start, start + box)}, fetching the shard's index and then only those inner chunks.
   *
   * @return false when the shard is absent
   */
  public boolean visitRegion(RangeReader shard, int[] shardShape, int[] start, int[] box,
      InnerChunkVisitor visitor) throws IOException {
    int[] grid = grid(shardShape);
    int indexSize = indexSize(grid);
    Optional<Long> size = shard.size();
    if (size.isEmpty()) {
      return false;
    }
    long total = size.get();
    if (total < indexSize) {
      throw new CodecException("sharding_indexed: the shard has " + total
          + " bytes, fewer than its " + indexSize + "-byte index");
    }
    long indexStart = indexAtEnd ? total - indexSize : 0;
    byte[] encodedIndex = shard.read(indexStart, indexSize).orElseThrow(
        () -> new CodecException("sharding_indexed: the shard vanished while being read"));
    ShardIndex index = decodeIndex(encodedIndex, grid,
        indexAtEnd ? 0 : indexSize, indexAtEnd ? indexStart : total);
    long[] from = new long[start.length];
    for (int d = 0; d < from.length; d++) {
      from[d] = start[d];
    }
    GridOverlaps.forEach(from, box, innerShape, (coords, inChunk, inBox, overlap) -> {
      int i = linear(coords, grid);
      byte[] stored = null;
      if (!index.isMissing(i)) {
        stored = shard.read(index.offset(i), index.length(i)).orElseThrow(
            () -> new CodecException("sharding_indexed: the shard vanished while being read"));
      }
      visitor.visit(stored, inChunk, inBox, overlap);
    });
    return true;
  }

  private int[] origin(int[] coords) {
    int[] o = new int[coords.length];
    for (int d = 0; d < coords.length; d++) {
      o[d] = coords[d] * innerShape[d];
    }
    return o;
  }

  private static int linear(long[] coords, int[] grid) {
    int i = 0;
    for (int d = 0; d < grid.length; d++) {
      i = i * grid[d] + (int) coords[d];
    }
    return i;
  }

  /** Advances C-order coordinates within {@code grid}. */
  private static void next(int[] coords, int[] grid) {
    for (int d = grid.length - 1; d >= 0; d--) {
      if (++coords[d] < grid[d]) {
        return;
      }
      coords[d] = 0;
    }
  }

  private static ChunkData extract(ChunkData src, int[] srcShape, int[] at, int[] shape) {
    ChunkData dst = src.holdsObjects()
        ? ChunkData.ofObjects(src.type(), shape, new Object[Math.toIntExact(ChunkData.count(shape))])
        : ChunkData.ofBytes(src.type(), shape, new byte[Math.toIntExact(ChunkData.count(shape) * src.type().size())]);
    copy(src, srcShape, at, dst, shape, new int[shape.length], shape);
    return dst;
  }

  private static void copy(ChunkData src, int[] srcShape, int[] srcStart,
      ChunkData dst, int[] dstShape, int[] dstStart, int[] box) {
    boolean objects = src.holdsObjects();
    BoxCopy.copy(objects ? src.objects() : src.bytes(), srcShape, srcStart,
        objects ? dst.objects() : dst.bytes(), dstShape, dstStart, box,
        objects ? 1 : src.type().size());
  }
}
