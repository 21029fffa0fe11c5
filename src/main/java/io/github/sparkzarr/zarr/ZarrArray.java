package io.github.sparkzarr.zarr;

import io.github.sparkzarr.zarr.chunk.BoxCopy;
import io.github.sparkzarr.zarr.chunk.BoxScatter;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.chunk.FillChunks;
import io.github.sparkzarr.zarr.chunk.GridOverlaps;
import io.github.sparkzarr.zarr.codec.BlockSink;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.codec.DecodeBuffers;
import io.github.sparkzarr.zarr.codec.DecodeLimit;
import io.github.sparkzarr.zarr.codec.v3.RangeReader;
import io.github.sparkzarr.zarr.codec.v3.ShardingCodec;
import io.github.sparkzarr.zarr.codec.v3.V3ChunkCodec;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.store.ReadBuffer;
import io.github.sparkzarr.zarr.store.Store;
import io.github.sparkzarr.zarr.store.StoreKeys;
import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * An array in a store: reads and writes whole chunks, and regions made of them. Decoded chunks are
 * little-endian and C-ordered, of the full chunk shape (edge chunks include their overhang).
 * Thread-safe.
 */
public final class ZarrArray {
  private final Store store;
  private final String path;
  private final ArrayMetadata metadata;
  /** How chunks are decoded in scans. */
  private final ChunkDecoding decoding;
  /** How the inner chunks of shards are decoded in scans; null when the array is not sharded. */
  private final ChunkDecoding innerDecoding;

  public ZarrArray(Store store, String path, ArrayMetadata metadata) {
    this.store = store;
    this.path = StoreKeys.normalizePath(path);
    this.metadata = metadata;
    this.decoding = new ChunkDecoding(metadata.dataType(), metadata.codec(), metadata.chunkShape());
    this.innerDecoding = sharding()
        .map(s -> new ChunkDecoding(metadata.dataType(), s.inner(), s.innerShape())).orElse(null);
  }

  /**
   * Whether {@link #readChunkBlocks} hands out a chunk while it is decoded, block by block (the
   * codec chain is blosc alone, or filters decoded run by run), rather than after decoding it whole.
   */
  public boolean decodesByBlock() {
    return decoding.byBlock();
  }

  /**
   * Reads the chunk at {@code coords} and hands its decoded bytes (little-endian, C order, the full
   * chunk shape) to {@code sink} in order: block by block when {@link #decodesByBlock}, else as
   * one piece. Pieces start and end on element boundaries. The stored bytes are read into the
   * buffers' reused array, and decoded into their scratch buffers when the chain allows.
   *
   * @return false, having handed out nothing, when the chunk was never written
   */
  public boolean readChunkBlocks(long[] coords, DecodeBuffers buffers, BlockSink sink)
      throws IOException {
    return readChunkBlocks(coords, buffers, sink, false);
  }

  /**
   * For chunks stored with their axes in another order (v2 order "F", a v3 "transpose" codec) that
   * {@link #readChunkBlocksAsStored} can hand out as stored: axis {@code i} of a chunk is axis
   * {@code storedAxes()[i]} of the stored one, whose C-order shape is {@link #storedChunkShape}.
   * Null when chunks are stored in C order, or when only their codec chain can decode them.
   */
  public int[] storedAxes() {
    return decoding.storedAxes();
  }

  /** The C-order shape a chunk's decoded bytes have as stored: see {@link #storedAxes}. */
  public int[] storedChunkShape() {
    return decoding.storedShape();
  }

  /**
   * As {@link #readChunkBlocks}, but the decoded bytes are in the C order of {@link
   * #storedChunkShape} when {@link #storedAxes} is not null, block by block when blosc is the
   * whole chain: for a reader to whom the order of elements does not matter (aggregates), which
   * so skips permuting every chunk.
   */
  public boolean readChunkBlocksAsStored(long[] coords, DecodeBuffers buffers, BlockSink sink)
      throws IOException {
    return readChunkBlocks(coords, buffers, sink, true);
  }

  private boolean readChunkBlocks(long[] coords, DecodeBuffers buffers, BlockSink sink,
      boolean asStored) throws IOException {
    String key = chunkKey(coords);
    ReadBuffer stored = buffers.stored();
    if (!store.read(key, maxStoredChunkBytes(), stored)) {
      return false;
    }
    decodeBlocks(key, decoding, stored.array(), stored.length(), buffers, sink, asStored);
    return true;
  }

  /**
   * The decoded bytes of the chunk at {@code coords} (little-endian, C order, the full chunk shape)
   * in {@code [0, size)} of an array that may be longer and that {@code buffers} reuse for the next
   * chunk: the stored bytes themselves when they are the decoded ones, else decoded into scratch
   * buffer 0 when the chain allows (5 when its filters run by run); other chains decode into a new
   * array. A shard's inner chunks
   * are decoded so and assembled in scratch buffer 2.
   *
   * @return null when the chunk was never written
   */
  public byte[] readChunkBytes(long[] coords, DecodeBuffers buffers) throws IOException {
    if (innerDecoding != null) {
      return readShardBytes(coords, buffers);
    }
    String key = chunkKey(coords);
    ReadBuffer stored = buffers.stored();
    if (!store.read(key, maxStoredChunkBytes(), stored)) {
      return null;
    }
    return decodeWhole(key, decoding, stored.array(), stored.length(), buffers, false);
  }

  /**
   * Decodes the stored chunk {@code key} ({@code stored[0, storedLength)}) as {@link
   * #readChunkBlocks} does: into {@code buffers}, which the pieces handed to {@code sink} live in
   * until the next chunk, when the chain allows.
   */
  public void decodeChunkBlocks(String key, byte[] stored, int storedLength, DecodeBuffers buffers,
      BlockSink sink) throws IOException {
    decodeBlocks(key, decoding, stored, storedLength, buffers, sink, false);
  }

  /**
   * {@link #decodeChunkBlocks} for chunks of {@code decoding} (an array's, or its shards' inner
   * chunks), in C order or, {@code asStored}, in their stored order ({@link #storedAxes}).
   */
  private void decodeBlocks(String key, ChunkDecoding decoding, byte[] stored, int storedLength,
      DecodeBuffers buffers, BlockSink sink, boolean asStored) throws IOException {
    if (asStored ? !decoding.byBlockAsStored() : !decoding.byBlock()) {
      sink.block(decodeWhole(key, decoding, stored, storedLength, buffers, asStored), 0, 0, decoding.size());
      return;
    }
    try {
      decoding.decodeBlocks(stored, storedLength, buffers, sink);
    } catch (IOException | RuntimeException e) {
      throw decodeError(key, e);
    }
  }

  /**
   * The stored chunk {@code key} ({@code stored[0, storedLength)}) decoded whole: {@code stored}
   * itself when it holds the decoded bytes, else scratch buffer 0 of {@code buffers} when the
   * chain decodes into a buffer (5 when its filters run by run), else a new array.
   */
  private byte[] decodeWhole(String key, ChunkDecoding decoding, byte[] stored, int storedLength,
      DecodeBuffers buffers, boolean asStored) throws ZarrException {
    try {
      return asStored ? decoding.decodeAsStored(stored, storedLength, buffers)
          : decoding.decodeWhole(stored, storedLength, buffers);
    } catch (ZarrException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw decodeError(key, e);
    }
  }

  /** Where {@link #readShardBlocks} hands the inner chunks of a shard. */
  public interface ShardRegionSink {
    /**
     * The sink for the next inner chunk (of {@code innerShape}) that meets the box: the overlap
     * starts at {@code inChunk} in the inner chunk and at {@code inBox} relative to the box, and is
     * {@code overlap} long. The sink then receives the whole inner chunk's decoded bytes.
     */
    BlockSink open(int[] innerShape, int[] inChunk, int[] inBox, int[] overlap) throws IOException;
  }

  /**
   * For a sharded array ({@link #readsPartialChunks}): reads the index of the shard at {@code
   * coords} and then each inner chunk that meets the box {@code [start, start + box)} (relative to
   * the shard's origin), and hands it to the sink {@code sink.open} gives for it, decoded as {@link
   * #readChunkBlocks} does (into {@code buffers} when the inner chain allows, blosc block by block),
   * or as fill values when it is not stored.
   *
   * @return false, having handed out nothing, when the shard was never written
   */
  public boolean readShardBlocks(long[] coords, int[] start, int[] box, DecodeBuffers buffers,
      ShardRegionSink sink) throws IOException {
    ShardingCodec sharding = sharding().orElseThrow(
        () -> new IllegalStateException("array " + path + " is not sharded"));
    String key = chunkKey(coords);
    int[] innerShape = sharding.innerShape();
    byte[][] fill = new byte[1][];
    try {
      return sharding.visitRegion(shardReader(key), metadata.chunkShape(), start, box,
          (stored, inChunk, inBox, overlap) -> {
            BlockSink s = sink.open(innerShape, inChunk, inBox, overlap);
            if (stored != null) {
              decodeBlocks(key, innerDecoding, stored, stored.length, buffers, s, false);
              return;
            }
            if (fill[0] == null) {
              fill[0] = fillChunk(innerShape).bytes();
            }
            s.block(fill[0], 0, 0, fill[0].length);
          });
    } catch (CodecException | RuntimeException e) {
      throw decodeError(key, e);
    }
  }

  /** {@link #readChunkBytes} of a shard: its inner chunks assembled in scratch buffer 2. */
  private byte[] readShardBytes(long[] coords, DecodeBuffers buffers) throws IOException {
    int[] shape = metadata.chunkShape();
    int elementSize = memoryType().size();
    byte[] out = buffers.get(2, Math.toIntExact(ChunkData.count(shape) * elementSize));
    boolean stored = readShardBlocks(coords, new int[shape.length], shape, buffers,
        (innerShape, inChunk, inBox, overlap) -> new BoxScatter(out, shape, innerShape, inBox, elementSize));
    return stored ? out : null;
  }

  /** Ranged reads of the shard at {@code key}. */
  private RangeReader shardReader(String key) {
    return new RangeReader() {
      @Override
      public Optional<Long> size() throws IOException {
        return store.size(key);
      }

      @Override
      public Optional<byte[]> read(long offset, int length) throws IOException {
        return store.getRange(key, offset, length);
      }
    };
  }

  private ZarrException decodeError(String key, Exception e) {
    return new ZarrException(store.location(), key, "cannot decode chunk: " + e.getMessage(), e);
  }

  /** Opens the array at {@code path} ("" for the store root), of any supported format. */
  public static ZarrArray open(Store store, String path) throws IOException {
    return ZarrHierarchy.open(store).openArray(path);
  }

  public Store store() {
    return store;
  }

  /** The array's path in the store ("" at the root). */
  public String path() {
    return path;
  }

  public ArrayMetadata metadata() {
    return metadata;
  }

  /** The element type of decoded chunks (little-endian). */
  public DataType memoryType() {
    return metadata.dataType().littleEndian();
  }

  /** The store key of the chunk at grid coordinates {@code coords}. */
  public String chunkKey(long[] coords) {
    checkCoords(coords);
    return metadata.chunkKeyEncoding().storeKey(path, coords);
  }

  private void checkCoords(long[] coords) {
    long[] grid = metadata.gridShape();
    if (coords.length != grid.length) {
      throw new IllegalArgumentException(
          "chunk coordinates " + Arrays.toString(coords) + " do not match rank " + grid.length);
    }
    for (int i = 0; i < grid.length; i++) {
      if (coords[i] < 0 || coords[i] >= grid[i]) {
        throw new IllegalArgumentException(
            "chunk coordinates " + Arrays.toString(coords) + " are outside the grid " + Arrays.toString(grid));
      }
    }
  }

  /**
   * The decoded chunk at {@code coords}, or empty if it was never written. Corrupt data and I/O
   * failures throw; they are never reported as a missing chunk.
   */
  public Optional<ChunkData> readChunkIfPresent(long[] coords) throws IOException {
    String key = chunkKey(coords);
    Optional<byte[]> stored = store.get(key, maxStoredChunkBytes());
    if (stored.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(decodeChunk(key, stored.get()));
  }

  /**
   * The most bytes a stored chunk may hold, so a hostile multi-GB chunk file is refused instead of
   * read: twice the decoded size plus 1 MiB covers every codec's worst-case expansion; chunks of
   * unknown decoded size get the {@link DecodeLimit}.
   */
  private int maxStoredChunkBytes() {
    DataType type = metadata.dataType();
    long decoded = type.isVariableLength() ? 0 : (long) metadata.chunkElementCount() * type.size();
    long bound = Math.max(2 * decoded + (1 << 20), DecodeLimit.maxUnknownDecodedBytes());
    return (int) Math.min(bound, Integer.MAX_VALUE - 8);
  }

  /** Decodes the stored bytes of the chunk at {@code key}; errors name the store and key. */
  public ChunkData decodeChunk(String key, byte[] stored) throws ZarrException {
    try {
      return metadata.codec().decode(stored, metadata.chunkShape());
    } catch (ZarrException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      throw decodeError(key, e);
    }
  }

  /** The decoded chunk at {@code coords}, or a chunk of fill values if it was never written. */
  public ChunkData readChunk(long[] coords) throws IOException {
    Optional<ChunkData> chunk = readChunkIfPresent(coords);
    return chunk.isPresent() ? chunk.get() : fillChunk(metadata.chunkShape());
  }

  /** A chunk of {@code shape} holding the fill value everywhere. */
  public ChunkData fillChunk(int[] shape) {
    return FillChunks.filled(memoryType(), shape, metadata.fillValue());
  }

  /** True if {@link #read} fetches only the needed parts of a chunk (sharded arrays). */
  public boolean readsPartialChunks() {
    return sharding().isPresent();
  }

  private Optional<ShardingCodec> sharding() {
    return metadata.codec() instanceof V3ChunkCodec v3 ? v3.sharding() : Optional.empty();
  }

  /**
   * The region of {@code shape} starting at {@code start}, C-ordered and little-endian. In a
   * sharded array, a shard the region covers only in part is read in part: its index and the
   * inner chunks the region needs.
   */
  public ChunkData read(long[] start, int[] shape) throws IOException {
    checkRegion(start, shape);
    ChunkData out = fillChunk(shape);
    int[] chunk = metadata.chunkShape();
    Optional<ShardingCodec> sharding = sharding();
    GridOverlaps.forEach(start, shape, metadata.chunkShape(), (coords, inChunk, inRegion, box) -> {
      if (sharding.isPresent() && !Arrays.equals(box, chunk)) {
        Optional<ChunkData> part = readShardRegion(sharding.get(), coords, inChunk, box);
        if (part.isPresent()) {
          copy(part.get(), box, new int[box.length], out, shape, inRegion, box);
        }
        return;
      }
      Optional<ChunkData> data = readChunkIfPresent(coords);
      if (data.isPresent()) {
        copy(data.get(), chunk, inChunk, out, shape, inRegion, box);
      }
    });
    return out;
  }

  private Optional<ChunkData> readShardRegion(ShardingCodec sharding, long[] coords, int[] inChunk,
      int[] box) throws IOException {
    String key = chunkKey(coords);
    try {
      return sharding.decodeRegion(shardReader(key), memoryType(), metadata.chunkShape(), inChunk, box);
    } catch (CodecException | RuntimeException e) {
      throw new ZarrException(store.location(), key, "cannot decode chunk: " + e.getMessage(), e);
    }
  }

  /**
   * Writes {@code region} (C-ordered, little-endian) at {@code start}. Chunks the region covers
   * only in part are read, updated and written back; not safe against concurrent writers of the
   * same chunk.
   */
  public void write(long[] start, ChunkData region) throws IOException {
    int[] shape = region.shape();
    checkRegion(start, shape);
    int[] chunk = metadata.chunkShape();
    long[] arrayShape = metadata.shape();
    GridOverlaps.forEach(start, shape, metadata.chunkShape(), (coords, inChunk, inRegion, box) -> {
      boolean whole = true;
      for (int i = 0; i < chunk.length; i++) {
        long inBounds = Math.min(chunk[i], arrayShape[i] - coords[i] * chunk[i]);
        whole &= inChunk[i] == 0 && box[i] == inBounds;
      }
      ChunkData target = whole ? fillChunk(chunk) : readChunk(coords);
      copy(region, shape, inRegion, target, chunk, inChunk, box);
      writeChunk(coords, target);
    });
  }

  private void checkRegion(long[] start, int[] shape) {
    int rank = metadata.rank();
    long[] arrayShape = metadata.shape();
    if (start.length != rank || shape.length != rank) {
      throw new IllegalArgumentException("region rank does not match the array rank " + rank);
    }
    for (int i = 0; i < rank; i++) {
      if (start[i] < 0 || shape[i] < 0 || start[i] + shape[i] > arrayShape[i]) {
        throw new IllegalArgumentException("region " + Arrays.toString(start) + "+"
            + Arrays.toString(shape) + " is outside the array " + Arrays.toString(arrayShape));
      }
    }
  }

  private static void copy(ChunkData src, int[] srcShape, int[] srcStart,
      ChunkData dst, int[] dstShape, int[] dstStart, int[] box) {
    boolean objects = src.holdsObjects();
    BoxCopy.copy(objects ? src.objects() : src.bytes(), srcShape, srcStart,
        objects ? dst.objects() : dst.bytes(), dstShape, dstStart, box,
        objects ? 1 : src.type().size());
  }

  /** The whole array. */
  public ChunkData readAll() throws IOException {
    long[] s = metadata.shape();
    int[] shape = new int[s.length];
    for (int i = 0; i < s.length; i++) {
      shape[i] = Math.toIntExact(s[i]);
    }
    return read(new long[s.length], shape);
  }

  /** Encodes a full-shape, little-endian, C-order chunk for storage. */
  public byte[] encodeChunk(long[] coords, ChunkData chunk) throws IOException {
    if (!Arrays.equals(chunk.shape(), metadata.chunkShape())) {
      throw new IllegalArgumentException("chunk shape " + Arrays.toString(chunk.shape())
          + " is not the array's chunk shape " + Arrays.toString(metadata.chunkShape()));
    }
    try {
      return metadata.codec().encode(chunk);
    } catch (IOException | RuntimeException e) {
      throw new ZarrException(store.location(), chunkKey(coords), "cannot encode chunk: " + e.getMessage(), e);
    }
  }

  /** Encodes and stores the chunk at {@code coords}. */
  public void writeChunk(long[] coords, ChunkData chunk) throws IOException {
    store.set(chunkKey(coords), encodeChunk(coords, chunk));
  }
}
