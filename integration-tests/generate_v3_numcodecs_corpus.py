#!/usr/bin/python3
"""Zarr v3 arrays with zarr-python 3's numcodecs.* codecs (numcodecs.bitround, numcodecs.blosc, ...),
written the way zarr-python 3 writes them, with numcodecs itself encoding every stage.

zarr-python 3 cannot be installed here (no PyPI), so this script follows its code
(zarr.codecs.numcodecs): a codec named "numcodecs.<id>" is numcodecs' codec <id> configured with
the "configuration" object; an array→array one (delta, bitround, fixedscaleoffset, quantize,
packbits, astype) encodes the chunk as a C-contiguous numpy array and decodes back into the
chunk's shape; a bytes→bytes one (compressors, checksums, shuffle) sees the chunk's bytes as a
uint8 array. Everything else is the v3 core layout. Debian's numcodecs 0.11 does the encoding
and the decoding; it has no CRC32C, so the sharding index checksum is computed here.

  generate_v3_numcodecs_corpus.py OUTDIR            writes OUTDIR/numcodecs.zarr (a v3 group with
                                                    one array per case), OUTDIR/expected/ and
                                                    OUTDIR/manifest.json; then verifies it
  generate_v3_numcodecs_corpus.py --verify MANIFEST decodes every chunk of every array back through
                                                    numcodecs and compares with the expected files;
                                                    prints "N passed, M failed"; exits 1 on a failure
  generate_v3_numcodecs_corpus.py --dump STORE PATH prints the values of one array (C order, NaN as
                                                    null) as JSON, decoded the same way: what the Java
                                                    write tests compare v3 arrays with numcodecs.*
                                                    codecs against

Expected values are what numcodecs decodes (lossy filters change the values), in the manifest
layout V3CorpusTest reads (integration-tests/README.md).
"""
import base64
import itertools
import json
import os
import shutil
import struct
import sys

import numcodecs
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus_common as cc  # noqa: E402

STORE = "numcodecs.zarr"
BYTES = {"name": "bytes", "configuration": {"endian": "little"}}
BYTES_NO_ENDIAN = {"name": "bytes"}  # as zarr-python 3 writes it for 1-byte and raw types
NO_CHUNK = 2 ** 64 - 1


def nc(name, **config):
    return {"name": "numcodecs." + name, "configuration": config}


def numcodec(entry):
    return numcodecs.get_codec({"id": entry["name"][len("numcodecs."):], **entry["configuration"]})


def is_array_filter(entry):
    return entry["name"].startswith("numcodecs.") and entry["name"].split(".", 1)[1] in {"delta", "bitround", "fixedscaleoffset", "quantize",
                                             "packbits", "astype"}


# ---- encoding, as zarr-python 3's codec pipeline runs it ----------------------------------------

def encode(block, codecs):
    """One chunk (a numpy array of the chunk's shape) through a v3 "codecs" list."""
    a, b = block, None
    for entry in codecs:
        name = entry["name"]
        if name == "transpose":
            a = a.transpose(entry["configuration"]["order"])
        elif name == "bytes":
            endian = "<" if entry.get("configuration", {}).get("endian", "little") == "little" else ">"
            b = np.ascontiguousarray(a.astype(a.dtype.newbyteorder(endian))).tobytes()
        elif name == "sharding_indexed":
            b = encode_shard(a, entry["configuration"])
        elif name == "scale_offset":
            a = scale_offset(a, entry.get("configuration", {}), encode=True)
        elif name == "cast_value":
            a = cast_value(a, entry["configuration"], native_type(entry["configuration"]["data_type"]), "encode")
        elif name == "crc32c":
            b = b + struct.pack("<I", cc.crc32c(b))
        elif name == "zstd":  # the core codec: a zstd frame, as numcodecs writes it
            b = bytes(numcodecs.Zstd(level=entry["configuration"]["level"]).encode(b))
        elif is_array_filter(entry):
            a = np.asarray(numcodec(entry).encode(np.ascontiguousarray(a)))
        else:
            b = bytes(numcodec(entry).encode(np.frombuffer(b, dtype="u1")))
    return b


def encode_shard(shard, config):
    """Inner chunks one after another, then their (offset, length) index; all-fill ones left out."""
    inner = config["chunk_shape"]
    grid = [s // c for s, c in zip(shard.shape, inner)]
    data, index = b"", []
    for idx in itertools.product(*[range(g) for g in grid]):
        part = shard[tuple(slice(i * c, (i + 1) * c) for i, c in zip(idx, inner))]
        if part.dtype.kind == "f" and np.all(np.isnan(part)):
            index.append((NO_CHUNK, NO_CHUNK))
            continue
        enc = encode(part, config["codecs"])
        index.append((len(data), len(enc)))
        data += enc
    table = np.array(index, dtype="<u8").reshape(grid + [2])
    return data + encode(table, config["index_codecs"])


# ---- decoding, the same pipeline backwards -------------------------------------------------------

def decode(stored, codecs, dtype, shape):
    """Stored bytes back to a numpy array of `shape`, through numcodecs' decode."""
    # work out the dtype and shape each array stage sees, as zarr-python's resolve_metadata does
    stages, dt, sh = [], np.dtype(dtype), tuple(shape)
    for entry in codecs:
        stages.append((dt, sh))
        if entry["name"] == "transpose":
            sh = tuple(sh[i] for i in entry["configuration"]["order"])
        elif entry["name"] == "cast_value":
            dt = native_type(entry["configuration"]["data_type"])
        elif entry["name"].startswith("numcodecs.") and is_array_filter(entry):
            cfg = entry["configuration"]
            codec_id = entry["name"].split(".", 1)[1]
            if codec_id == "packbits":
                dt, sh = np.dtype("u1"), (1 + -(-int(np.prod(sh)) // 8),)
            elif codec_id == "astype":
                dt = np.dtype(cfg["encode_dtype"])
            elif cfg.get("astype"):
                dt = np.dtype(cfg["astype"])
    b, a = stored, None
    for entry, (dt, sh) in reversed(list(zip(codecs, stages))):
        name = entry["name"]
        if name == "crc32c":
            assert struct.unpack("<I", b[-4:])[0] == cc.crc32c(b[:-4]), "crc32c mismatch"
            b = b[:-4]
        elif name == "zstd":
            b = bytes(numcodecs.Zstd().decode(b))
        elif name == "bytes":
            endian = "<" if entry.get("configuration", {}).get("endian", "little") == "little" else ">"
            a = np.frombuffer(b, dtype=dt.newbyteorder(endian)).reshape(sh)
        elif name == "sharding_indexed":
            a = decode_shard(b, entry["configuration"], dt, sh)
        elif name == "transpose":
            a = a.transpose(np.argsort(entry["configuration"]["order"]))
        elif name == "scale_offset":
            a = scale_offset(a, entry.get("configuration", {}), encode=False)
        elif name == "cast_value":
            a = cast_value(a, entry["configuration"], dt, "decode")
        elif is_array_filter(entry):
            a = np.asarray(numcodec(entry).decode(a)).reshape(sh)
        else:
            b = bytes(numcodec(entry).decode(np.frombuffer(b, dtype="u1")))
    return a


def decode_shard(b, config, dtype, shape):
    inner = config["chunk_shape"]
    grid = [s // c for s, c in zip(shape, inner)]
    index_size = int(np.prod(grid)) * 16 + 4
    table = decode(b[-index_size:], config["index_codecs"], "<u8", grid + [2])
    out = np.full(shape, np.nan, dtype=dtype)
    for idx in itertools.product(*[range(g) for g in grid]):
        offset, length = (int(x) for x in table[idx])
        if offset == NO_CHUNK:
            continue
        out[tuple(slice(i * c, (i + 1) * c) for i, c in zip(idx, inner))] = \
            decode(b[offset:offset + length], config["codecs"], dtype, inner)
    return out


# ---- scale_offset and cast_value (zarr-extensions), as their specs and zarr-python 3 define them ----

def scale_offset(a, config, encode):
    """(a - offset) * scale, or a / scale + offset, in a's own type; integers exactly."""
    offset = a.dtype.type(config.get("offset", 0))
    scale = a.dtype.type(config.get("scale", 1))
    if a.dtype.kind == "f":
        out = (a - offset) * scale if encode else a / scale + offset
        assert out.dtype == a.dtype
        return out
    wide = a.astype("i8")
    if encode:
        out = (wide - int(offset)) * int(scale)
    else:
        assert not np.any(wide % int(scale)), "not a multiple of the scale"
        out = wide // int(scale) + int(offset)
    info = np.iinfo(a.dtype)
    assert out.min() >= info.min and out.max() <= info.max, "outside the type"
    return out.astype(a.dtype)


ROUND = {"nearest-even": np.rint, "towards-zero": np.trunc, "towards-positive": np.ceil,
         "towards-negative": np.floor}


def cast_value(a, config, target, direction):
    """a as `target`: scalar_map entries first, then rounding and the out_of_range rule."""
    out = np.empty(a.shape, dtype=target)
    done = np.zeros(a.shape, dtype=bool)
    for key, value in config.get("scalar_map", {}).get(direction, []):
        hit = np.isnan(a) if key == "NaN" else a == key
        out[hit] = np.nan if value == "NaN" else value
        done |= hit
    rest = a[~done]
    if target.kind in "iu":
        if a.dtype.kind == "f":
            assert not np.any(np.isnan(rest)), "NaN without a scalar_map entry"
            rest = ROUND[config.get("rounding", "nearest-even")](rest)
        info = np.iinfo(target)
        if config.get("out_of_range") == "clamp":
            rest = np.clip(rest, info.min, info.max)
        assert rest.size == 0 or (rest.min() >= info.min and rest.max() <= info.max), "out of range"
    out[~done] = rest.astype(target)
    return out


# ---- the cases ------------------------------------------------------------------------------------

def field(name, shape, dtype):
    """A smooth field with noise, as climate variables are."""
    rng = cc.rng_for(name)
    axes = np.meshgrid(*[np.linspace(0, 3, s) for s in shape], indexing="ij")
    smooth = sum(np.sin(x * (k + 1)) for k, x in enumerate(axes)) * 20 + 280
    return (smooth + rng.normal(0, 0.5, shape)).astype(dtype)


def integers(name, shape, dtype):
    return np.cumsum(cc.rng_for(name).integers(-3, 4, int(np.prod(shape))), dtype="i8") \
        .reshape(shape).astype(dtype)


def with_nans(a, name):
    a = a.copy()
    a.ravel()[cc.rng_for(name + "nan").random(a.size) < 0.05] = np.nan
    return a


def booleans(name, shape):
    return cc.rng_for(name).random(shape) < 0.3


SHARD = {"name": "sharding_indexed", "configuration": {
    "chunk_shape": [4, 8], "index_location": "end",
    "codecs": [nc("bitround", keepbits=8), BYTES, nc("zstd", level=1)],
    "index_codecs": [BYTES, {"name": "crc32c"}]}}

# name, data, chunks, fill value, codecs, note
CASES = [
    ("bitround_blosc_f4", lambda n: field(n, (40, 30), "<f4"), (16, 16), "NaN",
     [nc("bitround", keepbits=10), BYTES, nc("blosc", cname="lz4", clevel=5, shuffle=1, blocksize=0)],
     "what a climate user writes: bitround then blosc lz4, edge chunks, chunks left out"),
    ("bitround_zstd_f8_3d", lambda n: field(n, (6, 10, 12), "<f8"), (4, 5, 6), "NaN",
     [nc("bitround", keepbits=20), BYTES, nc("zstd", level=3)], "bitround on float64, 3-D"),
    ("quantize_zlib_f4", lambda n: field(n, (25, 20), "<f4"), (10, 10), "NaN",
     [nc("quantize", digits=2, dtype="float32"), BYTES, nc("zlib", level=1)],
     "quantize as zarr-python 3 evolves it (dtype named \"float32\")"),
    ("quantize_f8_to_f4", lambda n: field(n, (20, 20), "<f8"), (8, 8), "NaN",
     [nc("quantize", digits=3, dtype="<f8", astype="<f4"), BYTES, nc("gzip", level=1)],
     "quantize that narrows float64 to float32 (decoded, not left out)"),
    ("delta_lz4_i4", lambda n: integers(n, (30, 17), "<i4"), (10, 6), 0,
     [nc("delta", dtype="int32"), BYTES, nc("lz4", acceleration=1)], "delta of int32, lz4"),
    ("delta_i8_to_i2", lambda n: integers(n, (50,), "<i8"), (16,), 0,
     [nc("delta", dtype="<i8", astype="<i2"), BYTES, nc("bz2", level=1)],
     "delta narrowing int64 to int16, bz2"),
    ("fixedscaleoffset_f8_to_u2", lambda n: field(n, (24, 18), "<f8"), (8, 9), "NaN",
     [nc("fixedscaleoffset", offset=200, scale=100, dtype="float64", astype="uint16"), BYTES,
      nc("zstd", level=1)], "CF-style packing of float64 into uint16"),
    ("astype_f8_to_f4", lambda n: field(n, (16, 16), "<f8"), (8, 8), "NaN",
     [nc("astype", encode_dtype="float32", decode_dtype="float64"), BYTES, nc("lzma", preset=1)],
     "astype stores float64 as float32, lzma"),
    ("packbits_bool", lambda n: booleans(n, (21, 13)), (10, 7), False,
     [nc("packbits"), BYTES, nc("zlib", level=1)], "packbits of bool chunks (not a multiple of 8)"),
    ("shuffle_crc32_i2", lambda n: integers(n, (40, 9), "<i2"), (16, 9), 0,
     [BYTES, nc("shuffle", elementsize=2), nc("zlib", level=1), nc("crc32")],
     "byte shuffle, zlib and a CRC32 (at the start) as bytes codecs"),
    ("adler32_u1", lambda n: integers(n, (33,), "u1"), (10,), 0,
     [BYTES, nc("adler32")], "uint8 with only an Adler-32 checksum"),
    ("transpose_bitround_blosc_f4", lambda n: field(n, (12, 20), "<f4"), (6, 10), "NaN",
     [{"name": "transpose", "configuration": {"order": [1, 0]}}, nc("bitround", keepbits=6), BYTES,
      nc("blosc", cname="zstd", clevel=3, shuffle=2, blocksize=0)],
     "transpose, then bitround, then blosc zstd with bit shuffle"),
    ("raw_bytes_v4_zlib", lambda n: cc.rng_for(n).integers(0, 256, (30, 4), dtype="u1").view("V4")[:, 0],
     (8,), "AQIDBA==", [BYTES_NO_ENDIAN, nc("zlib", level=1)],
     "zarr-python 3's raw_bytes data type (numpy V4) with its base64 fill value"),
    ("struct_zstd", lambda n: records(n, 23), (6,), {"a": -1, "b": "NaN", "c": 7},
     [BYTES, nc("zstd", level=1)], "a record type (struct: int32, float64, uint8) with a field-wise fill value"),
    ("structured_legacy", lambda n: records(n, 11), (4,), "AQAAAAAAAAAAAPA/Ag==",
     [BYTES_NO_ENDIAN, nc("zlib", level=1)],
     "zarr-python 3.0's \"structured\" records: base64 fill (1, 1.0, 2), bytes without endian (little)"),
    ("packed_scale_offset_cast_i2", lambda n: with_nans(field(n, (30, 20), "<f4"), n), (10, 10), "NaN",
     [{"name": "scale_offset", "configuration": {"offset": 280, "scale": 100}},
      {"name": "cast_value", "configuration": {"data_type": "int16", "scalar_map": {
          "encode": [["NaN", -32768]], "decode": [[-32768, "NaN"]]}}},
      BYTES, {"name": "zstd", "configuration": {"level": 1, "checksum": False}}],
     "float32 packed into int16 the zarr-extensions way: scale_offset then cast_value, NaN mapped to -32768"),
    ("scale_offset_i4", lambda n: integers(n, (40,), "<i4") * 2 + 1000, (16,), 0,
     [{"name": "scale_offset", "configuration": {"offset": 1000, "scale": 2}}, BYTES],
     "integers: encoded (x - 1000) * 2, decoded by exact division"),
    ("cast_value_u1_clamp", lambda n: field(n, (50,), "<f8") * 3 - 700, (16,), "NaN",
     [{"name": "cast_value", "configuration": {"data_type": "uint8", "rounding": "towards-zero",
                                               "out_of_range": "clamp"}}, BYTES],
     "float64 stored as uint8, truncated toward zero and clamped to 0..255"),
    ("sharded_bitround_f4", lambda n: field(n, (16, 24), "<f4"), (8, 16), "NaN",
     [SHARD], "zarr-python 3's shards of bitround+zstd inner chunks, crc32c index, empty inner chunks"),
]

# truncated and clamped to uint8: compared with that, not with a tolerance
CLAMPED = {"cast_value_u1_clamp"}

# written whole, so that sums over them are finite (the others leave every fourth chunk out)
WHOLE = {"bitround_zstd_f8_3d", "quantize_zlib_f4", "fixedscaleoffset_f8_to_u2", "delta_lz4_i4"}

V3_TYPES = {"<f4": "float32", "<f8": "float64", "<i4": "int32", "<i8": "int64", "<i2": "int16",
            "|u1": "uint8", "|b1": "bool",
            "|V4": {"name": "raw_bytes", "configuration": {"length_bytes": 4}}}
RECORD = np.dtype([("a", "<i4"), ("b", "<f8"), ("c", "|u1")])


def v3_type(dtype, legacy=False):
    """zarr-python 3's data_type: records as "struct" ({name, data_type} fields), or as the
    "structured" ([name, type]) of zarr-python 3.0 when `legacy`."""
    if dtype.names is None:
        return V3_TYPES[dtype.str]
    fields = [(n, v3_type(dtype.fields[n][0])) for n in dtype.names]
    if legacy:
        return {"name": "structured", "configuration": {"fields": [list(f) for f in fields]}}
    return {"name": "struct", "configuration": {"fields": [{"name": n, "data_type": t} for n, t in fields]}}


def native_type(data_type):
    if isinstance(data_type, dict) and data_type["name"] in ("struct", "structured"):
        fields = [(f["name"], f["data_type"]) if isinstance(f, dict) else tuple(f)
                  for f in data_type["configuration"]["fields"]]
        return np.dtype([(n, native_type(t)) for n, t in fields])
    return np.dtype(next(k for k, v in V3_TYPES.items() if v == data_type))


def records(name, n):
    rng = cc.rng_for(name)
    out = np.zeros(n, dtype=RECORD)
    out["a"] = rng.integers(-1000, 1000, n)
    out["b"] = rng.normal(0, 10, n)
    out["c"] = rng.integers(0, 256, n)
    return out


def fill_of(fill, dtype):
    """The fill value in memory: NaN, a number, or base64 bytes (raw_bytes)."""
    if fill == "NaN":
        return np.nan
    if isinstance(fill, dict):  # a record's fields
        return np.array([tuple(np.nan if fill[n] == "NaN" else fill[n] for n in dtype.names)], dtype)[0]
    if dtype.kind == "V":
        return np.frombuffer(base64.b64decode(fill), dtype=dtype)[0]
    return fill


def chunk_blocks(data, chunks, fill):
    """(chunk index, full chunk padded with the fill value) for every chunk of the grid."""
    grid = [-(-s // c) for s, c in zip(data.shape, chunks)]
    for idx in itertools.product(*[range(g) for g in grid]):
        sel = tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(idx, chunks, data.shape))
        part = data[sel]
        block = np.full(chunks, fill_of(fill, data.dtype), dtype=data.dtype)
        block[tuple(slice(0, p) for p in part.shape)] = part
        yield idx, sel, block


def array_doc(data, chunks, fill, codecs, name):
    return {"zarr_format": 3, "node_type": "array", "shape": list(data.shape),
            "data_type": v3_type(data.dtype, legacy=name.startswith("structured")),
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
            "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
            "fill_value": fill, "codecs": codecs, "attributes": {"case": name},
            "dimension_names": ["d%d" % i for i in range(data.ndim)], "storage_transformers": []}


def generate(out):
    if os.path.exists(out):
        shutil.rmtree(out)
    store = os.path.join(out, STORE)
    cc.dump_json(os.path.join(store, "zarr.json"),
                 {"zarr_format": 3, "node_type": "group", "attributes": {}})
    manifest = {"manifest_version": 1, "generator": "integration-tests/generate_v3_numcodecs_corpus.py",
                "numcodecs": numcodecs.__version__, "numpy": np.__version__, "groups": [], "arrays": []}
    for name, make, chunks, fill, codecs, note in CASES:
        data = make(name)
        doc = array_doc(data, chunks, fill, codecs, name)
        cc.dump_json(os.path.join(store, name, "zarr.json"), doc)
        written = data.copy()
        for n, (idx, sel, block) in enumerate(chunk_blocks(data, chunks, fill)):
            if n % 4 == 3 and name not in WHOLE:
                written[sel] = fill_of(fill, data.dtype)
                continue  # left out: reads as the fill value
            key = os.path.join(store, name, "c", *map(str, idx))
            cc.write_file(key, encode(block, codecs))
        expected = read(store, name)
        # lossy filters change the values a little; anything more is a bug in this script
        if name in CLAMPED:
            np.testing.assert_array_equal(expected, np.clip(np.trunc(written), 0, 255), err_msg=name)
        elif data.dtype.kind == "V":
            assert expected.tobytes() == written.tobytes(), name  # raw bytes and records: exact
        else:
            np.testing.assert_allclose(expected.astype("f8"), written.astype("f8"), rtol=0.01,
                                       atol=0.01, err_msg=name)
        rel = os.path.join("expected", name + ".bin")
        cc.write_file(os.path.join(out, rel), cc.raw_expected_bytes(expected))
        manifest["arrays"].append({
            "store": STORE, "path": name, "shape": list(data.shape), "chunks": list(chunks),
            "data_type": doc["data_type"], "codecs": codecs, "dimension_names": doc["dimension_names"],
            "attributes": doc["attributes"],
            "expected": {"file": rel, "format": "raw", "sha256": cc.sha256_bytes(cc.raw_expected_bytes(expected))},
            "note": note})
    cc.dump_json(os.path.join(out, "manifest.json"), manifest)
    print("wrote %d numcodecs.* v3 arrays to %s" % (len(CASES), out))


def read(store, path):
    """The whole array as this module's numcodecs-backed reader sees it."""
    with open(os.path.join(store, path, "zarr.json")) as f:
        doc = json.load(f)
    dtype = native_type(doc["data_type"])
    chunks = doc["chunk_grid"]["configuration"]["chunk_shape"]
    fill = doc["fill_value"]
    out = np.full(doc["shape"], fill_of(fill, dtype), dtype=dtype)
    for idx, sel, _ in chunk_blocks(out, chunks, fill):
        key = os.path.join(store, path, "c", *map(str, idx))
        if not os.path.exists(key):
            continue
        with open(key, "rb") as f:
            block = decode(f.read(), doc["codecs"], dtype, chunks)
        out[sel] = block[tuple(slice(0, s.stop - s.start) for s in sel)]
    return out


def verify(manifest_path):
    base = os.path.dirname(os.path.abspath(manifest_path))
    with open(manifest_path) as f:
        manifest = json.load(f)
    passed = failed = 0
    for e in manifest["arrays"]:
        got = cc.raw_expected_bytes(read(os.path.join(base, e["store"]), e["path"]))
        with open(os.path.join(base, e["expected"]["file"]), "rb") as f:
            want = f.read()
        if got == want:
            passed += 1
        else:
            failed += 1
            print("FAIL %s: values differ" % e["path"])
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--verify":
        verify(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[1] == "--dump":
        values = read(sys.argv[2], sys.argv[3]).ravel().tolist()
        print(json.dumps([None if isinstance(v, float) and v != v else v for v in values]))
    elif len(sys.argv) == 2:
        generate(sys.argv[1])
        verify(os.path.join(sys.argv[1], "manifest.json"))
    else:
        sys.exit(__doc__)
