package io.github.sparkzarr.zarr.codec.filter;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.codec.ArrayFilter;
import io.github.sparkzarr.zarr.codec.CodecConfig;
import io.github.sparkzarr.zarr.codec.CodecException;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteOrder;

/**
 * numcodecs PackBits: one byte holding the number of padding bits, then the booleans packed eight
 * to a byte, first element in the most significant bit (np.packbits).
 */
public final class PackBits implements ArrayFilter {
  public static final String ID = "packbits";
  private static final DataType UINT8 = DataType.numeric(DataType.Kind.UINT, 1, ByteOrder.LITTLE_ENDIAN);

  @Override
  public String id() {
    return ID;
  }

  @Override
  public ObjectNode toConfig() {
    return CodecConfig.withId(ID);
  }

  @Override
  public DataType encodedType(DataType decodedType) throws CodecException {
    if (decodedType.size() != 1) {
      throw new CodecException("codec 'packbits' needs 1-byte (bool) elements, got " + decodedType);
    }
    return UINT8;
  }

  /** A padding-count byte, then one byte per eight booleans. */
  @Override
  public int encodedCount(int count, DataType decodedType) {
    return 1 + (count + 7) / 8;
  }

  @Override
  public ChunkData encode(ChunkData decoded) throws CodecException {
    encodedType(decoded.type());
    byte[] in = decoded.bytes();
    int n = in.length;
    byte[] out = new byte[encodedCount(n, decoded.type())];
    out[0] = (byte) ((8 - n % 8) % 8);
    for (int i = 0; i < n; i++) {
      if (in[i] != 0) { // numpy packs any nonzero bool byte as 1
        out[1 + i / 8] |= (byte) (0x80 >>> (i % 8));
      }
    }
    return ChunkData.ofBytes(UINT8, new int[] {out.length}, out);
  }

  @Override
  public ChunkData decode(ChunkData encoded, DataType decodedType, int count)
      throws CodecException {
    encodedType(decodedType);
    byte[] in = encoded.bytes();
    if (in.length == 0) {
      throw new CodecException("codec 'packbits': missing padding header byte");
    }
    int padding = in[0] & 0xff;
    long n = (long) (in.length - 1) * 8 - padding;
    if (padding > 7 || n < 0 || n != count) {
      throw new CodecException(
          "codec 'packbits': " + (in.length - 1) + " packed bytes with " + padding
              + " padding bits do not hold " + count + " elements");
    }
    byte[] out = new byte[count];
    for (int i = 0; i < count; i++) {
      out[i] = (byte) ((in[1 + i / 8] >>> (7 - i % 8)) & 1);
    }
    return ChunkData.ofBytes(decodedType, new int[] {count}, out);
  }
}
