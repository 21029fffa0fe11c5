package io.github.sparkzarr.spark;

import io.github.sparkzarr.spark.schema.DatasetView;
import io.github.sparkzarr.zarr.metadata.ArrayMetadata;
import io.github.sparkzarr.zarr.metadata.ArrayDocuments;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A dataset view as table properties (DESCRIBE TABLE EXTENDED): the dimensions, shape and chunks,
 * and per variable its dtype, codecs, fill value and attributes. Names match the write options.
 */
final class TableProperties {
  private TableProperties() {}

  static Map<String, String> of(DatasetView view) {
    Map<String, String> out = new LinkedHashMap<>();
    List<String> dims = new ArrayList<>();
    long[] shape = new long[view.rank()];
    for (int i = 0; i < view.rank(); i++) {
      dims.add(view.dims().get(i).name());
      shape[i] = view.dims().get(i).length();
    }
    out.put("dimensions", String.join(",", dims));
    out.put("shape", join(shape));
    out.put("chunks", join(Arrays.stream(view.planChunks()).asLongStream().toArray()));
    for (DatasetView.Variable v : view.variables()) {
      ArrayMetadata md = v.array().metadata();
      String p = "variable." + v.column() + ".";
      out.put("zarr_format", String.valueOf(md.zarrFormat()));
      var doc = ArrayDocuments.metadata(md);
      out.put(p + "chunks", join(Arrays.stream(md.chunkShape()).asLongStream().toArray()));
      if (md.zarrFormat() == 3) {
        out.put(p + "data_type", doc.get("data_type").toString());
        out.put(p + "codecs", doc.get("codecs").toString());
      } else {
        out.put(p + "dtype", String.valueOf(doc.get("dtype")));
        out.put(p + "compressor", String.valueOf(doc.get(md.zarrFormat() == 2 ? "compressor" : "compression")));
        if (doc.has("filters")) {
          out.put(p + "filters", String.valueOf(doc.get("filters")));
        }
      }
      out.put(p + "fill_value", String.valueOf(md.fillValue().json()));
      if (md.attributes().size() > 0) {
        out.put(p + "attributes", md.attributes().toString());
      }
    }
    return out;
  }

  private static String join(long[] values) {
    StringBuilder b = new StringBuilder();
    for (long v : values) {
      b.append(b.length() == 0 ? "" : ",").append(v);
    }
    return b.toString();
  }
}
