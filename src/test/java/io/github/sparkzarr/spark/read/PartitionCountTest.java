package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** How many chunks (or tiles) a scan's partitions hold: the split size, or less to fill the cores' last wave. */
class PartitionCountTest {
  @Test
  void aLastWaveThatLeavesCoresIdleIsSpreadOverMorePartitions() {
    // A 300 MB store of 480 chunks, 200 per 128 MB: 3 partitions, two waves of 200 on two cores.
    assertEquals(120, ZarrScan.unitsPerPartition(480, 200, 2), "four partitions: two waves of 120");
    assertEquals(256, ZarrScan.unitsPerPartition(1024, 384, 2), "1 GiB in 384 MiB splits: four of 256");
    assertEquals(7, ZarrScan.unitsPerPartition(50, 12, 4), "5 partitions on 4 cores: two waves of 7");
  }

  @Test
  void fullWavesSmallGainsAndFewerPartitionsThanCoresAreLeftAlone() {
    assertEquals(128, ZarrScan.unitsPerPartition(1024, 128, 2), "8 partitions: full waves");
    assertEquals(21, ZarrScan.unitsPerPartition(183, 21, 2), "9 partitions: 10 of 19 would save a tenth");
    assertEquals(128, ZarrScan.unitsPerPartition(600, 128, 2), "5 partitions: 6 of 100 would save a fifth");
    assertEquals(2, ZarrScan.unitsPerPartition(50, 2, 2));
    assertEquals(100, ZarrScan.unitsPerPartition(10, 100, 2), "one partition");
    assertEquals(10, ZarrScan.unitsPerPartition(30, 10, 100), "the split size was set by its floor");
  }

  @Test
  void partitionsNeverGrowNorTakeMoreWaves() {
    for (long units = 1; units <= 300; units++) {
      for (long per = 1; per <= 40; per++) {
        for (long cores = 1; cores <= 5; cores++) {
          long size = ZarrScan.unitsPerPartition(units, per, cores);
          String at = units + "/" + per + "/" + cores + ": " + size;
          assertTrue(size >= 1 && size <= per, at);
          long wavesBefore = ((units + per - 1) / per + cores - 1) / cores;
          long wavesAfter = ((units + size - 1) / size + cores - 1) / cores;
          assertEquals(wavesBefore, wavesAfter, at);
          assertTrue(size == per || size * 4 <= per * 3, at);
        }
      }
    }
  }
}
