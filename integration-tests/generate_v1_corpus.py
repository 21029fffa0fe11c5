#!/usr/bin/python3
"""Zarr v1 stores written from the spec ("Zarr storage specification version 1") with numpy and
numcodecs, independently of our Java code, plus a spec-based v1 reader that checks stores we wrote.

  /usr/bin/python3 generate_v1_corpus.py OUTDIR         writes OUTDIR/<case>/ (meta, attrs, "i.j"
                                                        chunks), OUTDIR/expected/, OUTDIR/manifest.json
  /usr/bin/python3 generate_v1_corpus.py --verify MANIFEST
                                                        reads every array of MANIFEST with the reader
                                                        below; prints "N passed, M failed"
"""
import hashlib
import itertools
import json
import os
import shutil
import sys
import zlib

import numcodecs
import numpy as np


def compressor(name, opts):
    """The codec a v1 'compression' names (None for 'none')."""
    if name == "none":
        return None
    if name == "blosc":
        return numcodecs.Blosc(cname=opts["cname"], clevel=opts["clevel"], shuffle=opts["shuffle"])
    if name == "zlib":
        return numcodecs.Zlib(level=opts)
    if name == "bz2":
        return numcodecs.BZ2(level=opts)
    if name == "lzma":
        return numcodecs.LZMA(**(opts or {}))
    raise ValueError("unknown v1 compression " + name)


def write_v1(path, data, chunks, compression, opts, fill_value, order, attrs):
    os.makedirs(path)
    meta = {"zarr_format": 1, "shape": list(data.shape), "chunks": list(chunks),
            "dtype": data.dtype.str, "compression": compression, "compression_opts": opts,
            "fill_value": fill_value, "order": order}
    with open(os.path.join(path, "meta"), "w") as f:
        json.dump(meta, f)
    with open(os.path.join(path, "attrs"), "w") as f:
        json.dump(attrs, f)
    codec = compressor(compression, opts)
    grid = [-(-s // c) for s, c in zip(data.shape, chunks)]
    for idx in itertools.product(*[range(g) for g in grid]):
        if sum(idx) % 3 == 2:
            continue  # leave some chunks out: they read as fill_value
        block = np.full(chunks, fill_value if fill_value is not None else 0, dtype=data.dtype)
        sel = tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(idx, chunks, data.shape))
        part = data[sel]
        block[tuple(slice(0, p) for p in part.shape)] = part
        raw = block.tobytes(order=order)
        with open(os.path.join(path, ".".join(map(str, idx))), "wb") as f:
            f.write(raw if codec is None else codec.encode(raw))


def read_v1(path):
    """A v1 reader written from the spec text alone."""
    with open(os.path.join(path, "meta")) as f:
        meta = json.load(f)
    assert meta["zarr_format"] == 1, meta
    dtype = np.dtype(meta["dtype"])
    shape, chunks, order = tuple(meta["shape"]), tuple(meta["chunks"]), meta["order"]
    fill = meta["fill_value"]
    out = np.full(shape, fill if fill is not None else 0, dtype=dtype)
    codec = compressor(meta["compression"], meta["compression_opts"])
    grid = [-(-s // c) for s, c in zip(shape, chunks)]
    for idx in itertools.product(*[range(g) for g in grid]):
        key = os.path.join(path, ".".join(map(str, idx)) if idx else "0")
        if not os.path.exists(key):
            continue
        with open(key, "rb") as f:
            raw = f.read()
        raw = raw if codec is None else codec.decode(raw)
        block = np.frombuffer(bytes(raw), dtype=dtype).reshape(chunks, order=order)
        sel = tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(idx, chunks, shape))
        out[sel] = block[tuple(slice(0, s.stop - s.start) for s in sel)]
    attrs_file = os.path.join(path, "attrs")
    attrs = json.load(open(attrs_file)) if os.path.exists(attrs_file) else {}
    return out, meta, attrs


def little_endian_c(a):
    return a.astype(a.dtype.newbyteorder("<")).tobytes(order="C")


CASES = [
    ("i4_zlib", "<i4", (9, 13), (4, 5), "zlib", 1, 0, "C"),
    ("f8_be_blosc", ">f8", (10, 7), (3, 3), "blosc", {"cname": "lz4", "clevel": 5, "shuffle": 1}, float("nan"), "C"),
    ("u2_bz2_F", "<u2", (6, 11), (4, 4), "bz2", 9, 7, "F"),
    ("i8_lzma", "<i8", (20,), (6,), "lzma", None, -1, "C"),
    ("b1_none", "|b1", (5, 5), (2, 3), "none", None, True, "C"),
    ("f4_blosc_zstd_bitshuffle", "<f4", (8, 8), (8, 3), "blosc", {"cname": "zstd", "clevel": 3, "shuffle": 2}, 1.5, "F"),
]


def generate(out):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "expected"))
    manifest = {"manifest_version": 1, "generator": "integration-tests/generate_v1_corpus.py",
                "numcodecs": numcodecs.__version__, "numpy": np.__version__, "arrays": []}
    for name, dt, shape, chunks, comp, opts, fill, order in CASES:
        rng = np.random.default_rng(zlib.crc32(name.encode()))
        dtype = np.dtype(dt)
        if dtype.kind == "f":
            data = (rng.standard_normal(shape) * 1000).astype(dtype)
        elif dtype.kind == "b":
            data = rng.integers(0, 2, shape).astype(dtype)
        else:
            info = np.iinfo(dtype)
            data = rng.integers(info.min, info.max, shape, dtype=dtype, endpoint=True)
        # a NaN fill value goes into meta as the bare token NaN, as Python's json writes it
        write_v1(os.path.join(out, name), data, chunks, comp, opts, fill, order, {"case": name})
        values, _, _ = read_v1(os.path.join(out, name))
        raw = little_endian_c(values)
        file = "expected/%s.bin" % name
        open(os.path.join(out, file), "wb").write(raw)
        manifest["arrays"].append({"store": name, "path": "", "zarr_format": 1, "shape": list(shape),
                                   "chunks": list(chunks), "dtype": dtype.str, "order": order,
                                   "compression": comp, "attributes": {"case": name},
                                   "expected": {"file": file, "format": "raw",
                                                "sha256": hashlib.sha256(raw).hexdigest()}})
    json.dump(manifest, open(os.path.join(out, "manifest.json"), "w"), indent=1)
    print("wrote %d v1 arrays to %s" % (len(CASES), out))


def verify(manifest_path):
    base = os.path.dirname(manifest_path)
    manifest = json.load(open(manifest_path))
    passed = failed = 0
    for e in manifest["arrays"]:
        name = os.path.join(e["store"], e["path"])
        try:
            values, meta, attrs = read_v1(os.path.join(base, e["store"], e["path"]))
            assert list(values.shape) == e["shape"], "shape %s" % (values.shape,)
            assert meta["chunks"] == e["chunks"], "chunks %s" % meta["chunks"]
            assert np.dtype(meta["dtype"]) == np.dtype(e["dtype"]), "dtype %s" % meta["dtype"]
            if "attributes" in e:
                assert attrs == e["attributes"], "attrs %s" % attrs
            expected = open(os.path.join(base, e["expected"]["file"]), "rb").read()
            assert little_endian_c(values) == expected, "values differ"
            print("ok   " + name)
            passed += 1
        except Exception as ex:  # report every array, then fail
            print("FAIL %s: %s" % (name, ex))
            failed += 1
    print("%d passed, %d failed" % (passed, failed))
    sys.exit(0 if failed == 0 and passed > 0 else 1)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--verify":
        verify(sys.argv[2])
    elif len(sys.argv) == 2:
        generate(sys.argv[1])
    else:
        sys.exit(__doc__)
