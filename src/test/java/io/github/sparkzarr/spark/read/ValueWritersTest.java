package io.github.sparkzarr.spark.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkzarr.zarr.chunk.ChunkData;
import io.github.sparkzarr.zarr.dtype.DataType;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;

/** Variable-length elements (held as objects) map to strings and binary, nulls kept. */
class ValueWritersTest {
  @Test
  void stringsAndJsonTextBecomeUtf8() {
    ChunkData chunk = ChunkData.ofObjects(DataType.variableLength(DataType.Kind.STRING), new int[] {3},
        new Object[] {"héllo", null, ""});
    try (OnHeapColumnVector v = new OnHeapColumnVector(3, DataTypes.StringType)) {
      ValueWriters.of(chunk.type(), null).write(chunk, 0, v, 0, 3);
      assertEquals("héllo", v.getUTF8String(0).toString());
      assertTrue(v.isNullAt(1));
      assertEquals("", v.getUTF8String(2).toString());
    }
  }

  @Test
  void vlenBytesBecomeBinary() {
    byte[] b = "a\0b".getBytes(StandardCharsets.ISO_8859_1);
    ChunkData chunk = ChunkData.ofObjects(DataType.variableLength(DataType.Kind.VLEN_BYTES), new int[] {2},
        new Object[] {b, null});
    try (OnHeapColumnVector v = new OnHeapColumnVector(2, DataTypes.BinaryType)) {
      ValueWriters.of(chunk.type(), null).write(chunk, 0, v, 0, 2);
      assertEquals(3, v.getBinary(0).length);
      assertTrue(v.isNullAt(1));
    }
  }
}
