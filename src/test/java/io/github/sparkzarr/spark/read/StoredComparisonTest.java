package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.spark.schema.CfDecoding;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A comparison of packed integers' unpacked values, marked on the stored integers, keeps exactly
 * what the element loop keeps, in both the direct marks and the three-valued states: for every
 * operator, positive and negative scales, float32 and float64 unpacking, FLOAT and DOUBLE columns
 * and casts to float, literals that are unpacked values, between them, beyond them, infinite or
 * NaN, with the masked value never kept.
 */
class StoredComparisonTest {
  private static final int OFFSET = 3;
  private static final int N = 203;

  @ParameterizedTest
  @CsvSource({"INT,1", "UINT,1", "INT,2", "UINT,2", "INT,4", "UINT,4"})
  void marksWhatTheElementLoopKeeps(String kind, int size) {
    DataType t = DataType.numeric(DataType.Kind.valueOf(kind), size, ByteOrder.LITTLE_ENDIAN);
    long skip = StoredIntegersTest.skippedValue(t);
    byte[] bytes = StoredIntegersTest.randomElements(t, skip, OFFSET, N);
    int translated = 0;
    for (CfDecoding cf : decodings(skip)) {
      NumericChunk chunk = new NumericChunk(bytes, OFFSET, 0, 0, t, cf);
      for (boolean single : new boolean[] {true, false}) {
        ChunkFilterValues values = new ChunkFilterValues(chunk, single ? DataTypes.FloatType : DataTypes.DoubleType,
            new StoredIntegers());
        FilterValues[] source = {values};
        for (double literal : literals(chunk)) {
          for (int outcomes = 0; outcomes < 8; outcomes++) {
            for (boolean toFloat : new boolean[] {false, true}) {
              ValueFilter.Comparison c = new ValueFilter.Comparison(0, outcomes, false, true, true, toFloat && !single,
                  literal);
              String what = t + " scale " + cf.scale() + " offset " + cf.offset() + " float " + cf.singlePrecision()
                  + " column " + (single ? "FLOAT" : "DOUBLE") + " " + c.toFloat + " outcomes " + outcomes + " literal "
                  + literal;
              byte[] expected = FloatSelectTest.viaStates(c, source, N);
              if (StoredComparison.of(c, chunk, single) != null) {
                translated++;
                assertTrue(values.selects(c), what);
              }
              if (values.selects(c)) {
                byte[] keep = new byte[N];
                assertEquals(FloatSelectTest.count(expected), values.select(c, N, keep), what);
                assertArrayEquals(expected, keep, what);
              }
              byte[] states = new byte[N];
              values.compare(c, 0, N, states);
              for (int i = 0; i < N; i++) {
                byte state = chunk.isMissing(i) ? c.ifNull() : c.test(values, i);
                assertEquals(state, states[i], what + " element " + i);
              }
            }
          }
        }
      }
    }
    assertTrue(translated > 1000, "translated " + translated);
  }

  /** Many stored values unpack to the same float: equality there has no stored comparison, order has. */
  @Test
  void equalityOverSeveralStoredValuesIsLeftToTheElementLoop() {
    DataType t = DataType.numeric(DataType.Kind.INT, 4, ByteOrder.LITTLE_ENDIAN);
    NumericChunk chunk = new NumericChunk(new byte[4], 0, 0, 0, t,
        new CfDecoding(new double[0], false, 1e-9, 300, true, true, null));
    assertNull(StoredComparison.of(comparison(2, 300), chunk, true));
    assertNull(StoredComparison.of(comparison(5, 300), chunk, true));
    StoredComparison above = StoredComparison.of(comparison(4, 300), chunk, true);
    assertNotNull(above);
    assertEquals(6, above.outcomes());
    assertEquals(300f, (float) chunk.unpack(above.literal() - 1));
    assertTrue((float) chunk.unpack(above.literal()) > 300f);
  }

  /** A literal below every unpacked value keeps all of {@code >} and none of {@code <}. */
  @Test
  void literalsBeyondTheValuesKeepAllOrNone() {
    DataType t = DataType.numeric(DataType.Kind.INT, 2, ByteOrder.LITTLE_ENDIAN);
    NumericChunk chunk = new NumericChunk(new byte[2], 0, 0, 0, t,
        new CfDecoding(new double[] {-3}, false, 0.01, 273.15, true, true, null));
    assertEquals(7, StoredComparison.of(comparison(4, -1e6), chunk, true).outcomes());
    assertEquals(0, StoredComparison.of(comparison(1, -1e6), chunk, true).outcomes());
    assertEquals(7, StoredComparison.of(comparison(1, Double.NaN), chunk, true).outcomes());
  }

  private static ValueFilter.Comparison comparison(int outcomes, double literal) {
    return new ValueFilter.Comparison(0, outcomes, false, true, true, false, literal);
  }

  /**
   * Packed with {@code skip} masked in float32 and in float64 arithmetic, a negative scale in each,
   * one with an offset too large for the scale's steps to show in float32, and none masked.
   */
  private static CfDecoding[] decodings(long skip) {
    return new CfDecoding[] {
        new CfDecoding(new double[] {skip}, false, 0.01, 273.15, true, true, null),
        new CfDecoding(new double[] {skip}, false, -0.25, 3, true, true, null),
        new CfDecoding(new double[] {skip}, false, 0.1, -7.5, true, false, null),
        new CfDecoding(new double[0], false, -1.5e-3, 1e4, true, false, null),
        new CfDecoding(new double[0], false, 1e-5, 1e4, true, true, null)};
  }

  /** Unpacked values of some elements, as float and double, their neighbours, and extremes. */
  private static List<Double> literals(NumericChunk chunk) {
    List<Double> out = new ArrayList<>(List.of(0.0, -0.0, 1e30, -1e30, Double.POSITIVE_INFINITY,
        Double.NEGATIVE_INFINITY, Double.NaN));
    Random random = new Random(7);
    for (int k = 0; k < 6; k++) {
      double v = chunk.floatingAt(random.nextInt(N));
      out.add(v);
      out.add((double) (float) v);
      out.add(Math.nextUp(v));
      out.add(Math.nextDown(v));
    }
    return out;
  }
}
