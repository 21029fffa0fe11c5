package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.BitSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Rows of marks set, word by word, exactly the slots of their kept elements, wherever they start and end. */
class TouchedSlotsTest {
  @Test
  void rowsOfMarksSetTheSlotsOfTheKeptElements() {
    Random random = new Random(17);
    TouchedSlots touched = new TouchedSlots();
    BitSet expected = new BitSet();
    for (int row = 0; row < 300; row++) {
      int n = random.nextInt(200);
      int at = random.nextInt(50);
      int slot = random.nextInt(1000);
      byte[] keep = SumAccumulatorTest.marks(random, at + n);
      if (row % 7 == 0) {
        touched.set(slot);
        expected.set(slot);
      } else {
        touched.setKept(keep, at, n, slot);
        for (int j = 0; j < n; j++) {
          if (keep[at + j] != 0) {
            expected.set(slot + j);
          }
        }
      }
      if (row % 50 == 49) {
        for (int s = 0; s < 1300; s++) {
          assertEquals(expected.get(s), touched.get(s), "slot " + s + " after row " + row);
        }
      }
    }
  }
}
