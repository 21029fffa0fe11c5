package io.github.sparkzarr.zarr.codec;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class DecodeBuffersTest {

  @Test
  void aReleasedSetServesTheNextTaskWithItsBuffers() {
    DecodeBuffers first = DecodeBuffers.borrow();
    byte[] scratch = first.get(0, 1 << 20);
    first.release();
    DecodeBuffers next = DecodeBuffers.borrow();
    try {
      // idle sets are lent last in, first out; `first` stays strongly reachable, so not cleared
      assertSame(first, next, "the set just released is the first one lent again");
      assertSame(scratch, next.get(0, 1000), "its scratch array is kept, not allocated again");
    } finally {
      next.release();
    }
  }

  @Test
  void aSetReleasedTwiceIsLentToOneTaskOnly() {
    DecodeBuffers set = DecodeBuffers.borrow();
    set.release();
    set.release();
    DecodeBuffers a = DecodeBuffers.borrow();
    DecodeBuffers b = DecodeBuffers.borrow();
    try {
      assertNotSame(a, b, "two tasks at once never share scratch buffers");
    } finally {
      a.release();
      b.release();
    }
  }

  @Test
  void aSetNeverBorrowedIsNotPooled() {
    DecodeBuffers own = new DecodeBuffers();
    own.release();
    DecodeBuffers a = DecodeBuffers.borrow();
    DecodeBuffers b = DecodeBuffers.borrow();
    try {
      assertNotSame(own, a);
      assertNotSame(own, b);
    } finally {
      a.release();
      b.release();
    }
  }
}
