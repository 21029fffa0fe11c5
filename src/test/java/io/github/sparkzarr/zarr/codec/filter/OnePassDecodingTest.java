package io.github.sparkzarr.zarr.codec.filter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.dtype.DataType;
import io.github.sparkzarr.zarr.dtype.NumericArray;
import io.github.sparkzarr.zarr.dtype.NumpyDtype;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The one-pass decodings of FixedScaleOffset, Delta, numpy casts and Shuffle against numpy's
 * steps one by one (which FilterVectorsTest checks against numcodecs on small arrays), bit for
 * bit, on every stored integer pattern and on chunks large enough for the SIMD loops.
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

  @Test
  void fastCastsMatchTheElementLoop() throws Exception {
    String[] from = {"|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<f4", "<f8"};
    for (String f : from) {
      NumericArray src = randomElements(NumpyDtype.parse(f));
      for (String t : FLOATS) {
        DataType to = NumpyDtype.parse(t);
        if (to.size() == src.type().size() && src.isFloat()) {
          continue; // one float type to itself copies the bits (NumpyCast.cast), no conversion
        }
        NumericArray slow = NumericArray.allocate(to, src.length());
        NumpyCast.castElementByElement(src, slow);
        assertArrayEquals(slow.bytes(), NumpyCast.cast(src, to).bytes(), f + " -> " + t);
      }
    }
    // the fast loops ran where they apply: little-endian integers and float32 <-> float64
    assertTrue(FastCasts.unpacks(NumpyDtype.parse("<u4"), NumpyDtype.parse("<f4")));
    assertTrue(FastCasts.convertsFloats(NumpyDtype.parse("<f8"), NumpyDtype.parse("<f4")));
  }

  @Test
  void deltaOfFloatsSumsInTheirType() throws Exception {
    for (String t : FLOATS) {
      DataType type = NumpyDtype.parse(t);
      Delta d = new Delta(type, type);
      NumericArray finite = NumericArray.allocate(type, 5000);
      Random random = new Random(7);
      for (int i = 0; i < finite.length(); i++) {
        // mixed magnitudes, so that float32 rounding differs from float64's
        finite.setDouble(i, random.nextGaussian() * Math.pow(10, random.nextInt(12) - 4));
      }
      finite.setDouble(0, -0.0);
      finite.setDouble(17, 3e38);
      finite.setDouble(18, 3e38); // overflows float32 to infinity
      assertArrayEquals(d.cumsumStepByStep(finite).bytes(), d.decodeValues(finite).bytes(), t);
      NumericArray withNaN = NumericArray.wrap(type, finite.bytes().clone());
      withNaN.setDouble(100, Double.NaN);
      withNaN.setDouble(200, Double.NEGATIVE_INFINITY);
      assertArrayEquals(d.cumsumStepByStep(withNaN).bytes(), d.decodeValues(withNaN).bytes(), t);
    }
  }

  @Test
  void shuffleUndoesNumcodecsLayoutOnWholeChunks() throws Exception {
    for (int size : new int[] {2, 3, 4, 8}) {
      int count = 20_011;
      byte[] shuffled = new byte[size * count];
      new Random(size).nextBytes(shuffled);
      byte[] want = new byte[shuffled.length];
      for (int i = 0; i < count; i++) {
        for (int b = 0; b < size; b++) {
          want[i * size + b] = shuffled[b * count + i];
        }
      }
      DataType raw = NumpyDtype.parse("|V" + size);
      Shuffle f = new Shuffle(size);
      byte[] got = f.decode(ChunkData.ofRawBytes(shuffled), raw, count).bytes();
      assertArrayEquals(want, got, "elementsize " + size);
      assertArrayEquals(shuffled, f.encode(ChunkData.ofBytes(raw, new int[] {count}, want)).bytes());
    }
  }

  /**
   * Random bit patterns (NaNs with random payloads among the floats) and, for integers, the
   * extremes of the type, so sums wrap and unpacking overflows.
   */
  private static NumericArray randomElements(DataType type) {
    Random random = new Random(type.hashCode());
    byte[] bytes = new byte[type.size() * 4096];
    random.nextBytes(bytes);
    NumericArray a = NumericArray.wrap(type, bytes);
    if (a.isFloat()) {
      return a;
    }
    long[] edges = {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 127, -128, 255, 32767, -32768};
    for (int i = 0; i < edges.length; i++) {
      a.setLong(i, edges[i]);
    }
    return a;
  }
}
