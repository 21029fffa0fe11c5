package io.github.sparkzarr.zarr.codec.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The one-pass decodings of FixedScaleOffset and Delta against numpy's steps one by one (which
 * FilterVectorsTest checks against numcodecs), bit for bit, on every stored integer pattern.
 */
class OnePassDecodingTest {
  private static final String[] INTEGERS = {"|i1", "|u1", "<i2", ">u2", "<u2", "<i4", "<u4", ">i4", "<i8", "<u8"};
  private static final String[] FLOATS = {"<f4", ">f4", "<f8", ">f8"};

  @Test
  void fixedScaleOffsetUnpacksAsNumpysSteps() throws Exception {
    PyNumber[] scales = {
      new PyNumber(true, 100, 100), PyNumber.ofFloat(0.01), PyNumber.ofFloat(3.0),
      new PyNumber(true, -7, -7), PyNumber.ofFloat(1e-300), PyNumber.ofFloat(1.0 / 3)
    };
    PyNumber[] offsets = {
      new PyNumber(true, 250, 250), PyNumber.ofFloat(-1.5), PyNumber.ofFloat(273.15),
      new PyNumber(true, 0, 0), PyNumber.ofFloat(1e300), new PyNumber(true, Long.MAX_VALUE, Long.MAX_VALUE)
    };
    for (String stored : INTEGERS) {
      NumericArray enc = randomElements(NumpyDtype.parse(stored));
      for (String decoded : FLOATS) {
        for (PyNumber scale : scales) {
          for (PyNumber offset : offsets) {
            FixedScaleOffset f =
                new FixedScaleOffset(offset, scale, NumpyDtype.parse(decoded), NumpyDtype.parse(stored));
            String what = stored + " -> " + decoded + ", scale " + scale + ", offset " + offset;
            assertArrayEquals(f.decodeStepByStep(enc).bytes(), f.unpack(enc).bytes(), what);
            assertArrayEquals(f.decodeStepByStep(enc).bytes(), f.decodeValues(enc).bytes(), what);
          }
        }
      }
    }
  }

  @Test
  void deltaSumsIntegersAsNumpysCumsum() throws Exception {
    List<String> skipped = new ArrayList<>();
    for (String stored : INTEGERS) {
      NumericArray enc = randomElements(NumpyDtype.parse(stored));
      for (String decoded : INTEGERS) {
        Delta d = new Delta(NumpyDtype.parse(decoded), NumpyDtype.parse(stored));
        String what = stored + " -> " + decoded;
        assertArrayEquals(d.cumsumStepByStep(enc).bytes(), d.decodeValues(enc).bytes(), what);
        if (NumpyPromotion.promote(NumpyDtype.parse(stored), NumpyDtype.parse(decoded)).kind()
            == DataType.Kind.FLOAT) {
          skipped.add(what); // uint64 with a signed type accumulates in float64
        } else {
          assertArrayEquals(d.cumsumStepByStep(enc).bytes(), d.integerCumsum(enc).bytes(), what);
        }
      }
    }
    // the signed types |i1 <i2 <i4 >i4 <i8, each way with <u8
    assertEquals(10, skipped.size(), skipped::toString);
  }

  /** Extremes of the type and random bit patterns, so sums wrap and unpacking overflows. */
  private static NumericArray randomElements(DataType type) {
    Random random = new Random(type.hashCode());
    byte[] bytes = new byte[type.size() * 4096];
    random.nextBytes(bytes);
    NumericArray a = NumericArray.wrap(type, bytes);
    long[] edges = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 127, -128, 255, 32767, -32768};
    for (int i = 0; i < edges.length; i++) {
      a.setLong(i, edges[i]);
    }
    return a;
  }
}
