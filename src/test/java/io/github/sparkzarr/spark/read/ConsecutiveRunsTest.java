package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** What a reader remembers of runs of cells with consecutive slots answers as a fresh look would. */
class ConsecutiveRunsTest {
  @Test
  void answersForEveryLengthAfterAShorterOrLongerOne() {
    int[] slotOf = {0, 1, 2, 10, 11, 12, 13};
    ConsecutiveRuns runs = new ConsecutiveRuns().over(slotOf, 1);
    assertTrue(runs.consecutive(0, 3));
    assertFalse(runs.consecutive(0, 4)); // longer than the run known
    assertTrue(runs.consecutive(0, 2));
    assertTrue(runs.consecutive(0, 3)); // after a break found at 3
    assertFalse(runs.consecutive(0, 7));
    assertTrue(runs.consecutive(3, 4));
    assertTrue(runs.consecutive(0, 1));
  }

  @Test
  void cellsAStrideApart() {
    // cells 0, 2, 4, 6 have slots 5, 6, 7, 9
    int[] slotOf = {5, 0, 6, 0, 7, 0, 9};
    ConsecutiveRuns runs = new ConsecutiveRuns().over(slotOf, 2);
    assertTrue(runs.consecutive(0, 3));
    assertFalse(runs.consecutive(0, 4));
    assertFalse(new ConsecutiveRuns().over(slotOf, 1).consecutive(0, 2));
  }

  @Test
  void otherSlotsOrStridesAreLookedAtAfresh() {
    ConsecutiveRuns runs = new ConsecutiveRuns();
    assertTrue(runs.over(new int[] {0, 1, 2, 3}, 1).consecutive(0, 4));
    assertFalse(runs.over(new int[] {0, 1, 3, 4}, 1).consecutive(0, 4));
    int[] same = {4, 5, 6, 7};
    assertTrue(runs.over(same, 1).consecutive(0, 4));
    assertFalse(runs.over(same, 2).consecutive(0, 2));
    assertTrue(runs.over(same, 1).consecutive(0, 4));
  }
}
