package io.github.sparkzarr.zarr.dtype;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Words reversed a word at a time give what reversing each word byte by byte gives. */
class ByteSwapperTest {
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 4, 8, 16})
  void reversesEveryWordAndNothingElse(int width) {
    Random random = new Random(width);
    byte[] data = new byte[5 + 37 * width + 3];
    random.nextBytes(data);
    byte[] expected = data.clone();
    int offset = 5;
    int words = 37;
    for (int w = 0; w < words; w++) {
      for (int b = 0; b < width; b++) {
        expected[offset + w * width + b] = data[offset + w * width + width - 1 - b];
      }
    }
    ByteSwapper.reverseWords(data, offset, words, width);
    assertArrayEquals(expected, data);
  }
}
