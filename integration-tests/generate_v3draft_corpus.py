#!/usr/bin/python3
"""Zarr stores in the 2022 v3 draft layout, written by Debian's zarr-python 2.13 (its
experimental v3 API), plus a verifier that reads stores we wrote with the same zarr-python.

Run with /usr/bin/python3 (not the pyenv python3 on PATH); ZARR_V3_EXPERIMENTAL_API=1 is set here.

  generate_v3draft_corpus.py OUTDIR           writes OUTDIR/draft.zarr (zarr-python's layout:
                                              meta/root/..., data/root/...), OUTDIR/draft_noroot.zarr
                                              (the same files with the root/ segment dropped, as the
                                              draft's later text has it), OUTDIR/expected/ and
                                              OUTDIR/manifest.json; then verifies it
  generate_v3draft_corpus.py --verify MANIFEST
                                              opens every array of MANIFEST with zarr-python 2.13 and
                                              compares metadata and every value, and every group
                                              (attributes, implicit ones found); prints "ok"/"FAIL"
                                              lines and "N passed, M failed"; exits 1 on a failure

Manifest: the v2 corpus layout (integration-tests/README.md) with the draft's fields: "dtype" is
the numpy dtype (string or [name, type] list), "order" the chunk_memory_layout, "fill_value" and
"compressor" exactly as in the .array.json (compressor null when absent), "separator" the
chunk_grid separator, "layout" "root" or "noroot", "zarr_format" "3draft".
"""
import os

os.environ["ZARR_V3_EXPERIMENTAL_API"] = "1"  # before importing zarr: enables its v3 classes

import json
import math
import shutil
import sys
import tempfile

import numcodecs
import numpy as np
import zarr
from zarr._storage.v3 import DirectoryStoreV3

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus_common as cc  # noqa: E402

STORE = "draft.zarr"
NOROOT_STORE = "draft_noroot.zarr"
ZLIB = numcodecs.Zlib(level=1)


def dtype_cases():
    """(name, dtype, values maker) for the data type cases: 7x5 arrays in 3x2 chunks."""
    def ints(dt):
        def make(rng, shape):
            info = np.iinfo(dt)
            a = rng.integers(-50, 50, size=shape).astype(dt) if info.min < 0 else \
                rng.integers(0, 100, size=shape).astype(dt)
            flat = a.reshape(-1)
            flat[0], flat[1] = info.min, info.max
            return a
        return make

    def floats(dt):
        def make(rng, shape):
            a = (rng.standard_normal(shape) * 1000).astype(dt)
            flat = a.reshape(-1)
            flat[0], flat[1], flat[2], flat[3] = np.nan, np.inf, -np.inf, -0.0
            return a
        return make

    cases = []
    for code in ["i1", "u1", "<i2", ">i2", "<i4", ">i4", "<i8", ">i8", "<u2", ">u2", "<u4", ">u4",
                 "<u8", ">u8"]:
        cases.append((code, np.dtype(code), ints(np.dtype(code))))
    for code in ["<f2", ">f2", "<f4", ">f4", "<f8", ">f8"]:
        cases.append((code, np.dtype(code), floats(np.dtype(code))))
    cases.append(("bool", np.dtype("|b1"), lambda rng, s: rng.integers(0, 2, size=s).astype(bool)))
    cases.append(("<c8", np.dtype("<c8"),
                  lambda rng, s: (rng.standard_normal(s) + 1j * rng.standard_normal(s)).astype("<c8")))
    cases.append((">c16", np.dtype(">c16"),
                  lambda rng, s: (rng.standard_normal(s) - 1j * rng.standard_normal(s)).astype(">c16")))
    for code in ["<M8[s]", ">M8[ns]", "<M8[D]", "<m8[ms]", ">m8[h]"]:
        def dt_make(rng, s, code=code):
            a = rng.integers(-10**6, 10**6, size=s).astype("<i8").view(code.replace(">", "<"))
            a.reshape(-1)[3] = np.datetime64("NaT") if "M" in code else np.timedelta64("NaT")
            return a.astype(code)
        cases.append((code, np.dtype(code), dt_make))
    cases.append(("|S4", np.dtype("|S4"),
                  lambda rng, s: np.array([b"ab", b"", b"wxyz", b"q\x00r"] * 9, dtype="|S4")[:35].reshape(s)))
    cases.append(("<U3", np.dtype("<U3"),
                  lambda rng, s: np.array(["é日", "", "abc", "\U0001F600"] * 9, dtype="<U3")[:35].reshape(s)))
    cases.append((">U2", np.dtype(">U2"),
                  lambda rng, s: np.array(["ß", "z", "", "日本"] * 9, dtype=">U2")[:35].reshape(s)))
    st = np.dtype([("a", "<i2"), ("b", ">f4"), ("c", "|S2")])
    cases.append(("struct", st, lambda rng, s: np.array(
        [(i, i / 4.0, bytes([97 + i % 26]) * 2) for i in range(35)], dtype=st).reshape(s)))
    return cases


def file_name(code):
    return (code.replace("<", "le_").replace(">", "be_").replace("|", "")
            .replace("[", "_").replace("]", ""))


class Corpus:
    def __init__(self, out):
        self.out = out
        self.store = DirectoryStoreV3(os.path.join(out, STORE))
        self.root = zarr.group(store=self.store, zarr_version=3)
        self.arrays = []
        self.groups = []

    def add(self, path, data, note, write=None, **kwargs):
        """Creates the array, writes data (or lets write() do it), records what zarr reads back."""
        z = self.root.create_dataset(path, shape=data.shape, dtype=data.dtype, **kwargs)
        if write is None:
            z[...] = data
        else:
            write(z, data)
        if "attrs" in note:
            z.attrs.update({"units": "K", "nested": {"list": [1, 2.5, None]}, "text": "é"})
        self.record(path, note)

    def record(self, path, note):
        z = zarr.open_array(store=self.store, path=path, mode="r", zarr_version=3)
        doc = json.loads(self.store[zarr.storage.meta_root + path + ".array.json"])
        back = z[...]
        rel = "expected/" + path + ".bin"
        raw = cc.raw_expected_bytes(back)
        cc.write_file(os.path.join(self.out, rel), raw)
        dtype = back.dtype
        entry = {
            "store": STORE, "path": path, "layout": "root", "zarr_format": "3draft",
            "shape": list(z.shape), "chunks": list(z.chunks),
            "dtype": dtype.descr if dtype.fields else dtype.str,
            "order": doc["chunk_memory_layout"], "fill_value": doc["fill_value"],
            "compressor": doc.get("compressor"), "separator": doc["chunk_grid"]["separator"],
            "expected": {"file": rel, "format": "raw", "sha256": cc.sha256_bytes(raw)},
            "note": note,
        }
        if doc["attributes"]:
            entry["attributes"] = doc["attributes"]
        self.arrays.append(entry)

    def group(self, path, attrs, implicit=False):
        if not implicit:
            g = self.root.create_group(path) if path else self.root
            g.attrs.update(attrs)
        self.groups.append({"store": STORE, "path": path, "layout": "root",
                            "attributes": attrs, "implicit": implicit})


def generate(out):
    if os.path.exists(out):
        for name in (STORE, NOROOT_STORE, "expected", "manifest.json"):
            p = os.path.join(out, name)
            shutil.rmtree(p) if os.path.isdir(p) else (os.path.exists(p) and os.remove(p))
    os.makedirs(out, exist_ok=True)
    c = Corpus(out)
    c.group("", {"title": "v3 draft corpus", "made_by": "zarr-python " + zarr.__version__})
    c.group("grp", {"kind": "explicit"})
    c.group("grp/sub", {"depth": 2})

    for code, dtype, make in dtype_cases():
        name = file_name(code)
        data = make(cc.rng_for("dtypes/" + name), (7, 5))
        c.add("dtypes/" + name, data, code + ": edges in both dimensions (7x5 in 3x2 chunks)",
              chunks=(3, 2), compressor=ZLIB, fill_value=None if dtype.fields else 0)

    codecs = [
        ("blosc_lz4_shuffle", numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)),
        ("blosc_zstd_bitshuffle", numcodecs.Blosc(cname="zstd", clevel=3, shuffle=numcodecs.Blosc.BITSHUFFLE)),
        ("blosc_zlib_noshuffle", numcodecs.Blosc(cname="zlib", clevel=1, shuffle=numcodecs.Blosc.NOSHUFFLE)),
        ("blosc_blosclz", numcodecs.Blosc(cname="blosclz", clevel=9, shuffle=numcodecs.Blosc.SHUFFLE)),
        ("zlib", numcodecs.Zlib(level=6)), ("gzip", numcodecs.GZip(level=5)),
        ("bz2", numcodecs.BZ2(level=9)), ("lzma", numcodecs.LZMA(preset=1)),
        ("lz4", numcodecs.LZ4(acceleration=1)), ("none", None),
    ]
    for name, codec in codecs:
        rng = cc.rng_for("codecs/" + name)
        c.add("codecs/" + name, rng.integers(-1000, 1000, size=(20, 10)).astype("<i4"),
              "<i4 20x10 in 8x4 chunks, compressor " + name, chunks=(8, 4), compressor=codec)

    def first_chunks(z, data):
        z[0:3, 0:4] = data[0:3, 0:4]  # chunks (0,0) and (0,1) only; the rest stay missing

    rng = cc.rng_for("layout")
    c.add("layout/missing_chunks_fill", rng.integers(0, 9, size=(9, 8)).astype("<i4"),
          "only chunks c0/0 and c0/1 written; the rest read as fill -7",
          write=first_chunks, chunks=(3, 2), compressor=ZLIB, fill_value=-7)
    c.add("layout/missing_chunks_nan", rng.standard_normal((9, 8)),
          "<f8, only two chunks written; the rest read as fill NaN",
          write=first_chunks, chunks=(3, 2), compressor=ZLIB, fill_value=np.nan)
    c.add("layout/separator_dot_2d", rng.integers(0, 100, size=(5, 7)).astype(">i2"),
          "chunk_grid separator '.': keys c0.1", chunks=(2, 3), compressor=ZLIB,
          dimension_separator=".")
    c.add("layout/separator_dot_3d_F", rng.integers(0, 100, size=(5, 4, 3)).astype("<u2"),
          "separator '.', chunk_memory_layout F, edges in every dimension",
          chunks=(2, 3, 2), compressor=ZLIB, dimension_separator=".", order="F")
    c.add("layout/order_F", rng.standard_normal((6, 5)).astype(">f4"),
          "chunk_memory_layout F, big-endian", chunks=(4, 3), compressor=ZLIB, order="F")
    c.add("layout/zero_d", np.array(2.5, dtype="<f8"), "0-d array: its one chunk is c0",
          chunks=(), compressor=None)
    c.add("layout/rank1", np.arange(11, dtype="<i8"), "1-d, keys c0 .. c3", chunks=(3,),
          compressor=ZLIB)
    c.add("layout/chunk_larger_than_array", np.arange(6, dtype="<i4").reshape(2, 3),
          "2x3 in one 4x4 chunk", chunks=(4, 4), compressor=ZLIB)
    c.add("layout/fill_only", np.zeros((4, 4), dtype="<f4"),
          "no chunk written: reads fill 1.5 everywhere", write=lambda z, d: None,
          chunks=(2, 2), compressor=ZLIB, fill_value=1.5)
    c.add("grp/with_attrs", np.arange(12, dtype="<i4").reshape(3, 4),
          "array in an explicit group, with attrs", chunks=(2, 2), compressor=ZLIB)
    c.add("grp/sub/leaf", np.arange(5, dtype="|u1"), "array two groups deep", chunks=(2,),
          compressor=ZLIB)
    c.add("implicit/deeper/arr", np.arange(6, dtype="<f8").reshape(2, 3),
          "array below two implicit groups (no .group.json)", chunks=(1, 3), compressor=ZLIB)
    c.group("implicit", {}, implicit=True)
    c.group("implicit/deeper", {}, implicit=True)

    make_noroot(out)
    arrays = c.arrays + [dict(e, store=NOROOT_STORE, layout="noroot") for e in c.arrays]
    groups = c.groups + [dict(g, store=NOROOT_STORE, layout="noroot") for g in c.groups]
    cc.dump_json(os.path.join(out, "manifest.json"), {
        "manifest_version": cc.MANIFEST_VERSION,
        "generator": "integration-tests/generate_v3draft_corpus.py",
        "zarr": zarr.__version__, "numcodecs": numcodecs.__version__, "numpy": np.__version__,
        "stores": [
            {"store": STORE, "layout": "root",
             "note": "as zarr-python 2.13 writes it: meta/root/<path>.array.json, data/root/<path>/c..."},
            {"store": NOROOT_STORE, "layout": "noroot",
             "note": "draft.zarr with meta/root/X moved to meta/X and data/root/X to data/X "
                     "(the draft's later text); zarr.json and meta/root.group.json unchanged"},
        ],
        "groups": groups,
        "arrays": arrays,
    })
    return len(arrays)


def make_noroot(out):
    """Copies draft.zarr dropping the root/ segment below meta/ and data/."""
    src, dst = os.path.join(out, STORE), os.path.join(out, NOROOT_STORE)
    shutil.copytree(src, dst)
    for top in ("meta", "data"):
        inner = os.path.join(dst, top, "root")
        if os.path.isdir(inner):
            for name in os.listdir(inner):
                shutil.move(os.path.join(inner, name), os.path.join(dst, top, name))
            os.rmdir(inner)


# ---- verifier ---------------------------------------------------------------------------------

def with_root_segment(store_dir):
    """A temporary copy of a store without the root/ segment, put back in zarr-python's layout."""
    tmp = tempfile.mkdtemp(prefix="v3draft-")
    dst = os.path.join(tmp, "store")
    shutil.copytree(store_dir, dst)
    for top in ("meta", "data"):
        base = os.path.join(dst, top)
        if not os.path.isdir(base):
            continue
        os.makedirs(os.path.join(base, "root"), exist_ok=True)
        for name in os.listdir(base):
            if name != "root" and not name.startswith("root."):
                shutil.move(os.path.join(base, name), os.path.join(base, "root", name))
    return tmp, dst


def same_values(got, expected):
    """Byte equality, else NaN-aware equality (NaN equals NaN; -0.0 and 0.0 differ)."""
    if got.tobytes() == expected.tobytes():
        return True
    if got.dtype.fields:
        return all(same_values(got[f], expected[f]) for f in got.dtype.names)
    if got.dtype.kind in "fc":
        g, e = got.view(got.dtype), expected
        parts = [(g.real, e.real), (g.imag, e.imag)] if got.dtype.kind == "c" else [(g, e)]
        for a, b in parts:
            a, b = np.asarray(a), np.asarray(b)
            both_nan = np.isnan(a) & np.isnan(b)
            same = (a.view(np.uint8).reshape(a.shape + (-1,)) == b.view(np.uint8).reshape(b.shape + (-1,))).all(axis=-1)
            if not (same | both_nan).all():
                return False
        return True
    return False


def same_fill(got, wanted):
    if isinstance(wanted, float) and math.isnan(wanted) or wanted == "NaN":
        return isinstance(got, str) and got == "NaN" or isinstance(got, float) and math.isnan(got)
    return got == wanted


def check(base, entry):
    store_dir = os.path.join(base, entry["store"])
    tmp = None
    if entry.get("layout") == "noroot":
        tmp, store_dir = with_root_segment(store_dir)
    try:
        store = DirectoryStoreV3(store_dir)
        z = zarr.open_array(store=store, path=entry["path"], mode="r", zarr_version=3)
        doc = json.loads(store[zarr.storage.meta_root + entry["path"] + ".array.json"])
        dtype = cc.dtype_from_json(entry["dtype"])
        problems = []
        if z.dtype != dtype:
            problems.append("dtype %s, manifest says %s" % (z.dtype, dtype))
        if list(z.shape) != entry["shape"] or list(z.chunks) != entry["chunks"]:
            problems.append("shape/chunks %s/%s, manifest says %s/%s"
                            % (z.shape, z.chunks, entry["shape"], entry["chunks"]))
        if z.order != entry["order"]:
            problems.append("order %s, manifest says %s" % (z.order, entry["order"]))
        if not same_fill(doc["fill_value"], entry["fill_value"]):
            problems.append("fill_value %r, manifest says %r" % (doc["fill_value"], entry["fill_value"]))
        wanted = entry.get("compressor")
        got = doc.get("compressor")
        if (wanted is None) != (got is None) or (got and got["codec"] != wanted["codec"]):
            problems.append("compressor %s, manifest says %s" % (got, wanted))
        if doc["chunk_grid"]["separator"] != entry["separator"]:
            problems.append("separator %r, manifest says %r" % (doc["chunk_grid"]["separator"], entry["separator"]))
        if "attributes" in entry and dict(z.attrs) != entry["attributes"]:
            problems.append("attributes %s, manifest says %s" % (dict(z.attrs), entry["attributes"]))
        with open(os.path.join(base, entry["expected"]["file"]), "rb") as f:
            raw = f.read()
        if "sha256" in entry["expected"] and cc.sha256_bytes(raw) != entry["expected"]["sha256"]:
            problems.append("expected file does not match its sha256")
        expected = np.frombuffer(raw, dtype=dtype.newbyteorder("<")).reshape(z.shape)
        got_values = cc.little_endian(np.asarray(z[...])).reshape(z.shape)
        if got_values.shape != expected.shape or not same_values(got_values, expected):
            problems.append("values differ")
        return problems
    finally:
        if tmp:
            shutil.rmtree(tmp)


def check_group(base, entry):
    """zarr-python finds the group (explicit or implicit) with the manifest's attributes."""
    store_dir = os.path.join(base, entry["store"])
    tmp = None
    if entry.get("layout") == "noroot":
        tmp, store_dir = with_root_segment(store_dir)
    try:
        root = zarr.open_group(store=DirectoryStoreV3(store_dir), mode="r", zarr_version=3)
        g = root[entry["path"]] if entry["path"] else root
        if not isinstance(g, zarr.hierarchy.Group):
            return ["not a group"]
        if dict(g.attrs) != entry["attributes"]:
            return ["attributes %s, manifest says %s" % (dict(g.attrs), entry["attributes"])]
        return []
    finally:
        if tmp:
            shutil.rmtree(tmp)


def verify(manifest_path):
    base = os.path.dirname(os.path.abspath(manifest_path))
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)
    passed = failed = 0
    nodes = [(check, e) for e in manifest["arrays"]] + [(check_group, g) for g in manifest.get("groups", [])]
    for checker, entry in nodes:
        name = entry["store"] + "/" + entry["path"]
        try:
            problems = checker(base, entry)
        except Exception as e:  # a store zarr-python cannot open is a failure, not a crash
            problems = ["%s: %s" % (type(e).__name__, e)]
        if problems:
            failed += 1
            print("FAIL %s: %s" % (name, "; ".join(problems)))
        else:
            passed += 1
            print("ok   " + name)
    print("%d passed, %d failed" % (passed, failed))
    return failed == 0


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--verify":
        sys.exit(0 if verify(sys.argv[2]) else 1)
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    n = generate(sys.argv[1])
    print("v3 draft corpus: %d arrays in %s" % (n, sys.argv[1]))
