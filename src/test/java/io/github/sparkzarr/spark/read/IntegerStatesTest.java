package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The SIMD states of integer comparisons are the scalar ones (which follow {@link
 * ValueFilter.Comparison#outcome}), for every comparison, with and without a masked value, for
 * literals inside and outside the int range, over lengths that leave a tail.
 */
class IntegerStatesTest {
  @Test
  void simdStatesAreTheScalarOnes() {
    Random random = new Random(11);
    IntegerStates best = IntegerStates.best();
    long[] literals = {0, -1, 7, 120, Integer.MAX_VALUE, Integer.MIN_VALUE, 1L << 40};
    for (int m : new int[] {1, 8, 13, 4096}) {
      long[] x = new long[m];
      for (int i = 0; i < m; i++) {
        int pick = random.nextInt(10);
        x[i] = pick == 0 ? Integer.MAX_VALUE : pick == 1 ? Integer.MIN_VALUE : pick == 2 ? 7 : random.nextInt(256) - 128;
      }
      for (int outcomes = 1; outcomes < 7; outcomes++) {
        for (long literal : literals) {
          for (int skip = 0; skip < 3; skip++) {
            boolean skips = skip > 0;
            byte atSkip = skip == 1 ? ValueFilter.UNKNOWN : ValueFilter.FALSE;
            byte[] expected = new byte[m];
            for (int i = 0; i < m; i++) {
              byte state = new ValueFilter.Comparison(0, outcomes, false, false, false, false, literal)
                  .outcome(Long.compare(x[i], literal));
              expected[i] = skips && x[i] == 7 ? atSkip : state;
            }
            byte[] scalar = new byte[m];
            byte[] simd = new byte[m];
            new IntegerStates.Scalar().states(x, m, literal, outcomes, skips, 7, atSkip, scalar);
            best.states(x, m, literal, outcomes, skips, 7, atSkip, simd);
            String what = best.getClass().getSimpleName() + " m=" + m + " op=" + outcomes + " literal=" + literal;
            assertArrayEquals(expected, scalar, what);
            assertArrayEquals(expected, simd, what);
          }
        }
      }
    }
    assertEquals("VectorIntegerStates", best.getClass().getSimpleName(), "the tests run with the Vector API");
  }
}
