package io.github.sparkzarr.zarr.corpus;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Deterministic sample arrays of any type, valid for numpy (bools 0/1, text code points). */
final class SampleData {
  private SampleData() {}

  static ChunkData of(DataType type, int[] shape, long seed) {
    Random r = new Random(seed);
    int n = (int) ChunkData.count(shape);
    if (type.isVariableLength()) {
      Object[] out = new Object[n];
      for (int i = 0; i < n; i++) {
        String text = word(r) + (i % 3 == 0 ? "é€" : "");
        out[i] = switch (type.kind()) {
          case STRING -> text;
          case VLEN_BYTES -> text.getBytes(StandardCharsets.UTF_8);
          default -> "{\"k\": [" + i + ", \"" + text + "\"]}";
        };
      }
      return ChunkData.ofObjects(type, shape, out);
    }
    byte[] data = new byte[n * type.size()];
    for (int i = 0; i < n; i++) {
      fill(type, data, i * type.size(), r, i);
    }
    return ChunkData.ofBytes(type.littleEndian(), shape, data);
  }

  private static String word(Random r) {
    int len = r.nextInt(6);
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < len; i++) {
      s.append((char) ('a' + r.nextInt(26)));
    }
    return s.toString();
  }

  private static void fill(DataType type, byte[] data, int at, Random r, int index) {
    ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    switch (type.kind()) {
      case BOOL -> data[at] = (byte) r.nextInt(2);
      case FLOAT -> putFloat(b, at, type.size(), sampleDouble(r, index));
      case COMPLEX -> {
        putFloat(b, at, type.size() / 2, sampleDouble(r, index));
        putFloat(b, at + type.size() / 2, type.size() / 2, sampleDouble(r, index + 1));
      }
      case UNICODE -> {
        int chars = r.nextInt(type.size() / 4 + 1);
        for (int c = 0; c < chars; c++) {
          b.putInt(at + 4 * c, c == 0 && index % 4 == 0 ? 0x20ac : 'a' + r.nextInt(26));
        }
      }
      case DATETIME, TIMEDELTA -> b.putLong(at, index == 3 ? Long.MIN_VALUE : r.nextInt() * 1000L);
      case STRUCT -> {
        for (DataType.Field f : type.fields()) {
          for (int k = 0; k < f.count(); k++) {
            fill(f.type(), data, at + f.offset() + k * f.type().size(), r, index + k);
          }
        }
      }
      default -> {
        for (int k = 0; k < type.size(); k++) {
          data[at + k] = (byte) r.nextInt(256);
        }
      }
    }
  }

  private static double sampleDouble(Random r, int index) {
    return switch (index % 11) {
      case 1 -> Double.NaN;
      case 2 -> Double.NEGATIVE_INFINITY;
      case 3 -> -0.0;
      default -> Math.round(r.nextGaussian() * 1000) / 8.0;
    };
  }

  private static void putFloat(ByteBuffer b, int at, int size, double v) {
    switch (size) {
      case 2 -> b.putShort(at, io.github.sparkzarr.zarr.dtype.HalfFloat.fromDouble(v));
      case 4 -> b.putFloat(at, (float) v);
      default -> b.putDouble(at, v);
    }
  }
}
