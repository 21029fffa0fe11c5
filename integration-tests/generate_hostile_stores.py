#!/usr/bin/python3
"""Writes small broken or hostile Zarr stores (v1, v2, v3, 2022 v3 draft) and hostile-manifest.json.

Usage: /usr/bin/python3 integration-tests/generate_hostile_stores.py [OUTDIR]
(default OUTDIR: src/test/resources/corpus/hostile)

Unlike generate_bad_v2_stores.py, nothing here goes through zarr-python: metadata is written as
JSON by hand (so any field can be wrong in any way) and chunks are encoded with numcodecs, then
truncated, corrupted, padded or replaced by decompression bombs. Each case is one store holding
one array at path "a" (in a v3 draft store: meta/root/a.array.json, chunks data/root/a/c<i>).
The manifest says, per case: the store, its format (v1, v2, v3, v3draft), the array path, the key
the error must name, a substring the error must contain, and whether opening ("open") or reading
("read") must fail. Optional "region" {start, shape} reads part of the array instead of all.

Cases too big to commit (100 MB JSON, 10,000-level hierarchies) are built by HostileStoresTest.
The output is the same on every run (gzip timestamps zeroed, blosc single-threaded).
"""

import bz2
import gzip
import json
import lzma
import os
import shutil
import struct
import sys
import zlib

import numcodecs
import numpy as np
from numcodecs import (BZ2, LZ4, LZMA, Adler32, Blosc, CRC32, Delta, GZip, VLenBytes, VLenUTF8,
                       Zlib, Zstd)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus_common import crc32c  # noqa: E402

DEFAULT_OUT = os.path.join(HERE, "..", "src", "test", "resources", "corpus", "hostile")
DATA = (np.arange(20, dtype="<i4") * 3 - 7)
CHUNK = 8
CHUNK_BYTES = CHUNK * 4
BOMB_BYTES = 64 << 20
CASES = []
numcodecs.blosc.use_threads = False  # blosc's threads split blocks differently from run to run


# ---- helpers ------------------------------------------------------------------------------

def put(out, name, key, data):
    p = os.path.join(out, name, key)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data if isinstance(data, bytes) else json.dumps(data, indent=1).encode("utf-8"))


def case(name, fmt, bad_key, error, stage, note, region=None):
    c = {"name": name, "store": name, "format": fmt, "path": "a", "bad_key": bad_key,
         "error_contains": error, "stage": stage, "note": note}
    if region:
        c["region"] = region
    CASES.append(c)


def chunk_values(i):
    part = DATA[i * CHUNK:(i + 1) * CHUNK]
    return np.concatenate([part, np.zeros(CHUNK - len(part), "<i4")]).tobytes()


def zeros_stream(compressor, total):
    """Compresses `total` zero bytes without holding them all."""
    block = bytes(1 << 20)
    out = [compressor.compress(block) for _ in range(total // len(block))]
    out.append(compressor.flush())
    return b"".join(out)


def encoded(codec, data):
    """codec.encode(data) as bytes; a gzip stream's timestamp is zeroed so reruns are identical."""
    out = bytes(codec.encode(data))
    return out[:4] + bytes(4) + out[8:] if isinstance(codec, GZip) else out


# ---- v2 -----------------------------------------------------------------------------------

def zarray(**over):
    z = {"zarr_format": 2, "shape": [20], "chunks": [CHUNK], "dtype": "<i4",
         "compressor": {"id": "zlib", "level": 1}, "fill_value": 0, "order": "C", "filters": None}
    z.update(over)
    return {k: v for k, v in z.items() if v != "DELETE"}


def v2(out, name, zarr_doc=None, chunks=None, compressor=Zlib(1), filters=()):
    """A v2 store: group at the root, array "a"; chunks default to valid encodings."""
    put(out, name, ".zgroup", {"zarr_format": 2})
    put(out, name, "a/.zarray", zarray() if zarr_doc is None else zarr_doc)
    for i in range(3):
        key = "a/%d" % i
        if chunks is not None:  # only the given chunks; the others are missing
            data = chunks.get(key)
        else:
            data = chunk_values(i)
            for f in filters:
                data = f.encode(data)
            data = encoded(compressor, data) if compressor is not None else data
        if data is not None:
            put(out, name, key, data if isinstance(data, bytes) else bytes(data))


def v2_metadata_cases(out):
    meta = [  # name, .zarray overrides, expected substring
        ("v2_shape_string", {"shape": "20"}, "shape"),
        ("v2_shape_float", {"shape": [20.5]}, "shape"),
        ("v2_shape_beyond_long", {"shape": [2 ** 63]}, "shape"),
        ("v2_shape_product_overflows_long", {"shape": [2 ** 62, 2 ** 62], "chunks": [1, 1]},
         "elements"),
        ("v2_chunk_2pow40_elements", {"shape": [2 ** 20, 2 ** 20], "chunks": [2 ** 20, 2 ** 20]},
         "chunks"),
        ("v2_chunks_null", {"chunks": None}, "chunks"),
        ("v2_chunks_missing", {"chunks": "DELETE"}, "chunks"),
        ("v2_dtype_number", {"dtype": 5}, "dtype"),
        ("v2_dtype_huge_string", {"dtype": "<U99999999999"}, "dtype"),
        ("v2_dtype_negative_size", {"dtype": "|S-1"}, "dtype"),
        ("v2_dtype_list_bad_field", {"dtype": [["x"]]}, "dtype"),
        ("v2_zarr_format_string", {"zarr_format": "2"}, "zarr_format"),
        ("v2_zarr_format_3", {"zarr_format": 3}, "zarr_format"),
        ("v2_fill_value_object", {"fill_value": {"a": 1}}, "fill"),
        ("v2_fill_value_bad_string", {"fill_value": "lots"}, "fill"),
        ("v2_order_lowercase", {"order": "c"}, "order"),
        ("v2_order_number", {"order": 1}, "order"),
        ("v2_compressor_string", {"compressor": "zlib"}, "compressor"),
        ("v2_compressor_without_id", {"compressor": {"level": 1}}, "id"),
        ("v2_zlib_level_text", {"compressor": {"id": "zlib", "level": "max"}}, "level"),
        ("v2_blosc_unknown_cname",
         {"compressor": {"id": "blosc", "cname": "lz5", "clevel": 5, "shuffle": 1}}, "lz5"),
        ("v2_filters_object", {"filters": {"id": "delta", "dtype": "<i4"}}, "filters"),
        ("v2_delta_without_dtype", {"filters": [{"id": "delta"}]}, "dtype"),
        ("v2_dimension_separator_backslash", {"dimension_separator": "\\"}, "dimension_separator"),
    ]
    for name, over, error in meta:
        v2(out, name, zarray(**over))
        case(name, "v2", "a/.zarray", error, "open", "bad .zarray field: %s" % list(over))

    raw = [  # documents that are not usable JSON objects
        ("v2_zarray_list", b"[1, 2]", "JSON object"),
        ("v2_zarray_non_utf8", b'{"zarr_format": 2, "dtype": "\xff\xfe<i4"}', "JSON"),
        ("v2_zarray_nul_bytes", b"\x00" * 64, "JSON"),
        ("v2_zarray_nested_10000",
         b'{"zarr_format": 2, "fill_value": ' + b"[" * 10000 + b"]" * 10000 + b"}", "nesting"),
        ("v2_zarray_number_10000_digits",
         b'{"zarr_format": 2, "shape": [' + b"9" * 10000 + b"]}", "JSON"),
    ]
    for name, body, error in raw:
        v2(out, name, {})
        put(out, name, "a/.zarray", body)
        case(name, "v2", "a/.zarray", error, "open", "unusable .zarray bytes")

    v2(out, "v2_zattrs_nested_10000")
    put(out, "v2_zattrs_nested_10000", "a/.zattrs", b'{"x": ' + b"[" * 10000 + b"]" * 10000 + b"}")
    case("v2_zattrs_nested_10000", "v2", "a/.zattrs", "nesting", "open",
         "attributes nested 10,000 deep")


def consolidated(out, name, metadata, fmt_version=1):
    v2(out, name)
    put(out, name, ".zmetadata", {"zarr_consolidated_format": fmt_version, "metadata": metadata})


def v2_consolidated_cases(out):
    good = {".zgroup": {"zarr_format": 2}, "a/.zarray": zarray()}
    consolidated(out, "v2_consolidated_absolute_key", {**good, "/etc/.zarray": zarray()})
    case("v2_consolidated_absolute_key", "v2", ".zmetadata", "absolute", "open",
         "an absolute key in .zmetadata")
    consolidated(out, "v2_consolidated_backslash_dotdot", {**good, "a\\..\\..\\.zarray": zarray()})
    case("v2_consolidated_backslash_dotdot", "v2", ".zmetadata", "backslash", "open",
         "a Windows-style ..\\ key in .zmetadata")
    consolidated(out, "v2_consolidated_document_not_object", {".zgroup": {"zarr_format": 2},
                                                              "a/.zarray": 7})
    case("v2_consolidated_document_not_object", "v2", ".zmetadata", "JSON object", "open",
         "a consolidated .zarray that is a number")
    consolidated(out, "v2_consolidated_metadata_list", [])
    case("v2_consolidated_metadata_list", "v2", ".zmetadata", "metadata", "open",
         "\"metadata\" is a list")
    consolidated(out, "v2_consolidated_format_2", good, fmt_version=2)
    case("v2_consolidated_format_2", "v2", ".zmetadata", "zarr_consolidated_format", "open",
         "unknown consolidated format version")
    # An array at "a" that also claims to be a group below itself, 300 levels deep.
    deep = dict(good)
    key = "a"
    for _ in range(300):
        key += "/a"
        deep[key + "/.zgroup"] = {"zarr_format": 2}
    deep["a/.zarray"] = zarray(shape="bad")
    consolidated(out, "v2_consolidated_cyclic_looking", deep)
    case("v2_consolidated_cyclic_looking", "v2", "a/.zarray", "shape", "open",
         "array 'a' with groups 300 levels deep below it, and a bad shape (read from .zmetadata)")


def bombs():
    """(codec name, numcodecs config, chunk bytes that decode to 64 MiB of zeros)."""
    zeros = bytes(BOMB_BYTES)
    return [
        ("zlib", {"id": "zlib", "level": 1}, zeros_stream(zlib.compressobj(9), BOMB_BYTES)),
        ("gzip", {"id": "gzip", "level": 1}, gzip.compress(zeros, 9, mtime=0)),
        ("bz2", {"id": "bz2", "level": 1}, zeros_stream(bz2.BZ2Compressor(9), BOMB_BYTES)),
        ("lzma", {"id": "lzma", "format": 1, "check": -1, "preset": None, "filters": None},
         zeros_stream(lzma.LZMACompressor(format=lzma.FORMAT_XZ), BOMB_BYTES)),
        ("zstd", {"id": "zstd", "level": 1}, bytes(Zstd(19).encode(zeros))),
        ("lz4", {"id": "lz4", "acceleration": 1}, bytes(LZ4(1).encode(zeros))),
        ("blosc", {"id": "blosc", "cname": "zstd", "clevel": 9, "shuffle": 0, "blocksize": 0},
         bytes(Blosc("zstd", 9, 0).encode(zeros))),
    ]


def v2_chunk_cases(out):
    codecs = [
        ("zlib", {"id": "zlib", "level": 1}, Zlib(1)),
        ("gzip", {"id": "gzip", "level": 1}, GZip(1)),
        ("bz2", {"id": "bz2", "level": 1}, BZ2(1)),
        ("lzma", {"id": "lzma", "format": 1, "check": -1, "preset": None, "filters": None},
         LZMA()),
        ("zstd", {"id": "zstd", "level": 1}, Zstd(1)),
        ("lz4", {"id": "lz4", "acceleration": 1}, LZ4(1)),
        ("blosc", {"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0},
         Blosc("lz4", 5, 1)),
        ("none", None, None),
    ]
    for cname, config, codec in codecs:
        good = encoded(codec, chunk_values(1)) if codec else chunk_values(1)
        doc = zarray(compressor=config)
        variants = [("truncated", good[: len(good) // 2])]
        # zlib and lzma ignore bytes after the end of the stream, as Python's modules do: the
        # decoded data is intact, so that is not an error.
        if cname not in ("zlib", "lzma"):
            variants.append(("oversized", good + b"\xa5" * 64))
        if codec is not None:
            # A 32-byte chunk is stored uncompressed inside most formats, so only damage to the
            # format's own structure is detectable without a checksum: corrupt the header.
            head = bytearray(good)
            for i in range(min(8, len(head))):
                head[i] ^= 0x5A
            variants.append(("corrupted_header", bytes(head)))
        for what, data in variants:
            name = "v2_%s_chunk_%s" % (cname, what)
            v2(out, name, doc, chunks={"a/1": data}, compressor=codec)
            # "none" has no codec to blame: the chunk's size is the problem.
            case(name, "v2", "a/1", cname if codec else "bytes", "read",
                 "%s chunk %s" % (cname, what))
    for cname, config, data in bombs():
        name = "v2_%s_bomb" % cname
        v2(out, name, zarray(compressor=config), chunks={"a/1": data}, compressor=None)
        case(name, "v2", "a/1", cname, "read", "%s chunk decoding to 64 MiB for a 32-byte chunk"
             % cname)

    # Headers that claim a huge decoded size.
    lz4_claim = struct.pack("<i", 0x7FFFFFF0) + b"\x00" * 16
    v2(out, "v2_lz4_header_claims_2gib", zarray(compressor={"id": "lz4", "acceleration": 1}),
       chunks={"a/1": lz4_claim})
    case("v2_lz4_header_claims_2gib", "v2", "a/1", "lz4", "read", "lz4 size header says 2 GiB")
    blosc_ok = bytearray(Blosc("lz4", 5, 1).encode(chunk_values(1)))
    struct.pack_into("<I", blosc_ok, 4, 0x7FFFFFF0)
    v2(out, "v2_blosc_header_claims_2gib",
       zarray(compressor={"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1}),
       chunks={"a/1": bytes(blosc_ok)})
    case("v2_blosc_header_claims_2gib", "v2", "a/1", "blosc", "read", "blosc nbytes says 2 GiB")
    blosc_cb = bytearray(Blosc("lz4", 5, 1).encode(chunk_values(1)))
    struct.pack_into("<I", blosc_cb, 12, 0x7FFFFFF0)
    v2(out, "v2_blosc_cbytes_beyond_chunk",
       zarray(compressor={"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1}),
       chunks={"a/1": bytes(blosc_cb)})
    case("v2_blosc_cbytes_beyond_chunk", "v2", "a/1", "blosc", "read",
         "blosc cbytes larger than the chunk")
    zstd_claim = bytearray(Zstd(1).encode(chunk_values(1)))
    v2(out, "v2_zstd_frame_trailing_garbage", zarray(compressor={"id": "zstd", "level": 1}),
       chunks={"a/1": bytes(zstd_claim) + b"\xff" * 40})
    case("v2_zstd_frame_trailing_garbage", "v2", "a/1", "zstd", "read",
         "a zstd frame followed by garbage")

    # Checksums: a flipped data byte must be caught, never returned as data.
    for cname, codec in [("crc32", CRC32()), ("adler32", Adler32())]:
        enc = bytearray(codec.encode(chunk_values(1)))
        enc[5] ^= 0x01
        name = "v2_%s_mismatch" % cname
        v2(out, name, zarray(compressor=None, filters=[{"id": cname}]), chunks={"a/1": bytes(enc)},
           compressor=None, filters=[codec])
        case(name, "v2", "a/1", "checksum", "read", "%s over a flipped byte" % cname)
    # numcodecs 0.11 has no fletcher32: any wrong trailing checksum will do.
    v2(out, "v2_fletcher32_mismatch", zarray(compressor=None, filters=[{"id": "fletcher32"}]),
       chunks={"a/0": None, "a/1": chunk_values(1) + b"\xde\xad\xbe\xef", "a/2": None})
    case("v2_fletcher32_mismatch", "v2", "a/1", "checksum", "read", "fletcher32 mismatch")

    # Filters and object codecs.
    delta = Delta("<i4")
    v2(out, "v2_delta_chunk_short", zarray(compressor=None, filters=[{"id": "delta", "dtype": "<i4"}]),
       chunks={"a/1": bytes(delta.encode(chunk_values(1)))[:7]}, compressor=None, filters=[delta])
    case("v2_delta_chunk_short", "v2", "a/1", "bytes", "read", "delta filter input 7 bytes")
    vlen_doc = zarray(dtype="|O", fill_value=None, compressor=None, filters=[{"id": "vlen-utf8"}])
    strings = np.array(["s%d" % i for i in range(CHUNK)], dtype=object)
    good_vlen = bytes(VLenUTF8().encode(strings))
    claims_many = struct.pack("<I", 0x7FFFFFFF) + good_vlen[4:]
    too_long = bytearray(good_vlen)
    struct.pack_into("<I", too_long, 4, 0x7FFFFFF0)
    for name, data, note in [
            ("v2_vlen_utf8_count_2gi", claims_many, "vlen-utf8 header claims 2^31-1 items"),
            ("v2_vlen_utf8_item_beyond_end", bytes(too_long), "an item longer than the chunk"),
            ("v2_vlen_utf8_invalid_utf8", good_vlen[:-1] + b"\xff", "an item with invalid UTF-8")]:
        v2(out, name, vlen_doc, chunks={"a/%d" % i: data for i in range(3)}, compressor=None)
        case(name, "v2", "a/0", "vlen-utf8", "read", note)
    vb_doc = zarray(dtype="|O", fill_value=None, compressor=None, filters=[{"id": "vlen-bytes"}])
    vb = bytearray(VLenBytes().encode(np.array([b"x"] * CHUNK, dtype=object)))
    struct.pack_into("<i", vb, 4, -5)
    v2(out, "v2_vlen_bytes_negative_length", vb_doc, chunks={"a/%d" % i: bytes(vb) for i in range(3)},
       compressor=None)
    case("v2_vlen_bytes_negative_length", "v2", "a/0", "vlen-bytes", "read",
         "an item of length -5")
    # An object array whose compressor has no known output size: the bomb must still be bounded.
    bomb_doc = zarray(dtype="|O", fill_value=None, compressor={"id": "bz2", "level": 1},
                      filters=[{"id": "vlen-utf8"}])
    bomb = zeros_stream(bz2.BZ2Compressor(9), 1 << 30)
    v2(out, "v2_vlen_bz2_bomb_1gib", bomb_doc, chunks={"a/%d" % i: bomb for i in range(3)},
       compressor=None)
    case("v2_vlen_bz2_bomb_1gib", "v2", "a/0", "bz2", "read",
         "vlen-utf8 chunk whose bz2 stream decodes to 1 GiB (no fixed decoded size)")


# ---- v1 -----------------------------------------------------------------------------------

def meta_v1(**over):
    m = {"zarr_format": 1, "shape": [20], "chunks": [CHUNK], "dtype": "<i4",
         "compression": "zlib", "compression_opts": 1, "fill_value": 0, "order": "C"}
    m.update(over)
    return {k: v for k, v in m.items() if v != "DELETE"}


def v1(out, name, meta=None, chunks=None):
    put(out, name, "a/meta", meta_v1() if meta is None else meta)
    put(out, name, "a/attrs", {})
    for i in range(3):
        key = "a/%d" % i
        data = (chunks or {}).get(key, zlib.compress(chunk_values(i), 1))
        put(out, name, key, data)


def v1_cases(out):
    for name, over, error in [
            ("v1_zarr_format_2", {"zarr_format": 2}, "zarr_format"),
            ("v1_compression_unknown", {"compression": "snappy9"}, "snappy9"),
            ("v1_compression_opts_text", {"compression_opts": "fast"}, "compression_opts"),
            ("v1_shape_missing", {"shape": "DELETE"}, "shape"),
            ("v1_dtype_object", {"dtype": "|O"}, "dtype"),
            ("v1_chunks_zero", {"chunks": [0]}, "chunks"),
            ("v1_shape_product_overflows_long", {"shape": [2 ** 40, 2 ** 40], "chunks": [1, 1]},
             "elements")]:
        v1(out, name, meta_v1(**over))
        case(name, "v1", "a/meta", error, "open", "bad v1 meta field")
    v1(out, "v1_zlib_chunk_truncated", chunks={"a/1": zlib.compress(chunk_values(1))[:9]})
    case("v1_zlib_chunk_truncated", "v1", "a/1", "zlib", "read", "truncated zlib chunk")
    v1(out, "v1_zlib_bomb", chunks={"a/1": zeros_stream(zlib.compressobj(9), BOMB_BYTES)})
    case("v1_zlib_bomb", "v1", "a/1", "zlib", "read", "zlib chunk decoding to 64 MiB")
    v1(out, "v1_blosc_chunk_corrupt",
       meta_v1(compression="blosc", compression_opts={"cname": "lz4", "clevel": 5, "shuffle": 1}),
       chunks={"a/%d" % i: b"\x02\x01\x21\x04" + b"\xff" * 12 for i in range(3)})
    case("v1_blosc_chunk_corrupt", "v1", "a/0", "blosc", "read", "blosc header with garbage sizes")


# ---- v3 -----------------------------------------------------------------------------------

BYTES = {"name": "bytes", "configuration": {"endian": "little"}}


def zarr_json(**over):
    z = {"zarr_format": 3, "node_type": "array", "shape": [20], "data_type": "int32",
         "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [CHUNK]}},
         "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
         "fill_value": 0, "codecs": [BYTES, {"name": "gzip", "configuration": {"level": 1}}],
         "attributes": {}}
    z.update(over)
    return {k: v for k, v in z.items() if v != "DELETE"}


def v3(out, name, doc=None, chunks=None, encode=lambda b: gzip.compress(b, 1, mtime=0), root=None):
    put(out, name, "zarr.json", root or {"zarr_format": 3, "node_type": "group", "attributes": {}})
    put(out, name, "a/zarr.json", zarr_json() if doc is None else doc)
    for i in range(3):
        key = "a/c/%d" % i
        data = (chunks or {}).get(key, encode(chunk_values(i)))
        put(out, name, key, data)


def v3_metadata_cases(out):
    for name, over, error in [
            ("v3_node_type_unknown", {"node_type": "table"}, "node_type"),
            ("v3_zarr_format_string", {"zarr_format": "3"}, "zarr_format"),
            ("v3_shape_negative", {"shape": [-20]}, "shape"),
            ("v3_shape_product_overflows_long",
             {"shape": [2 ** 62, 4], "chunk_grid": {"name": "regular",
                                                    "configuration": {"chunk_shape": [1, 1]}}},
             "elements"),
            ("v3_chunk_2pow40_elements",
             {"shape": [2 ** 40], "chunk_grid": {"name": "regular",
                                                 "configuration": {"chunk_shape": [2 ** 40]}}},
             "chunk"),
            ("v3_data_type_unknown", {"data_type": "int128"}, "int128"),
            ("v3_data_type_number", {"data_type": 7}, "data_type"),
            ("v3_chunk_grid_rectilinear", {"chunk_grid": {"name": "rectilinear"}}, "chunk_grid"),
            ("v3_chunk_key_separator_dotdot",
             {"chunk_key_encoding": {"name": "default", "configuration": {"separator": ".."}}},
             "separator"),
            ("v3_fill_value_text_for_int", {"fill_value": "zero"}, "fill_value"),
            ("v3_fill_value_out_of_range", {"fill_value": 2 ** 40}, "fill_value"),
            ("v3_codecs_empty", {"codecs": []}, "codecs"),
            ("v3_codecs_two_array_to_bytes", {"codecs": [BYTES, BYTES]}, "bytes"),
            ("v3_codec_unknown", {"codecs": [BYTES, {"name": "zfp9"}]}, "zfp9"),
            ("v3_codec_gzip_level_text",
             {"codecs": [BYTES, {"name": "gzip", "configuration": {"level": "x"}}]}, "level"),
            ("v3_codec_transpose_bad_order",
             {"codecs": [{"name": "transpose", "configuration": {"order": [3]}}, BYTES]},
             "transpose"),
            ("v3_endian_unknown",
             {"codecs": [{"name": "bytes", "configuration": {"endian": "middle"}}]}, "endian"),
            ("v3_extension_must_understand",
             {"x_extension": {"must_understand": True, "v": 1}}, "x_extension"),
            ("v3_extension_not_object", {"x_extension": 1}, "x_extension"),
            ("v3_storage_transformer", {"storage_transformers": [{"name": "chunk-manifest"}]},
             "storage transformer"),
            ("v3_dimension_names_wrong_length", {"dimension_names": ["x", "y"]},
             "dimension_names"),
            ("v3_attributes_list", {"attributes": [1]}, "attributes"),
            ("v3_data_type_missing", {"data_type": "DELETE"}, "data_type")]:
        v3(out, name, zarr_json(**over))
        case(name, "v3", "a/zarr.json", error, "open", "bad zarr.json field")
    v3(out, "v3_zarr_json_non_utf8")
    put(out, "v3_zarr_json_non_utf8", "a/zarr.json",
        b'{"zarr_format": 3, "node_type": "arr\xc3\x28y"}')
    case("v3_zarr_json_non_utf8", "v3", "a/zarr.json", "JSON", "open", "invalid UTF-8 in zarr.json")

    root = {"zarr_format": 3, "node_type": "group", "attributes": {},
            "consolidated_metadata": {"kind": "inline", "must_understand": False,
                                      "metadata": {"a": zarr_json()}}}
    for name, bad, error in [
            ("v3_consolidated_dotdot", {"a/../../x": zarr_json()}, "'..'"),
            ("v3_consolidated_absolute", {"/a": zarr_json()}, "absolute"),
            ("v3_consolidated_document_text", {"b": "zarr.json"}, "JSON object")]:
        r = json.loads(json.dumps(root))
        r["consolidated_metadata"]["metadata"].update(bad)
        v3(out, name, root=r)
        case(name, "v3", "zarr.json", error, "open", "bad consolidated metadata key or document")
    r = json.loads(json.dumps(root))
    r["consolidated_metadata"]["metadata"]["a"]["shape"] = [-1]
    v3(out, "v3_consolidated_bad_array", root=r)
    case("v3_consolidated_bad_array", "v3", "zarr.json", "shape", "open",
         "consolidated array document with a negative shape (the file itself is fine)")


def v3_chunk_cases(out):
    zstd_doc = zarr_json(codecs=[BYTES, {"name": "zstd", "configuration": {"level": 1,
                                                                           "checksum": False}}])
    crc_doc = zarr_json(codecs=[BYTES, {"name": "crc32c"}])
    blosc_doc = zarr_json(codecs=[BYTES, {"name": "blosc", "configuration": {
        "cname": "lz4", "clevel": 5, "shuffle": "shuffle", "typesize": 4, "blocksize": 0}}])
    good_gzip = gzip.compress(chunk_values(1), 1, mtime=0)
    good_zstd = bytes(Zstd(1).encode(chunk_values(1)))
    crc_ok = chunk_values(1) + struct.pack("<I", crc32c(chunk_values(1)))
    zstd_enc = lambda b: bytes(Zstd(1).encode(b))  # noqa: E731
    crc_enc = lambda b: b + struct.pack("<I", crc32c(b))  # noqa: E731
    blosc_enc = lambda b: bytes(Blosc("lz4", 5, 1).encode(b))  # noqa: E731
    for name, doc, enc, data, error, note in [
            ("v3_gzip_chunk_truncated", None, None, good_gzip[:12], "gzip", "truncated gzip"),
            ("v3_gzip_bomb", None, None, gzip.compress(bytes(BOMB_BYTES), 9, mtime=0),
             "gzip: data decodes to more than the expected 32",
             "gzip chunk decoding to 64 MiB: fails at the chunk's 32 bytes, never inflated whole"),
            ("v3_zstd_chunk_corrupted", zstd_doc, zstd_enc,
             good_zstd[:6] + bytes(b ^ 0x33 for b in good_zstd[6:]), "zstd", "corrupt zstd"),
            ("v3_zstd_bomb", zstd_doc, zstd_enc, bytes(Zstd(19).encode(bytes(BOMB_BYTES))),
             "zstd: data decodes to more than the expected 32",
             "zstd chunk decoding to 64 MiB: fails at the chunk's 32 bytes, never inflated whole"),
            ("v3_crc32c_mismatch", crc_doc, crc_enc, crc_ok[:-1] + bytes([crc_ok[-1] ^ 1]),
             "crc32c", "crc32c over the wrong value"),
            ("v3_blosc_chunk_truncated", blosc_doc, blosc_enc,
             bytes(Blosc("lz4", 5, 1).encode(chunk_values(1)))[:20], "blosc", "truncated blosc"),
            ("v3_bytes_chunk_oversized", zarr_json(codecs=[BYTES]), lambda b: b,
             chunk_values(1) + b"\x00" * 4, "bytes", "raw chunk 4 bytes too long")]:
        kw = {"chunks": {"a/c/1": data}}
        if enc is not None:
            kw["encode"] = enc
        v3(out, name, doc, **kw)
        case(name, "v3", "a/c/1", error, "read", note)


def nc(name, **config):
    """zarr-python 3's v3 form of a numcodecs codec."""
    return {"name": "numcodecs." + name, "configuration": config}


def v3_numcodecs_cases(out):
    """zarr-python 3's numcodecs.* codecs: bad chains fail at open, bad chunks at read."""
    for name, codecs, error, note in [
            ("v3_numcodecs_unknown_id", [BYTES, nc("zfpy", mode=4)], "unsupported codec 'numcodecs.zfpy'",
             "a numcodecs codec this reader lacks"),
            ("v3_numcodecs_delta_wrong_dtype", [nc("delta", dtype="float32"), BYTES],
             "decodes to <f4 elements, but the chunk holds <i4", "delta configured for float32 on int32"),
            ("v3_numcodecs_filter_after_bytes", [BYTES, nc("delta", dtype="int32")], "must come before",
             "an array→array filter after the serializer")]:
        v3(out, name, zarr_json(codecs=codecs))
        case(name, "v3", "a/zarr.json", error, "open", note)
    zlib_doc = zarr_json(codecs=[nc("delta", dtype="int32"), BYTES, nc("zlib", level=1)])
    delta_zlib = lambda b: zlib.compress(bytes(Delta("<i4").encode(np.frombuffer(b, "<i4"))), 1)  # noqa: E731
    crc_doc = zarr_json(codecs=[BYTES, nc("crc32")])
    crc_enc = lambda b: bytes(CRC32().encode(b))  # noqa: E731
    crc_ok = crc_enc(chunk_values(1))
    lz4_doc = zarr_json(codecs=[BYTES, nc("lz4", acceleration=1)])
    lz4_enc = lambda b: bytes(LZ4(1).encode(b))  # noqa: E731
    for name, doc, enc, data, error, note in [
            ("v3_numcodecs_zlib_truncated", zlib_doc, delta_zlib, delta_zlib(chunk_values(1))[:9], "zlib",
             "numcodecs.zlib stream cut short, under numcodecs.delta"),
            ("v3_numcodecs_zlib_short", zlib_doc, delta_zlib, zlib.compress(chunk_values(1)[:28], 1), "zlib",
             "numcodecs.zlib stream of 28 bytes where the chunk needs 32"),
            ("v3_numcodecs_crc32_mismatch", crc_doc, crc_enc, crc_ok[:-1] + bytes([crc_ok[-1] ^ 1]), "crc32",
             "numcodecs.crc32 over the wrong value"),
            ("v3_numcodecs_lz4_bomb", lz4_doc, lz4_enc, bytes(LZ4(1).encode(bytes(BOMB_BYTES))), "lz4",
             "numcodecs.lz4 chunk decoding to 64 MiB: fails at the chunk's 32 bytes")]:
        v3(out, name, doc, chunks={"a/c/1": data}, encode=enc)
        case(name, "v3", "a/c/1", error, "read", note)


def shard_doc(index_codecs=None):
    return zarr_json(shape=[16], chunk_grid={"name": "regular",
                                             "configuration": {"chunk_shape": [16]}},
                     codecs=[{"name": "sharding_indexed", "configuration": {
                         "chunk_shape": [4], "codecs": [BYTES],
                         "index_codecs": index_codecs or [BYTES], "index_location": "end"}}])


def shard(entries, inner=None, crc=False):
    """Four raw inner chunks of 4 int32 each, then an index of (offset, length) uint64 pairs."""
    data = inner if inner is not None else np.arange(16, dtype="<i4").tobytes()
    index = b"".join(struct.pack("<QQ", o & (2 ** 64 - 1), n & (2 ** 64 - 1)) for o, n in entries)
    return data + index + (struct.pack("<I", crc32c(index)) if crc else b"")


def v3_shard_cases(out):
    ok = [(0, 16), (16, 16), (32, 16), (48, 16)]
    region = {"start": [4], "shape": [4]}
    for name, entries, error, note in [
            ("v3_shard_offset_outside", [(0, 16), (1000, 16), (32, 16), (48, 16)], "outside",
             "an inner chunk at offset 1000 of a 128-byte shard"),
            ("v3_shard_overlapping", [(0, 16), (8, 16), (32, 16), (48, 16)], "overlap",
             "inner chunks 0 and 1 overlap"),
            ("v3_shard_negative_offset", [(0, 16), (-16, 16), (32, 16), (48, 16)], "outside",
             "offset 2^64-16, negative as a signed long"),
            ("v3_shard_huge_length", [(0, 16), (16, 2 ** 62), (32, 16), (48, 16)], "outside",
             "length 2^62"),
            ("v3_shard_wrong_inner_length", [(0, 16), (16, 12), (32, 16), (48, 16)], "bytes",
             "an inner chunk of 12 bytes for 16"),
            ("v3_shard_index_into_index", [(0, 16), (64, 16), (32, 16), (48, 16)], "outside",
             "an inner chunk inside the index itself")]:
        for suffix, reg in [("", None), ("_partial", region)]:
            v3(out, name + suffix, shard_doc(), chunks={"a/c/0": shard(entries)},
               encode=lambda b: shard(ok))
            case(name + suffix, "v3", "a/c/0", error, "read", note
                 + (" (partial read of the shard)" if reg else ""), region=reg)
    v3(out, "v3_shard_shorter_than_index", shard_doc(), chunks={"a/c/0": b"\x00" * 10})
    case("v3_shard_shorter_than_index", "v3", "a/c/0", "index", "read", "a 10-byte shard")
    crc_index = [BYTES, {"name": "crc32c"}]
    bad = bytearray(shard(ok, crc=True))
    bad[-1] ^= 0xFF
    v3(out, "v3_shard_index_checksum", shard_doc(crc_index), chunks={"a/c/0": bytes(bad)})
    case("v3_shard_index_checksum", "v3", "a/c/0", "crc32c", "read", "shard index crc32c mismatch")
    v3(out, "v3_shard_inner_shape_not_dividing",
       zarr_json(shape=[16], chunk_grid={"name": "regular", "configuration": {"chunk_shape": [16]}},
                 codecs=[{"name": "sharding_indexed", "configuration": {
                     "chunk_shape": [5], "codecs": [BYTES], "index_codecs": [BYTES]}}]))
    case("v3_shard_inner_shape_not_dividing", "v3", "a/zarr.json", "chunk_shape", "open",
         "inner chunk shape 5 does not divide the shard shape 16")


# ---- v3 draft (2022) ----------------------------------------------------------------------
# zarr-python 2.13's layout: entry point zarr.json, documents under meta/root/, chunks under
# data/root/<path>/c<i>; the compressor is numcodecs' configuration under a codec URI.

PROTOCOL = "https://purl.org/zarr/spec/protocol/core/3.0"
CODEC_URI = "https://purl.org/zarr/spec/codec/%s/1.0"
DRAFT_ARRAY_KEY = "meta/root/a.array.json"


def entry_point(**over):
    e = {"extensions": [], "metadata_encoding": PROTOCOL, "metadata_key_suffix": ".json",
         "zarr_format": PROTOCOL}
    e.update(over)
    return {k: v for k, v in e.items() if v != "DELETE"}


def draft_compressor(name, **config):
    return {"codec": CODEC_URI % name, "configuration": config}


def array_json(**over):
    a = {"attributes": {}, "chunk_grid": {"chunk_shape": [CHUNK], "separator": "/",
                                          "type": "regular"},
         "chunk_memory_layout": "C", "compressor": draft_compressor("zlib", level=1),
         "data_type": "<i4", "extensions": [], "fill_value": 0, "shape": [20]}
    a.update(over)
    return {k: v for k, v in a.items() if v != "DELETE"}


def grid(chunk_shape, separator="/"):
    return {"chunk_shape": chunk_shape, "separator": separator, "type": "regular"}


def v3draft(out, name, doc=None, chunks=None, compressor=Zlib(1), entry=None):
    """A draft store with array "a" (as zarr-python 2.13 lays it out); chunks default to valid."""
    put(out, name, "zarr.json", entry_point() if entry is None else entry)
    put(out, name, "meta/root.group.json", {"attributes": {}, "extensions": []})
    put(out, name, DRAFT_ARRAY_KEY, array_json() if doc is None else doc)
    for i in range(3):
        key = "data/root/a/c%d" % i
        data = (chunks or {}).get(key)
        if data is None:
            data = encoded(compressor, chunk_values(i)) if compressor else chunk_values(i)
        put(out, name, key, data)


def v3draft_entry_point_cases(out):
    for name, over, error in [
            ("v3draft_entry_extension_must_understand",
             {"extensions": [{"extension": "https://example.com/ext/1.0", "must_understand": True}]},
             "extension"),
            ("v3draft_entry_extensions_object", {"extensions": {"x": 1}}, "extensions"),
            ("v3draft_entry_metadata_encoding_unknown",
             {"metadata_encoding": "https://purl.org/zarr/spec/protocol/cbor/1.0"},
             "metadata_encoding"),
            ("v3draft_entry_key_suffix_dotdot", {"metadata_key_suffix": "/../../etc/x.json"},
             "metadata_key_suffix"),
            ("v3draft_entry_key_suffix_backslash", {"metadata_key_suffix": ".json\\..\\..\\x"},
             "metadata_key_suffix"),
            ("v3draft_entry_key_suffix_number", {"metadata_key_suffix": 7}, "metadata_key_suffix"),
            ("v3draft_entry_zarr_format_unknown_version",
             {"zarr_format": "https://purl.org/zarr/spec/protocol/core/4.0"},
             "unsupported zarr_format")]:
        v3draft(out, name, entry=entry_point(**over))
        case(name, "v3draft", "zarr.json", error, "open", "bad entry point field: %s" % list(over))
    for name, body, error in [
            ("v3draft_entry_non_utf8",
             b'{"zarr_format": "https://purl.org/zarr/spec/protocol/core/3.0\xff\xfe"}', "JSON"),
            ("v3draft_entry_list", b'["https://purl.org/zarr/spec/protocol/core/3.0"]',
             "JSON object")]:
        v3draft(out, name)
        put(out, name, "zarr.json", body)
        case(name, "v3draft", "zarr.json", error, "open", "unusable entry point bytes")


def v3draft_array_cases(out):
    sharding = [{"extension": "https://purl.org/zarr/spec/storage_transformers/sharding/1.0",
                 "type": "indexed", "configuration": {"chunks_per_shard": [2]}}]
    for name, over, error in [
            ("v3draft_shape_string", {"shape": "20"}, "shape"),
            ("v3draft_shape_negative", {"shape": [-20]}, "shape"),
            ("v3draft_shape_missing", {"shape": "DELETE"}, "shape"),
            ("v3draft_shape_product_overflows_long",
             {"shape": [2 ** 62, 4], "chunk_grid": grid([1, 1])}, "elements"),
            ("v3draft_chunk_2pow40_elements",
             {"shape": [2 ** 20, 2 ** 20], "chunk_grid": grid([2 ** 20, 2 ** 20])}, "chunk"),
            ("v3draft_chunk_grid_rectilinear",
             {"chunk_grid": {"type": "rectilinear", "chunk_shape": [CHUNK]}}, "chunk_grid"),
            ("v3draft_chunk_shape_wrong_rank", {"chunk_grid": grid([CHUNK, CHUNK])}, "ranks"),
            ("v3draft_chunk_shape_zero", {"chunk_grid": grid([0])}, "positive"),
            ("v3draft_separator_dotdot", {"chunk_grid": grid([CHUNK], "..")}, "separator"),
            ("v3draft_separator_backslash", {"chunk_grid": grid([CHUNK], "\\")}, "separator"),
            ("v3draft_data_type_unknown", {"data_type": "<i16"}, "i16"),
            ("v3draft_data_type_number", {"data_type": 7}, "data_type"),
            ("v3draft_data_type_struct_order", {"data_type": "!i4"}, "!i4"),
            ("v3draft_data_type_object", {"data_type": "|O"}, "object"),
            ("v3draft_data_type_extension_without_type",
             {"data_type": {"extension": "https://example.com/dtype/1.0", "fallback": None}},
             'no "type"'),
            ("v3draft_memory_layout_lowercase", {"chunk_memory_layout": "c"},
             "chunk_memory_layout"),
            ("v3draft_memory_layout_missing", {"chunk_memory_layout": "DELETE"},
             "chunk_memory_layout"),
            ("v3draft_fill_value_missing", {"fill_value": "DELETE"}, "fill_value"),
            ("v3draft_fill_value_text_for_int", {"fill_value": "zero"}, "fill"),
            ("v3draft_fill_value_out_of_range", {"fill_value": 2 ** 40}, "fill"),
            ("v3draft_compressor_string", {"compressor": "zlib"}, "compressor"),
            ("v3draft_compressor_unknown_uri", {"compressor": draft_compressor("zfp")}, "zfp"),
            ("v3draft_compressor_configuration_list",
             {"compressor": {"codec": CODEC_URI % "zlib", "configuration": [1]}}, "configuration"),
            ("v3draft_compressor_level_text", {"compressor": draft_compressor("zlib", level="max")},
             "level"),
            # The URI names zlib; an "id" in the configuration must not swap in another codec.
            ("v3draft_compressor_id_overrides_uri",
             {"compressor": draft_compressor("zlib", id="delta", dtype="<i4")}, "configuration id"),
            ("v3draft_extension_must_understand",
             {"extensions": [{"extension": "https://example.com/ext/1.0", "must_understand": True}]},
             "extension"),
            ("v3draft_attributes_list", {"attributes": [1]}, "attributes"),
            ("v3draft_storage_transformer_sharding", {"storage_transformers": sharding},
             "storage_transformers")]:
        v3draft(out, name, array_json(**over))
        case(name, "v3draft", DRAFT_ARRAY_KEY, error, "open", "bad .array.json field: %s"
             % list(over))
    for name, body, error in [
            ("v3draft_array_json_non_utf8", b'{"shape": [20], "data_type": "<\xc3\x28i4"}', "JSON"),
            ("v3draft_array_json_nested_10000",
             b'{"shape": [20], "attributes": ' + b"[" * 10000 + b"]" * 10000 + b"}", "nesting")]:
        v3draft(out, name)
        put(out, name, DRAFT_ARRAY_KEY, body)
        case(name, "v3draft", DRAFT_ARRAY_KEY, error, "open", "unusable .array.json bytes")


def v3draft_chunk_cases(out):
    key = "data/root/a/c1"
    zlib_ok = encoded(Zlib(1), chunk_values(1))
    blosc_ok = encoded(Blosc("lz4", 5, 1), chunk_values(1))
    blosc_2gib = bytearray(blosc_ok)
    struct.pack_into("<I", blosc_2gib, 4, 0x7FFFFFF0)
    gzip_head = bytearray(encoded(GZip(1), chunk_values(1)))
    for i in range(8):
        gzip_head[i] ^= 0x5A
    blosc = draft_compressor("blosc", cname="lz4", clevel=5, shuffle=1, blocksize=0)
    for name, compressor, codec, data, error, note in [
            ("v3draft_zlib_chunk_truncated", draft_compressor("zlib", level=1), Zlib(1),
             zlib_ok[:len(zlib_ok) // 2], "zlib", "truncated zlib chunk"),
            ("v3draft_zlib_bomb", draft_compressor("zlib", level=1), Zlib(1),
             zeros_stream(zlib.compressobj(9), BOMB_BYTES), "zlib",
             "zlib chunk decoding to 64 MiB for a 32-byte chunk"),
            ("v3draft_gzip_chunk_corrupted_header", draft_compressor("gzip", level=1), GZip(1),
             bytes(gzip_head), "gzip", "gzip header bytes flipped"),
            ("v3draft_bz2_chunk_oversized", draft_compressor("bz2", level=1), BZ2(1),
             encoded(BZ2(1), chunk_values(1)) + b"\xa5" * 64, "bz2", "bz2 stream + 64 bytes"),
            ("v3draft_bz2_bomb", draft_compressor("bz2", level=1), BZ2(1),
             zeros_stream(bz2.BZ2Compressor(9), BOMB_BYTES), "bz2", "bz2 chunk decoding to 64 MiB"),
            ("v3draft_lzma_chunk_truncated", draft_compressor("lzma", format=1, check=-1,
                                                              preset=None, filters=None),
             LZMA(), encoded(LZMA(), chunk_values(1))[:30], "lzma", "truncated xz stream"),
            ("v3draft_lz4_header_claims_2gib", draft_compressor("lz4", acceleration=1), LZ4(1),
             struct.pack("<i", 0x7FFFFFF0) + b"\x00" * 16, "lz4", "lz4 size header says 2 GiB"),
            ("v3draft_blosc_chunk_truncated", blosc, Blosc("lz4", 5, 1), blosc_ok[:20], "blosc",
             "truncated blosc"),
            ("v3draft_blosc_header_claims_2gib", blosc, Blosc("lz4", 5, 1), bytes(blosc_2gib),
             "blosc", "blosc nbytes says 2 GiB"),
            ("v3draft_raw_chunk_short", "DELETE", None, chunk_values(1)[:-4], "bytes",
             "uncompressed chunk 4 bytes short"),
            ("v3draft_raw_chunk_oversized", "DELETE", None, chunk_values(1) + b"\x00" * 4, "bytes",
             "uncompressed chunk 4 bytes too long")]:
        v3draft(out, name, array_json(compressor=compressor), chunks={key: data},
                compressor=codec)
        case(name, "v3draft", key, error, "read", note)


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    v2_metadata_cases(out)
    v2_consolidated_cases(out)
    v2_chunk_cases(out)
    v1_cases(out)
    v3_metadata_cases(out)
    v3_chunk_cases(out)
    v3_numcodecs_cases(out)
    v3_shard_cases(out)
    v3draft_entry_point_cases(out)
    v3draft_array_cases(out)
    v3draft_chunk_cases(out)
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    with open(os.path.join(out, "hostile-manifest.json"), "w", encoding="utf-8") as f:
        json.dump({"version": 1, "cases": CASES}, f, indent=1)
    print("wrote %d hostile stores to %s" % (len(CASES), out))


if __name__ == "__main__":
    main()
