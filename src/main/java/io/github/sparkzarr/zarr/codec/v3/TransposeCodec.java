package io.github.sparkzarr.zarr.codec.v3;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.chunk.Transpose;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.metadata.Json;
import java.util.Arrays;

/** The v3 "transpose" codec: encoded axis i is decoded axis order[i]. */
public final class TransposeCodec implements ArrayToArrayCodec {
  public static final String NAME = "transpose";
  private final int[] order;

  public TransposeCodec(int[] order, int rank) throws CodecException {
    boolean[] seen = new boolean[rank];
    if (order.length != rank) {
      throw new CodecException("transpose: order " + Arrays.toString(order) + " does not match rank " + rank);
    }
    for (int axis : order) {
      if (axis < 0 || axis >= rank || seen[axis]) {
        throw new CodecException("transpose: order " + Arrays.toString(order) + " is not a permutation");
      }
      seen[axis] = true;
    }
    this.order = order.clone();
  }

  /** Encoded axis i is decoded axis order()[i]. */
  public int[] order() {
    return order.clone();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public ObjectNode toJson() {
    ObjectNode node = Json.object().put("name", NAME);
    var list = node.putObject("configuration").putArray("order");
    Arrays.stream(order).forEach(list::add);
    return node;
  }

  @Override
  public int[] encodedShape(int[] shape) {
    int[] out = new int[shape.length];
    for (int i = 0; i < shape.length; i++) {
      out[i] = shape[order[i]];
    }
    return out;
  }

  @Override
  public ChunkData encode(ChunkData decoded) {
    return permute(decoded, decoded.shape(), order);
  }

  @Override
  public ChunkData decode(ChunkData encoded, int[] decodedShape) {
    return permute(encoded, encodedShape(decodedShape), Transpose.inverse(order));
  }

  private static ChunkData permute(ChunkData src, int[] shape, int[] axes) {
    int[] out = new int[shape.length];
    for (int i = 0; i < shape.length; i++) {
      out[i] = shape[axes[i]];
    }
    if (src.holdsObjects()) {
      return ChunkData.ofObjects(src.type(), out, Transpose.permute(src.objects(), shape, axes));
    }
    return ChunkData.ofBytes(src.type(), out,
        Transpose.permute(src.bytes(), shape, axes, src.type().size()));
  }
}
