package io.github.sparkzarr.spark.read;

import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.DataType.Field;
import io.github.sparkzarr.zarr.dtype.HalfFloat;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.types.Decimal;

/**
 * Writes fixed-size little-endian elements from a byte buffer into a column vector, following
 * {@link io.github.sparkzarr.spark.schema.SparkTypes}. Numeric types are bulk-copied; the others
 * are converted one element at a time, without boxing.
 */
abstract class FixedWriter {
  private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
  private static final long NAT = Long.MIN_VALUE;

  /** Writes {@code count} consecutive elements starting at {@code offset} (bytes) to rows from {@code row}. */
  abstract void write(byte[] src, int offset, WritableColumnVector out, int row, int count);

  static FixedWriter of(DataType t) {
    int size = t.size();
    return switch (t.kind()) {
      case BOOL -> new FixedWriter() {
        void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
          for (int i = 0; i < n; i++) {
            v.putBoolean(r + i, s[o + i] != 0);
          }
        }
      };
      case INT -> switch (size) {
        case 1 -> new FixedWriter() {
          void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
            v.putBytes(r, n, s, o);
          }
        };
        case 2 -> new FixedWriter() {
          void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
            if (LITTLE_ENDIAN) {
              v.putShorts(r, n, s, o);
            } else {
              for (int i = 0; i < n; i++) {
                v.putShort(r + i, shortAt(s, o + 2 * i));
              }
            }
          }
        };
        case 4 -> new FixedWriter() {
          void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
            v.putIntsLittleEndian(r, n, s, o);
          }
        };
        default -> new FixedWriter() {
          void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
            v.putLongsLittleEndian(r, n, s, o);
          }
        };
      };
      case UINT -> switch (size) {
        case 1 -> new FixedWriter() {
          void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
            for (int i = 0; i < n; i++) {
              v.putShort(r + i, (short) (s[o + i] & 0xff));
            }
          }
        };
        case 2 -> new FixedWriter() {
          void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
            for (int i = 0; i < n; i++) {
              v.putInt(r + i, shortAt(s, o + 2 * i) & 0xffff);
            }
          }
        };
        case 4 -> new FixedWriter() {
          void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
            for (int i = 0; i < n; i++) {
              v.putLong(r + i, intAt(s, o + 4 * i) & 0xffffffffL);
            }
          }
        };
        default -> new FixedWriter() {
          void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
            for (int i = 0; i < n; i++) {
              BigInteger u = new BigInteger(Long.toUnsignedString(longAt(s, o + 8 * i)));
              v.putDecimal(r + i, Decimal.apply(new BigDecimal(u), 20, 0), 20);
            }
          }
        };
      };
      case FLOAT -> switch (size) {
        case 2 -> new FixedWriter() {
          void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
            for (int i = 0; i < n; i++) {
              v.putFloat(r + i, HalfFloat.toFloat(shortAt(s, o + 2 * i)));
            }
          }
        };
        case 4 -> new FixedWriter() {
          void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
            v.putFloatsLittleEndian(r, n, s, o);
          }
        };
        default -> new FixedWriter() {
          void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
            v.putDoublesLittleEndian(r, n, s, o);
          }
        };
      };
      case COMPLEX -> complex(size);
      case DATETIME -> times(t, true);
      case TIMEDELTA -> times(t, false);
      case BYTES -> binary(size, true);
      case RAW -> binary(size, false);
      case UNICODE -> unicode(size);
      case STRUCT -> struct(t);
      default -> throw new IllegalArgumentException(t + " is not a fixed-size type");
    };
  }

  private static FixedWriter complex(int size) {
    FixedWriter part = of(DataType.numeric(DataType.Kind.FLOAT, size / 2, ByteOrder.LITTLE_ENDIAN));
    int half = size / 2;
    return new FixedWriter() {
      void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
        for (int i = 0; i < n; i++) {
          part.write(s, o + i * size, v.getChild(0), r + i, 1);
          part.write(s, o + i * size + half, v.getChild(1), r + i, 1);
        }
      }
    };
  }

  private static FixedWriter times(DataType t, boolean datetime) {
    String unit = t.unit();
    long count = t.unitCount();
    boolean calendar = unit.equals("Y") || unit.equals("M");
    if (calendar && !datetime) {
      throw new IllegalArgumentException(t + ": timedeltas in years or months have no fixed length");
    }
    long[] perUnit = calendar ? null : microsPerUnit(unit);
    return new FixedWriter() {
      void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
        for (int i = 0; i < n; i++) {
          long raw = longAt(s, o + 8 * i);
          if (raw == NAT) {
            v.putNull(r + i);
          } else {
            long value = Math.multiplyExact(raw, count);
            v.putLong(r + i, calendar ? calendarMicros(unit, value) : scale(value, perUnit));
          }
        }
      }
    };
  }

  /** {multiply, divide}: microseconds per unit as a fraction. */
  private static long[] microsPerUnit(String unit) {
    return switch (unit) {
      case "W" -> new long[] {7 * 86_400_000_000L, 1};
      case "D" -> new long[] {86_400_000_000L, 1};
      case "h" -> new long[] {3_600_000_000L, 1};
      case "m" -> new long[] {60_000_000L, 1};
      case "s", "generic" -> new long[] {1_000_000L, 1};
      case "ms" -> new long[] {1_000L, 1};
      case "us" -> new long[] {1, 1};
      case "ns" -> new long[] {1, 1_000L};
      case "ps" -> new long[] {1, 1_000_000L};
      case "fs" -> new long[] {1, 1_000_000_000L};
      case "as" -> new long[] {1, 1_000_000_000_000L};
      default -> throw new IllegalArgumentException("unknown time unit " + unit);
    };
  }

  /** Sub-microsecond units round towards negative infinity, as numpy's astype does. */
  private static long scale(long value, long[] perUnit) {
    return perUnit[1] == 1 ? Math.multiplyExact(value, perUnit[0]) : Math.floorDiv(value, perUnit[1]);
  }

  private static long calendarMicros(String unit, long value) {
    LocalDate epoch = LocalDate.of(1970, 1, 1);
    LocalDate d = unit.equals("Y") ? epoch.plusYears(value) : epoch.plusMonths(value);
    return Math.multiplyExact(ChronoUnit.DAYS.between(epoch, d), 86_400_000_000L);
  }

  private static FixedWriter binary(int size, boolean stripNuls) {
    return new FixedWriter() {
      void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
        for (int i = 0; i < n; i++) {
          int start = o + i * size;
          int len = size;
          while (stripNuls && len > 0 && s[start + len - 1] == 0) {
            len--;
          }
          v.putByteArray(r + i, s, start, len);
        }
      }
    };
  }

  private static FixedWriter unicode(int size) {
    int chars = size / 4;
    return new FixedWriter() {
      void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
        for (int i = 0; i < n; i++) {
          int start = o + i * size;
          int len = chars;
          while (len > 0 && intAt(s, start + 4 * (len - 1)) == 0) {
            len--;
          }
          StringBuilder b = new StringBuilder(len);
          for (int c = 0; c < len; c++) {
            b.appendCodePoint(intAt(s, start + 4 * c));
          }
          v.putByteArray(r + i, b.toString().getBytes(StandardCharsets.UTF_8));
        }
      }
    };
  }

  /** Fields write into the struct's children; subarray fields into nested array vectors. */
  private static FixedWriter struct(DataType t) {
    int fieldCount = t.fields().size();
    FixedWriter[] writers = new FixedWriter[fieldCount];
    for (int f = 0; f < fieldCount; f++) {
      Field field = t.fields().get(f);
      writers[f] = subarray(of(field.type()), field.type().size(), field.shape(), 0);
    }
    int size = t.size();
    return new FixedWriter() {
      void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
        for (int i = 0; i < n; i++) {
          for (int f = 0; f < fieldCount; f++) {
            writers[f].write(s, o + i * size + t.fields().get(f).offset(),
                (WritableColumnVector) v.getChild(f), r + i, 1);
          }
        }
      }
    };
  }

  /** The writer of one field value of shape {@code shape[axis:]}: arrays nest per dimension. */
  private static FixedWriter subarray(FixedWriter element, int elementSize, int[] shape, int axis) {
    if (axis == shape.length) {
      return element;
    }
    int length = shape[axis];
    int inner = elementSize;
    for (int a = axis + 1; a < shape.length; a++) {
      inner *= shape[a];
    }
    int step = inner;
    FixedWriter child = subarray(element, elementSize, shape, axis + 1);
    return new FixedWriter() {
      void write(byte[] s, int o, WritableColumnVector v, int r, int n) {
        WritableColumnVector data = v.arrayData();
        for (int i = 0; i < n; i++) {
          int at = data.getElementsAppended();
          data.reserve(at + length);
          for (int k = 0; k < length; k++) {
            child.write(s, o + (i * length + k) * step, data, at + k, 1);
          }
          data.addElementsAppended(length);
          v.putArray(r + i, at, length);
        }
      }
    };
  }

  static short shortAt(byte[] s, int o) {
    return (short) ((s[o] & 0xff) | (s[o + 1] << 8));
  }

  static int intAt(byte[] s, int o) {
    return (s[o] & 0xff) | (s[o + 1] & 0xff) << 8 | (s[o + 2] & 0xff) << 16 | (s[o + 3] & 0xff) << 24;
  }

  static long longAt(byte[] s, int o) {
    return (s[o] & 0xffL) | (s[o + 1] & 0xffL) << 8 | (s[o + 2] & 0xffL) << 16
        | (s[o + 3] & 0xffL) << 24 | (s[o + 4] & 0xffL) << 32 | (s[o + 5] & 0xffL) << 40
        | (s[o + 6] & 0xffL) << 48 | (s[o + 7] & 0xffL) << 56;
  }
}
