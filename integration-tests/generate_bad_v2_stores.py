#!/usr/bin/python3
"""Writes small broken Zarr v2 stores and bad-manifest.json (see integration-tests/README.md).

Usage: /usr/bin/python3 integration-tests/generate_bad_v2_stores.py [OUTDIR]
(default OUTDIR: src/test/resources/corpus/v2-bad)

Every store is first written as a valid one-array store with zarr-python (array path "a"), then
broken with plain file edits. For each case the manifest also records what zarr-python 2.13 itself
does with the broken store ("zarr_python_error", null if zarr-python does not notice).
"""

import json
import os
import shutil
import sys
import zlib

import numpy as np
import numcodecs
import zarr
from numcodecs import CRC32, Blosc, Zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_common import MANIFEST_VERSION, dump_json  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "src", "test", "resources", "corpus", "v2-bad")
DATA = (np.arange(20, dtype="<i4") * 3 - 7)


def make_valid(out, name, consolidated=False, **kw):
    store_dir = os.path.join(out, name)
    root = zarr.group(store=zarr.DirectoryStore(store_dir), overwrite=True)
    kw.setdefault("shape", DATA.shape)
    kw.setdefault("chunks", (8,))
    kw.setdefault("dtype", DATA.dtype)
    kw.setdefault("compressor", Zlib(5))
    data = kw.pop("data", DATA)
    z = root.create_dataset("a", **kw)
    z[...] = data
    if consolidated:
        zarr.consolidate_metadata(store_dir)
    return store_dir


def edit_meta(store_dir, fn):
    p = os.path.join(store_dir, "a", ".zarray")
    with open(p, encoding="utf-8") as f:
        meta = json.load(f)
    fn(meta)
    with open(p, "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=4, sort_keys=True)


def set_key(k, v):
    def fn(meta):
        meta[k] = v
    return fn


def del_key(k):
    def fn(meta):
        del meta[k]
    return fn


def write_raw(store_dir, key, data):
    with open(os.path.join(store_dir, key), "wb") as f:
        f.write(data)


def read_raw(store_dir, key):
    with open(os.path.join(store_dir, key), "rb") as f:
        return f.read()


def zarr_python_outcome(store_dir, consolidated):
    """What zarr-python 2.13 does: the error it raises opening/reading, or None."""
    try:
        if consolidated:
            g = zarr.open_consolidated(store_dir, mode="r")
            z = g["a"]
        else:
            z = zarr.open_array(store_dir, path="a", mode="r")
        z[...]
        return None
    except Exception as e:  # noqa: BLE001
        msg = str(e).splitlines()[0] if str(e) else ""
        return ("%s: %s" % (type(e).__name__, msg))[:200]


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT)
    if os.path.isdir(out):
        for n in os.listdir(out):
            if n.endswith(".zarr") or n == "bad-manifest.json":
                p = os.path.join(out, n)
                shutil.rmtree(p) if os.path.isdir(p) else os.remove(p)
    os.makedirs(out, exist_ok=True)
    cases = []

    def case(name, bad_key, contains, stage, note, consolidated=False):
        store_dir = os.path.join(out, name + ".zarr")
        cases.append({
            "name": name, "store": name + ".zarr", "path": "a", "bad_key": bad_key,
            "error_contains": contains, "stage": stage, "consolidated": consolidated,
            "zarr_python_error": zarr_python_outcome(store_dir, consolidated), "note": note,
        })

    # ---- metadata problems (stage "open") ----
    s = make_valid(out, "malformed_json.zarr")
    write_raw(s, "a/.zarray", read_raw(s, "a/.zarray")[:-20])
    case("malformed_json", "a/.zarray", "json", "open", ".zarray cut short: not valid JSON")

    for field, contains in (("shape", "shape"), ("chunks", "chunks"), ("dtype", "dtype"),
                            ("compressor", "compressor"), ("fill_value", "fill_value"),
                            ("order", "order"), ("zarr_format", "zarr_format"),
                            ("filters", "filters")):
        s = make_valid(out, "missing_%s.zarr" % field)
        edit_meta(s, del_key(field))
        case("missing_" + field, "a/.zarray", contains, "open",
             "required field %r removed from .zarray" % field)

    s = make_valid(out, "unknown_codec.zarr")
    edit_meta(s, set_key("compressor", {"id": "nosuchcodec", "level": 1}))
    case("unknown_codec", "a/.zarray", "unknown codec", "open",
         "compressor id 'nosuchcodec'")
    s = make_valid(out, "unknown_filter.zarr")
    edit_meta(s, set_key("filters", [{"id": "frobnicate"}]))
    case("unknown_filter", "a/.zarray", "unknown codec", "open", "filter id 'frobnicate'")
    s = make_valid(out, "unknown_dtype.zarr")
    edit_meta(s, set_key("dtype", "<q9"))
    case("unknown_dtype", "a/.zarray", "dtype", "open", "dtype '<q9'")
    s = make_valid(out, "unknown_struct_field_dtype.zarr")
    edit_meta(s, set_key("dtype", [["x", "<i4"], ["y", "<k4"]]))
    case("unknown_struct_field_dtype", "a/.zarray", "dtype", "open",
         "structured dtype with an unknown field type '<k4'")
    s = make_valid(out, "rank_mismatch.zarr")
    edit_meta(s, set_key("chunks", [8, 2]))
    case("rank_mismatch", "a/.zarray", "chunks", "open", "shape [20] but chunks [8, 2]")
    s = make_valid(out, "zero_chunk.zarr")
    edit_meta(s, set_key("chunks", [0]))
    case("zero_chunk", "a/.zarray", "chunks", "open", "chunks [0]")
    s = make_valid(out, "negative_chunk.zarr")
    edit_meta(s, set_key("chunks", [-4]))
    case("negative_chunk", "a/.zarray", "chunks", "open", "chunks [-4]")
    s = make_valid(out, "fractional_chunk.zarr")
    edit_meta(s, set_key("chunks", [2.5]))
    case("fractional_chunk", "a/.zarray", "chunks", "open", "chunks [2.5]")
    s = make_valid(out, "negative_shape.zarr")
    edit_meta(s, set_key("shape", [-20]))
    case("negative_shape", "a/.zarray", "shape", "open", "shape [-20]")
    s = make_valid(out, "shape_not_list.zarr")
    edit_meta(s, set_key("shape", "20"))
    case("shape_not_list", "a/.zarray", "shape", "open", "shape is the string \"20\"")
    s = make_valid(out, "wrong_zarr_format.zarr")
    edit_meta(s, set_key("zarr_format", 3))
    case("wrong_zarr_format", "a/.zarray", "zarr_format", "open", "zarr_format 3 in a .zarray")
    s = make_valid(out, "bad_order.zarr")
    edit_meta(s, set_key("order", "X"))
    case("bad_order", "a/.zarray", "order", "open", "order 'X'")
    s = make_valid(out, "bad_dimension_separator.zarr")
    edit_meta(s, set_key("dimension_separator", "-"))
    case("bad_dimension_separator", "a/.zarray", "dimension_separator", "open",
         "dimension_separator '-'")
    s = make_valid(out, "bad_fill_value.zarr")
    edit_meta(s, set_key("fill_value", "not a number"))
    case("bad_fill_value", "a/.zarray", "fill_value", "open",
         "fill_value 'not a number' for <i4")
    s = make_valid(out, "object_without_codec.zarr", dtype=object,
                   object_codec=numcodecs.VLenUTF8(),
                   data=np.array([str(i) for i in range(20)], dtype=object))
    edit_meta(s, set_key("filters", None))
    case("object_without_codec", "a/.zarray", "object", "open",
         "dtype |O with filters null: no object codec")
    s = make_valid(out, "dotdot_consolidated_key.zarr", consolidated=True)
    with open(os.path.join(s, ".zmetadata"), encoding="utf-8") as f:
        zm = json.load(f)
    zm["metadata"]["../outside/.zarray"] = zm["metadata"]["a/.zarray"]
    with open(os.path.join(s, ".zmetadata"), "w", encoding="utf-8") as f:
        json.dump(zm, f, indent=4, sort_keys=True)
    case("dotdot_consolidated_key", ".zmetadata", "..", "open",
         "consolidated metadata holds the key '../outside/.zarray'", consolidated=True)
    s = make_valid(out, "dotdot_consolidated_inner.zarr", consolidated=True)
    with open(os.path.join(s, ".zmetadata"), encoding="utf-8") as f:
        zm = json.load(f)
    zm["metadata"]["a/../../b/.zattrs"] = {"x": 1}
    with open(os.path.join(s, ".zmetadata"), "w", encoding="utf-8") as f:
        json.dump(zm, f, indent=4, sort_keys=True)
    case("dotdot_consolidated_inner", ".zmetadata", "..", "open",
         "consolidated metadata holds the key 'a/../../b/.zattrs'", consolidated=True)
    s = make_valid(out, "malformed_zmetadata.zarr", consolidated=True)
    write_raw(s, ".zmetadata", read_raw(s, ".zmetadata")[:-30])
    case("malformed_zmetadata", ".zmetadata", "json", "open",
         ".zmetadata cut short: not valid JSON", consolidated=True)

    # ---- chunk problems (stage "read") ----
    s = make_valid(out, "chunk_wrong_size.zarr")
    write_raw(s, "a/1", zlib.compress(np.arange(5, dtype="<i4").tobytes()))
    case("chunk_wrong_size", "a/1", "size", "read",
         "zlib chunk 1 decodes to 20 bytes instead of 32")
    s = make_valid(out, "chunk_wrong_size_nocompressor.zarr", compressor=None)
    write_raw(s, "a/0", read_raw(s, "a/0") + b"\x00\x00\x00\x00")
    case("chunk_wrong_size_nocompressor", "a/0", "size", "read",
         "uncompressed chunk 0 has 36 bytes instead of 32")
    s = make_valid(out, "truncated_zlib.zarr")
    write_raw(s, "a/0", read_raw(s, "a/0")[:10])
    case("truncated_zlib", "a/0", "truncated", "read", "zlib chunk 0 cut to 10 bytes")
    s = make_valid(out, "truncated_blosc.zarr", compressor=Blosc("lz4", 5, 1),
                   data=np.arange(20, dtype="<i4"))
    write_raw(s, "a/0", read_raw(s, "a/0")[:20])
    case("truncated_blosc", "a/0", "truncated", "read",
         "blosc chunk 0 cut to 20 bytes (header says more)")
    s = make_valid(out, "corrupt_zlib.zarr")
    b = bytearray(read_raw(s, "a/0"))
    for i in range(2, len(b) - 4):
        b[i] ^= 0x5A
    write_raw(s, "a/0", bytes(b))
    case("corrupt_zlib", "a/0", "corrupt", "read",
         "zlib chunk 0 with its deflate body XOR-ed with 0x5a")
    s = make_valid(out, "corrupt_blosc_header.zarr", compressor=Blosc("zstd", 5, 1))
    b = bytearray(read_raw(s, "a/0"))
    b[4:8] = (1 << 30).to_bytes(4, "little")  # nbytes: claims 1 GiB
    write_raw(s, "a/0", bytes(b))
    case("corrupt_blosc_header", "a/0", "size", "read",
         "blosc header claims 1 GiB of decompressed data for a 32-byte chunk")
    s = make_valid(out, "crc32_mismatch.zarr", compressor=CRC32())
    b = bytearray(read_raw(s, "a/0"))
    b[6] ^= 0x01
    write_raw(s, "a/0", bytes(b))
    case("crc32_mismatch", "a/0", "checksum", "read",
         "crc32 compressor: one payload bit flipped, stored checksum unchanged")
    s = make_valid(out, "crc32_filter_mismatch.zarr", filters=[CRC32()], compressor=None)
    b = bytearray(read_raw(s, "a/1"))
    b[0] ^= 0xFF
    write_raw(s, "a/1", bytes(b))
    case("crc32_filter_mismatch", "a/1", "checksum", "read",
         "crc32 filter: stored checksum byte changed")
    s = make_valid(out, "truncated_crc32.zarr", compressor=CRC32())
    write_raw(s, "a/0", read_raw(s, "a/0")[:3])
    case("truncated_crc32", "a/0", "truncated", "read",
         "crc32 chunk of 3 bytes: shorter than the checksum")

    manifest = {
        "manifest_version": MANIFEST_VERSION,
        "generator": "integration-tests/generate_bad_v2_stores.py",
        "zarr": zarr.__version__.split("+")[0],
        "numcodecs": numcodecs.__version__.split("+")[0],
        "numpy": np.__version__,
        "cases": cases,
    }
    dump_json(os.path.join(out, "bad-manifest.json"), manifest)
    print("wrote %d bad stores to %s" % (len(cases), out))
    for c in cases:
        print("  %-32s %-12s zarr-python: %s" % (c["name"], c["error_contains"],
                                                c["zarr_python_error"]))


if __name__ == "__main__":
    main()
