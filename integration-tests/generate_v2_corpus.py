#!/usr/bin/python3
"""Writes the independent Zarr v2 test corpus with zarr-python 2.13 / numcodecs 0.11.

Usage: /usr/bin/python3 integration-tests/generate_v2_corpus.py [OUTDIR]
(default OUTDIR: src/test/resources/corpus/v2). See integration-tests/README.md for the formats.

Deterministic: every case draws its data from a generator seeded by the case name. Chunk bytes may
differ between runs only where a codec is itself nondeterministic (gzip stores a timestamp).
"""

import json
import lzma
import os
import shutil
import sys

import numpy as np
import numcodecs
import zarr
from numcodecs import (
    LZ4, LZMA, BZ2, CRC32, GZip, JSON, AsType, Adler32, BitRound, Blosc, Categorize, Delta,
    FixedScaleOffset, PackBits, Quantize, Shuffle, VLenBytes, VLenUTF8, Zlib, Zstd)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_common import (  # noqa: E402
    MANIFEST_VERSION, dump_json, json_expected_bytes, raw_expected_bytes, rng_for, sha256_bytes,
    write_file)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "src", "test", "resources", "corpus", "v2")

ZLIB = Zlib(level=1)  # cheap, JDK-decodable default for cases that are not about codecs


class Corpus:
    def __init__(self, outdir):
        self.outdir = outdir
        self.arrays = []
        self.groups = []
        self.stores = []

    def open_store(self, name, attrs=None):
        path = os.path.join(self.outdir, name)
        store = zarr.DirectoryStore(path)
        root = zarr.group(store=store, overwrite=True)
        if attrs:
            root.attrs.update(attrs)
        return root

    def group(self, root, path, attrs=None):
        g = root.require_group(path)
        if attrs:
            g.attrs.update(attrs)
        return g

    def add(self, root, path, note, data=None, write=None, attrs=None, **kw):
        """Creates array `path` in `root`, writes `data` (or calls write(z)), records the case."""
        if data is not None:
            kw.setdefault("shape", np.shape(data))
            kw.setdefault("dtype", np.asarray(data).dtype if not isinstance(data, np.ndarray)
                          else data.dtype)
        kw.setdefault("compressor", ZLIB)
        z = root.create_dataset(path, **kw)
        if write is not None:
            write(z)
        elif data is not None:
            z[...] = data
        if attrs:
            z.attrs.update(attrs)
        return z

    # ---- recording -------------------------------------------------------------------------

    def record_store(self, name, consolidated=False):
        """Reads back every array and group in store `name` and records manifest entries."""
        store_dir = os.path.join(self.outdir, name)
        self.stores.append({"store": name, "consolidated": consolidated})
        root = zarr.open_group(store_dir, mode="r")
        groups, arrays = [("", root)], []

        def walk(g):
            for _, sub in g.groups():
                groups.append((sub.path, sub))
                walk(sub)
            for _, arr in g.arrays():
                arrays.append(arr)
        walk(root)
        for p, g in sorted(groups, key=lambda x: x[0]):
            self.groups.append({"store": name, "path": p, "attributes": dict(g.attrs)})
        for z in sorted(arrays, key=lambda a: a.path):
            self.record_array(name, store_dir, z.path)

    def record_array(self, store_name, store_dir, path):
        with open(os.path.join(store_dir, path, ".zarray"), encoding="utf-8") as f:
            meta = json.load(f)
        z = zarr.open_array(store_dir, path=path, mode="r")
        a = z[...]
        stem = os.path.join("expected", store_name[:-5] if store_name.endswith(".zarr")
                            else store_name, path)
        if a.dtype.hasobject:
            data, fmt, rel = json_expected_bytes(a), "json", stem + ".json"
        else:
            data, fmt, rel = raw_expected_bytes(a), "raw", stem + ".bin"
        write_file(os.path.join(self.outdir, rel), data)
        attrs = dict(z.attrs)
        entry = {
            "store": store_name,
            "path": path,
            "zarr_format": meta["zarr_format"],
            "shape": meta["shape"],
            "chunks": meta["chunks"],
            "dtype": meta["dtype"],
            "order": meta["order"],
            "fill_value": meta["fill_value"],
            "compressor": meta["compressor"],
            "filters": meta["filters"],
            "dimension_separator": meta.get("dimension_separator", "."),
            "expected": {"file": rel.replace(os.sep, "/"), "format": fmt,
                         "sha256": sha256_bytes(data)},
            "note": NOTES.get((store_name, path), ""),
        }
        if attrs:
            entry["attributes"] = attrs
        self.arrays.append(entry)

    def write_manifest(self):
        manifest = {
            "manifest_version": MANIFEST_VERSION,
            "generator": "integration-tests/generate_v2_corpus.py",
            "zarr": zarr.__version__.split("+")[0],
            "numcodecs": numcodecs.__version__.split("+")[0],
            "numpy": np.__version__,
            "stores": self.stores,
            "groups": self.groups,
            "arrays": self.arrays,
        }
        dump_json(os.path.join(self.outdir, "manifest.json"), manifest)


NOTES = {}


def note(store, path, text):
    NOTES[(store, path)] = text


# --------------------------------------------------------------------------------------------
# data helpers

INT_TYPES = ["i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8"]
FLOAT_TYPES = ["f2", "f4", "f8"]
COMPLEX_TYPES = ["c8", "c16"]
TIME_UNITS = ["Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"]
TYPE_NAMES = {"i1": "int8", "i2": "int16", "i4": "int32", "i8": "int64", "u1": "uint8",
              "u2": "uint16", "u4": "uint32", "u8": "uint64", "f2": "float16", "f4": "float32",
              "f8": "float64", "c8": "complex64", "c16": "complex128"}


def int_data(name, t, shape):
    info = np.iinfo(np.dtype(t))
    rng = rng_for(name)
    a = rng.integers(info.min, info.max, size=shape, dtype=np.dtype(t).newbyteorder("="),
                     endpoint=True)
    flat = a.reshape(-1)
    specials = [info.min, info.max, 0, 1]
    if info.min < 0:
        specials += [-1, info.min + 1]
    flat[:len(specials)] = specials
    return a.astype(np.dtype(t))


def float_data(name, t, shape):
    dt = np.dtype(t)
    base = dt.newbyteorder("=")
    rng = rng_for(name)
    a = (rng.standard_normal(size=shape) * 1000).astype(base)
    fi = np.finfo(base)
    specials = [np.nan, np.inf, -np.inf, -0.0, 0.0, fi.max, -fi.max, fi.tiny,
                fi.tiny / 4, -fi.tiny / 8, fi.eps, 1.0]
    flat = a.reshape(-1)
    flat[:len(specials)] = np.array(specials, dtype=base)
    return a.astype(dt)


def complex_data(name, t, shape):
    dt = np.dtype(t)
    ft = "f4" if dt.itemsize == 8 else "f8"
    re = float_data(name + "re", ft, shape).astype(np.dtype(ft))
    im = float_data(name + "im", ft, shape)[::-1].astype(np.dtype(ft)) if len(shape) == 1 else \
        float_data(name + "im", ft, shape).astype(np.dtype(ft))
    im = np.roll(im.reshape(-1), 3).reshape(shape)
    a = np.empty(shape, dtype=dt.newbyteorder("="))
    a.real = re
    a.imag = im
    return a.astype(dt)


def time_data(name, kind, unit, order="<", shape=(23,)):
    rng = rng_for(name)
    limit = {"Y": 3000, "M": 36000, "W": 150000, "D": 1000000}.get(unit, 2 ** 50)
    vals = rng.integers(-limit, limit, size=shape, dtype=np.int64)
    flat = vals.reshape(-1)
    flat[:6] = [0, 1, -1, np.iinfo(np.int64).min, -limit + 7, limit - 3]  # [3] is NaT
    return vals.view("<%s8[%s]" % (kind, unit)).astype("%s%s8[%s]" % (order, kind, unit))


# --------------------------------------------------------------------------------------------
# arrays.zarr

def build_dtypes(c, root):
    S = "arrays.zarr"
    g = c.group(root, "dtypes", {"topic": "dtypes", "description": "one array per numpy dtype"})
    b = rng_for("bool").integers(0, 2, size=(11, 7)).astype(bool)
    c.add(g, "bool", "|b1 with an edge chunk", data=b, chunks=(4, 4))
    note(S, "dtypes/bool", "|b1, values 0/1")
    for t in INT_TYPES + FLOAT_TYPES + COMPLEX_TYPES:
        orders = ["|"] if np.dtype(t).itemsize == 1 else ["<", ">"]
        for bo in orders:
            dt = np.dtype(bo + t if bo != "|" else t)
            name = TYPE_NAMES[t] + {"<": "_le", ">": "_be", "|": ""}[bo]
            shape = (9, 13)
            if t[0] in "iu":
                d = int_data(name, dt, shape)
                nt = "min/max and small values"
            elif t[0] == "f":
                d = float_data(name, dt, shape)
                nt = "NaN, +inf, -inf, -0.0, max, tiny, subnormals"
            else:
                d = complex_data(name, dt, shape)
                nt = "NaN/inf/-0.0/subnormal parts"
            c.add(g, name, nt, data=d, chunks=(4, 5))
            note(S, "dtypes/" + name, "%s: %s; 3x3 chunks with edges" % (dt.str, nt))
    # datetimes / timedeltas, every unit
    for kind, label in (("M", "datetime64"), ("m", "timedelta64")):
        for unit in TIME_UNITS:
            name = "%s_%s" % (label, unit)
            d = time_data(name, kind, unit)
            c.add(g, name, "", data=d, chunks=(10,))
            note(S, "dtypes/" + name, "<%s8[%s]; element 3 is NaT (int64 min); negatives" %
                 (kind, unit))
        for unit in ("ns", "s", "D"):
            name = "%s_%s_be" % (label, unit)
            d = time_data(name, kind, unit, order=">")
            c.add(g, name, "", data=d, chunks=(10,))
            note(S, "dtypes/" + name, ">%s8[%s] big-endian; element 3 is NaT" % (kind, unit))
        for unit in ("10s", "15m", "3D", "250ms"):
            name = "%s_%s" % (label, unit)
            d = time_data(name, kind, "s").view("<i8").view("<%s8[%s]" % (kind, unit))
            c.add(g, name, "", data=d, chunks=(10,))
            note(S, "dtypes/" + name, "multiplied unit <%s8[%s]; element 3 is NaT" % (kind, unit))
    # fixed-length bytes
    sv = np.array([b"", b"a", b"ab\x00cd", b"abcde", b"\x00\x00x", b"ab\x00\x00", b"\xff\xfe",
                   b"\x00", b"zzzzz", b"q"], dtype="S5")
    c.add(g, "bytes_S5", "", data=sv, chunks=(4,))
    note(S, "dtypes/bytes_S5", "|S5 with embedded, leading and trailing NULs, empty, 0xff bytes")
    c.add(g, "bytes_S1", "", data=np.array([b"a", b"", b"\x00", b"\xff", b"Z"], dtype="S1"),
          chunks=(2,))
    note(S, "dtypes/bytes_S1", "|S1")
    # unicode
    uv = np.array(["", "a", "héllo", "日本語", "😀x", "abcdef", "Ωmega", "\u0000b", "z", "ÿ"],
                  dtype="<U6").reshape(2, 5)
    for bo, nm in (("<", "unicode_U6_le"), (">", "unicode_U6_be")):
        c.add(g, nm, "", data=uv.astype(bo + "U6"), chunks=(1, 3))
        note(S, "dtypes/" + nm, "%sU6 non-ASCII incl. astral (U+1F600), empty, embedded NUL" % bo)
    # void
    vv = rng_for("void").integers(0, 256, size=(7, 3), dtype=np.uint8)
    c.add(g, "void_V3", "", data=vv.view("V3").reshape(7), chunks=(3,))
    note(S, "dtypes/void_V3", "|V3 random bytes")
    vv = rng_for("void8").integers(0, 256, size=(6, 8), dtype=np.uint8)
    c.add(g, "void_V8", "", data=vv.view("V8").reshape(2, 3), chunks=(2, 2))
    note(S, "dtypes/void_V8", "|V8 random bytes, 2-D")
    # structured
    rng = rng_for("struct")
    flat_dt = np.dtype([("x", "<i4"), ("y", "<f8"), ("flag", "|b1")])
    a = np.zeros(10, dtype=flat_dt)
    a["x"] = rng.integers(-1000, 1000, 10)
    a["y"] = rng.standard_normal(10)
    a["y"][2] = np.nan
    a["flag"] = rng.integers(0, 2, 10).astype(bool)
    c.add(g, "struct_flat", "", data=a, chunks=(4,))
    note(S, "dtypes/struct_flat", "flat structured [x <i4, y <f8, flag |b1]; y[2] NaN")
    nested_dt = np.dtype([("pos", [("x", "<f4"), ("y", "<f4")]), ("id", "<u2"),
                          ("meta", [("a", "|i1"), ("b", [("c", "<i2")])])])
    a = np.zeros((3, 4), dtype=nested_dt)
    a["pos"]["x"] = rng.standard_normal((3, 4))
    a["pos"]["y"] = rng.standard_normal((3, 4))
    a["id"] = np.arange(12).reshape(3, 4) * 1000
    a["meta"]["a"] = np.arange(12).reshape(3, 4) - 6
    a["meta"]["b"]["c"] = np.arange(12).reshape(3, 4) * -300
    c.add(g, "struct_nested", "", data=a, chunks=(2, 3))
    note(S, "dtypes/struct_nested", "nested structured, 3 levels, 2-D with edges")
    sub_dt = np.dtype([("vec", "<f4", (3,)), ("mat", "<i2", (2, 2)), ("tag", "S2")])
    a = np.zeros(5, dtype=sub_dt)
    a["vec"] = rng.standard_normal((5, 3))
    a["mat"] = rng.integers(-100, 100, (5, 2, 2))
    a["tag"] = [b"ab", b"c", b"", b"d\x00", b"ee"]
    c.add(g, "struct_subarray", "", data=a, chunks=(2,))
    note(S, "dtypes/struct_subarray", "structured with subarray fields (3,) and (2,2)")
    mixed_dt = np.dtype([("a", ">i4"), ("b", "<i4"), ("c", ">f8"), ("s", "|S3"), ("u", ">U2"),
                         ("t", ">M8[s]"), ("d", "<m8[ms]"), ("v", ">u2", (2,)),
                         ("n", [("p", ">i2"), ("q", "<i2")])])
    a = np.zeros(6, dtype=mixed_dt)
    a["a"] = [1, -2, 2 ** 31 - 1, -2 ** 31, 0, 7]
    a["b"] = [1, -2, 2 ** 31 - 1, -2 ** 31, 0, 7]
    a["c"] = [1.5, -0.0, np.inf, np.nan, 1e-310, -1e300]
    a["s"] = [b"abc", b"", b"\x00a", b"x", b"yy", b"zzz"]
    a["u"] = ["é", "", "日本", "a", "😀", "zz"]
    a["t"] = np.array([0, -1, 1600000000, np.iinfo(np.int64).min, 5, 6]).view("M8[s]")
    a["d"] = np.array([0, -1, 1000, np.iinfo(np.int64).min, 5, 6]).view("m8[ms]")
    a["v"] = [[1, 2], [3, 4], [65535, 0], [5, 6], [7, 8], [9, 10]]
    a["n"]["p"] = [1, -1, 300, -300, 0, 2]
    a["n"]["q"] = [1, -1, 300, -300, 0, 2]
    c.add(g, "struct_mixed_byteorder", "", data=a, chunks=(4,))
    note(S, "dtypes/struct_mixed_byteorder",
         "fields of both byte orders incl. >U2, >M8[s] (NaT), <m8[ms], >u2 (2,), nested")


def build_objects(c, root):
    S = "arrays.zarr"
    g = c.group(root, "objects", {"topic": "object arrays"})
    s = np.array(["", "a", "héllo wörld", "日本語", "😀", "x" * 40, "", "tab\tnl\n", "\u0000nul",
                  "end"], dtype=object)
    c.add(g, "vlen_utf8", "", data=s, dtype=object, object_codec=VLenUTF8(), chunks=(4,))
    note(S, "objects/vlen_utf8", "vlen-utf8 filter, empty strings, non-ASCII, astral, NUL")
    c.add(g, "vlen_utf8_2d_blosc", "", data=s.reshape(2, 5), dtype=object,
          object_codec=VLenUTF8(), chunks=(2, 2), compressor=Blosc("zstd", 3, Blosc.SHUFFLE))
    note(S, "objects/vlen_utf8_2d_blosc", "vlen-utf8 2-D with blosc zstd compressor")
    withnone = np.array(["a", None, "", "b"], dtype=object)
    c.add(g, "vlen_utf8_none_written", "", data=withnone, dtype=object, object_codec=VLenUTF8(),
          chunks=(3,))
    note(S, "objects/vlen_utf8_none_written",
         "None written through vlen-utf8 is stored as an empty string and reads back as ''")
    c.add(g, "vlen_utf8_fill_null_missing", "", dtype=object, object_codec=VLenUTF8(),
          shape=(7,), chunks=(3,), fill_value=None,
          write=lambda z: z.__setitem__(slice(0, 3), np.array(["p", "", "q"], dtype=object)))
    note(S, "objects/vlen_utf8_fill_null_missing",
         "fill_value null; chunks 1 and 2 never written read as None (JSON null)")
    c.add(g, "vlen_utf8_fill_empty_missing", "", dtype=object, object_codec=VLenUTF8(),
          shape=(7,), chunks=(3,), fill_value="",
          write=lambda z: z.__setitem__(slice(3, 6), np.array(["x", "yé", "z"], dtype=object)))
    note(S, "objects/vlen_utf8_fill_empty_missing",
         "fill_value \"\"; chunks 0 and 2 missing read as ''")
    bv = np.array([b"", b"\x00", b"abc", b"\xff\xfe\xfd", b"x" * 33, b"mid\x00dle"], dtype=object)
    c.add(g, "vlen_bytes", "", data=bv, dtype=object, object_codec=VLenBytes(), chunks=(4,))
    note(S, "objects/vlen_bytes", "vlen-bytes; expected items are base64 strings")
    c.add(g, "vlen_bytes_gzip", "", data=bv.reshape(3, 2), dtype=object,
          object_codec=VLenBytes(), chunks=(2, 2), compressor=GZip(5))
    note(S, "objects/vlen_bytes_gzip", "vlen-bytes 2-D with gzip")
    j = np.empty(8, dtype=object)
    items = [1, "text é", None, [1, 2, [3]], {"k": "v", "n": None, "l": [True, False]}, 2.5, "",
             {"日本": {"deep": [1.5, -2]}}]
    for i, v in enumerate(items):
        j[i] = v
    c.add(g, "json2", "", data=j, dtype=object, object_codec=JSON(), chunks=(3,))
    note(S, "objects/json2", "json2 object codec: numbers, strings, null, lists, dicts")
    j2 = np.empty((2, 2), dtype=object)
    j2[0, 0], j2[0, 1], j2[1, 0], j2[1, 1] = "a", None, {"x": 1}, []
    c.add(g, "json2_2d_zlib", "", data=j2, dtype=object, object_codec=JSON(), chunks=(1, 2),
          compressor=Zlib(6))
    note(S, "objects/json2_2d_zlib", "json2 2-D with zlib")
    z0 = np.empty((), dtype=object)
    z0[()] = "zero-d ✓"
    c.add(g, "vlen_utf8_0d", "", data=z0, dtype=object, object_codec=VLenUTF8())
    note(S, "objects/vlen_utf8_0d", "0-d object array")


def build_codecs(c, root):
    S = "arrays.zarr"
    g = c.group(root, "codecs", {"topic": "compressors and checksums"})
    for cname in ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"]:
        for shuffle in (0, 1, 2):
            for t in ("u1", "i2", "f4", "f8"):
                if t == "u1" and shuffle == 1:
                    continue
                name = "blosc_%s_shuffle%d_%s" % (cname, shuffle, t)
                if t[0] == "f":
                    d = np.cumsum(rng_for(name).standard_normal(300)).astype(t)
                else:
                    d = (np.arange(300) * 7 % 251 + rng_for(name).integers(0, 3, 300)).astype(t)
                c.add(g, name, "", data=d, chunks=(128,),
                      compressor=Blosc(cname=cname, clevel=5, shuffle=shuffle))
                note(S, "codecs/" + name, "blosc cname=%s shuffle=%d typesize=%d" %
                     (cname, shuffle, np.dtype(t).itemsize))
    d = np.arange(2000, dtype="<i4") // 3
    c.add(g, "blosc_autoshuffle", "", data=d, chunks=(1000,),
          compressor=Blosc("lz4", 5, Blosc.AUTOSHUFFLE))
    note(S, "codecs/blosc_autoshuffle", "blosc shuffle=-1 (AUTOSHUFFLE) in the metadata")
    c.add(g, "blosc_blocksize", "", data=d, chunks=(1000,),
          compressor=Blosc("zstd", 5, Blosc.SHUFFLE, blocksize=256))
    note(S, "codecs/blosc_blocksize", "blosc blocksize=256: several blocks per chunk")
    c.add(g, "blosc_clevel0", "", data=d, chunks=(1000,), compressor=Blosc("lz4", 0, 1))
    note(S, "codecs/blosc_clevel0", "blosc clevel 0: chunk stored uncompressed (memcpyed flag)")
    rnd = rng_for("blosc_random").integers(0, 256, 3000, dtype=np.uint8)
    c.add(g, "blosc_incompressible", "", data=rnd, chunks=(1500,),
          compressor=Blosc("zstd", 9, Blosc.BITSHUFFLE))
    note(S, "codecs/blosc_incompressible", "random bytes: blosc falls back to a stored copy")
    c.add(g, "blosc_clevel9_large", "", data=np.arange(20000, dtype="<f8") / 7.0,
          chunks=(20000,), compressor=Blosc("lz4hc", 9, Blosc.SHUFFLE))
    note(S, "codecs/blosc_clevel9_large", "160 kB chunk, lz4hc level 9 (several blosc blocks)")

    base = (np.arange(1200, dtype="<i4") % 97) * 3 - 100
    rest = [
        ("zlib_1", Zlib(1)), ("zlib_9", Zlib(9)), ("gzip_1", GZip(1)), ("gzip_9", GZip(9)),
        ("bz2_1", BZ2(1)), ("bz2_9", BZ2(9)),
        ("lzma_xz", LZMA(format=lzma.FORMAT_XZ)),
        ("lzma_xz_crc64_preset1", LZMA(format=lzma.FORMAT_XZ, check=lzma.CHECK_CRC64, preset=1)),
        ("lzma_alone", LZMA(format=lzma.FORMAT_ALONE)),
        ("zstd_1", Zstd(1)), ("zstd_19", Zstd(19)), ("zstd_neg", Zstd(-3)),
        ("lz4_1", LZ4(1)), ("lz4_accel10", LZ4(10)),
        ("none", None),
        ("crc32", CRC32()), ("adler32", Adler32()),
    ]
    for name, comp in rest:
        c.add(g, name, "", data=base.reshape(30, 40), chunks=(16, 16), compressor=comp)
        cfg = comp.get_config() if comp is not None else None
        note(S, "codecs/" + name, "compressor %s, <i4 30x40 in 16x16 chunks" %
             json.dumps(cfg, sort_keys=True))
    c.add(g, "crc32_filter_zlib", "", data=base, chunks=(500,), filters=[CRC32()],
          compressor=Zlib(5))
    note(S, "codecs/crc32_filter_zlib", "crc32 as a filter (4-byte LE checksum prefix) + zlib")
    c.add(g, "adler32_filter_blosc", "", data=base, chunks=(500,), filters=[Adler32()],
          compressor=Blosc("lz4", 5, 1))
    note(S, "codecs/adler32_filter_blosc", "adler32 as a filter + blosc")
    c.add(g, "crc32_filter_nocompressor", "", data=base.astype("<f8") / 3, chunks=(500,),
          filters=[CRC32()], compressor=None)
    note(S, "codecs/crc32_filter_nocompressor", "crc32 filter, compressor null")
    c.add(g, "zstd_f2_be", "", data=float_data("zstd_f2_be", ">f2", (100,)), chunks=(64,),
          compressor=Zstd(5))
    note(S, "codecs/zstd_f2_be", "zstd on big-endian float16")


def build_filters(c, root):
    S = "arrays.zarr"
    g = c.group(root, "filters", {"topic": "filters"})
    rng = rng_for("filters")
    ints = np.cumsum(rng.integers(-5, 6, 500)).astype("<i8") + 1000
    c.add(g, "delta_i8", "", data=ints, chunks=(128,), filters=[Delta(dtype="<i8")])
    note(S, "filters/delta_i8", "delta dtype <i8")
    c.add(g, "delta_i8_astype_i2", "", data=ints, chunks=(128,),
          filters=[Delta(dtype="<i8", astype="<i2")])
    note(S, "filters/delta_i8_astype_i2", "delta with astype <i2 (differences fit in int16)")
    c.add(g, "delta_u1_be_array", "", data=(np.arange(300) % 256).astype("u1"), chunks=(100,),
          filters=[Delta(dtype="u1")], compressor=None)
    note(S, "filters/delta_u1_be_array", "delta on uint8 with wraparound, no compressor")
    fl = 1000 + rng.random(400) * 6000
    c.add(g, "fixedscaleoffset_u2", "", data=fl, chunks=(128,),
          filters=[FixedScaleOffset(offset=1000, scale=10, dtype="<f8", astype="<u2")])
    note(S, "filters/fixedscaleoffset_u2", "fixedscaleoffset offset=1000 scale=10 <f8 -> <u2 "
         "(lossy; expected is what zarr reads back)")
    c.add(g, "fixedscaleoffset_f4_i4", "", data=(fl - 4000).astype("<f4"), chunks=(128,),
          filters=[FixedScaleOffset(offset=0, scale=1000, dtype="<f4", astype="<i4")])
    note(S, "filters/fixedscaleoffset_f4_i4", "fixedscaleoffset <f4 -> <i4, negative values")
    qd = rng.standard_normal((20, 20)) * 100
    qd[0, 0] = np.nan
    c.add(g, "quantize_f8", "", data=qd, chunks=(8, 8), filters=[Quantize(digits=2, dtype="<f8")])
    note(S, "filters/quantize_f8", "quantize digits=2 <f8 (lossy), NaN at [0,0]")
    c.add(g, "quantize_f8_astype_f4", "", data=qd, chunks=(8, 8),
          filters=[Quantize(digits=3, dtype="<f8", astype="<f4")])
    note(S, "filters/quantize_f8_astype_f4", "quantize digits=3 <f8 stored as <f4")
    c.add(g, "astype_f8_f4", "", data=qd, chunks=(8, 8),
          filters=[AsType(encode_dtype="<f4", decode_dtype="<f8")])
    note(S, "filters/astype_f8_f4", "astype encode <f4 decode <f8")
    c.add(g, "astype_i4_u1", "", data=(np.arange(300) % 200).astype("<i4"), chunks=(128,),
          filters=[AsType(encode_dtype="|u1", decode_dtype="<i4")])
    note(S, "filters/astype_i4_u1", "astype encode |u1 decode <i4")
    bools = rng.integers(0, 2, 203).astype(bool)
    c.add(g, "packbits", "", data=bools, chunks=(61,), filters=[PackBits()])
    note(S, "filters/packbits", "packbits on |b1, chunk 61 (not a multiple of 8)")
    labels = ["foo", "bär", "日本"]
    cats = np.array([labels[i] for i in rng.integers(0, 3, 50)], dtype="<U3")
    cats[7] = "zz"  # not a label: encodes as 0, decodes as ""
    c.add(g, "categorize_U", "", data=cats, chunks=(20,),
          filters=[Categorize(labels=labels, dtype="<U3", astype="|u1")])
    note(S, "filters/categorize_U", "categorize labels [foo, bär, 日本] <U3 -> |u1; "
         "element 7 was 'zz' (not a label) and reads back as ''")
    br = (rng.standard_normal(300) * 1e3).astype("<f4")
    c.add(g, "bitround_f4", "", data=br, chunks=(128,), filters=[BitRound(keepbits=10)])
    note(S, "filters/bitround_f4", "bitround keepbits=10 on <f4 (lossy)")
    c.add(g, "bitround_f8", "", data=br.astype("<f8"), chunks=(128,),
          filters=[BitRound(keepbits=20)])
    note(S, "filters/bitround_f8", "bitround keepbits=20 on <f8")
    c.add(g, "shuffle_f8", "", data=br.astype("<f8"), chunks=(128,),
          filters=[Shuffle(elementsize=8)], compressor=Zlib(5))
    note(S, "filters/shuffle_f8", "numcodecs shuffle elementsize=8 + zlib")
    c.add(g, "chain_delta_shuffle_zlib", "", data=ints, chunks=(128,),
          filters=[Delta(dtype="<i8", astype="<i4"), Shuffle(elementsize=4)], compressor=Zlib(5))
    note(S, "filters/chain_delta_shuffle_zlib", "filters [delta -> <i4, shuffle 4] + zlib")
    c.add(g, "chain_fso_delta_blosc", "", data=fl, chunks=(128,),
          filters=[FixedScaleOffset(offset=1000, scale=10, dtype="<f8", astype="<i4"),
                   Delta(dtype="<i4", astype="<i2")],
          compressor=Blosc("zstd", 5, Blosc.BITSHUFFLE))
    note(S, "filters/chain_fso_delta_blosc",
         "filters [fixedscaleoffset <f8-><i4, delta <i4-><i2] + blosc zstd bitshuffle")
    c.add(g, "chain_quantize_astype_crc32_lzma", "", data=qd, chunks=(8, 8),
          filters=[Quantize(digits=1, dtype="<f8"), AsType(encode_dtype="<f4", decode_dtype="<f8"),
                   CRC32()],
          compressor=LZMA(format=lzma.FORMAT_XZ, preset=1))
    note(S, "filters/chain_quantize_astype_crc32_lzma",
         "filters [quantize, astype <f4, crc32] + lzma")
    c.add(g, "delta_be_array", "", data=ints.astype(">i8"), chunks=(128,),
          filters=[Delta(dtype=">i8")], order="F")
    note(S, "filters/delta_be_array", "delta dtype >i8 on a big-endian array")
    c.add(g, "delta_f8_order_F", "", data=np.cumsum(qd, axis=1), chunks=(8, 8),
          filters=[Delta(dtype="<f8")], order="F")
    note(S, "filters/delta_f8_order_F", "delta on F-ordered 2-D chunks (filters see the F-order "
         "flattening)")


def build_layout(c, root):
    S = "arrays.zarr"
    g = c.group(root, "layout", {"topic": "memory order, chunk grids, separators"})
    rng = rng_for("layout")
    a3 = np.arange(5 * 7 * 9, dtype="<i4").reshape(5, 7, 9) * 3 - 500
    for order in ("C", "F"):
        c.add(g, "i4_3d_order_%s" % order, "", data=a3, chunks=(2, 3, 4), order=order)
        note(S, "layout/i4_3d_order_%s" % order, "order %s, 5x7x9 in 2x3x4 chunks: edges in "
             "every dimension" % order)
    f2 = rng.standard_normal((6, 10)).astype(">f8")
    c.add(g, "f8_be_2d_order_F", "", data=f2, chunks=(4, 3), order="F")
    note(S, "layout/f8_be_2d_order_F", ">f8 order F with edges")
    sdt = np.dtype([("a", "<i2"), ("b", ">f4"), ("c", "S2")])
    sa = np.zeros((4, 5), dtype=sdt)
    sa["a"] = np.arange(20).reshape(4, 5)
    sa["b"] = np.arange(20).reshape(4, 5) / 4
    sa["c"] = np.array([b"%02d" % i for i in range(20)]).reshape(4, 5)
    for order in ("C", "F"):
        c.add(g, "struct_order_%s" % order, "", data=sa, chunks=(3, 2), order=order)
        note(S, "layout/struct_order_%s" % order, "structured [<i2, >f4, S2] order %s" % order)
    ua = np.array(["a", "bé", "", "日本語", "x", "yy"] * 4, dtype=">U3").reshape(4, 6)
    c.add(g, "unicode_order_F", "", data=ua, chunks=(3, 4), order="F")
    note(S, "layout/unicode_order_F", ">U3 order F")
    c.add(g, "bytes_order_F", "", data=ua.astype("S9") if False else
          np.array([s.encode("utf-8") for s in ua.reshape(-1)], dtype="S9").reshape(4, 6),
          chunks=(3, 4), order="F")
    note(S, "layout/bytes_order_F", "|S9 order F")
    c.add(g, "bool_order_F", "", data=rng.integers(0, 2, (5, 6)).astype(bool), chunks=(2, 4),
          order="F")
    note(S, "layout/bool_order_F", "|b1 order F")
    c.add(g, "datetime_order_F", "", data=time_data("dtF", "M", "ms", shape=(4, 6)),
          chunks=(3, 4), order="F")
    note(S, "layout/datetime_order_F", "<M8[ms] order F with NaT")
    c.add(g, "c16_order_F_blosc", "", data=complex_data("c16F", "<c16", (5, 4)), chunks=(2, 3),
          order="F", compressor=Blosc("lz4", 5, 1))
    note(S, "layout/c16_order_F_blosc", "<c16 order F, blosc")
    c.add(g, "object_order_F", "", data=np.array([["a", "b", "c"], ["d", "é", ""]], dtype=object),
          dtype=object, object_codec=VLenUTF8(), chunks=(2, 2), order="F")
    note(S, "layout/object_order_F", "vlen-utf8 order F")
    # separators
    for sep, nm in (("/", "slash"), (".", "dot")):
        c.add(g, "separator_%s_2d" % nm, "", data=a3[0], chunks=(3, 4), dimension_separator=sep)
        note(S, "layout/separator_%s_2d" % nm, "dimension_separator %r (explicit in .zarray)" % sep)
        c.add(g, "separator_%s_3d_F" % nm, "", data=a3, chunks=(2, 3, 4), dimension_separator=sep,
              order="F")
        note(S, "layout/separator_%s_3d_F" % nm, "dimension_separator %r, order F, edges" % sep)
    c.add(g, "separator_slash_1d", "", data=np.arange(10, dtype="<u2"), chunks=(3,),
          dimension_separator="/")
    note(S, "layout/separator_slash_1d", "'/' separator in 1-D: keys are just the index")
    c.add(g, "separator_slash_0d", "", data=np.array(42.5, dtype="<f8"), dimension_separator="/")
    note(S, "layout/separator_slash_0d", "'/' separator on a 0-d array: key '0'")
    # missing chunks
    def partial(z):
        z[0:4, 0:4] = np.arange(16).reshape(4, 4)
        z[8:10, 5:9] = -np.arange(8).reshape(2, 4)
    c.add(g, "missing_chunks_2d", "", shape=(10, 9), chunks=(4, 4), dtype="<i4", write=partial)
    note(S, "layout/missing_chunks_2d", "only some chunks written; others read as fill 0")
    c.add(g, "missing_chunks_slash_fill7", "", shape=(10, 9), chunks=(4, 4), dtype="<i2",
          fill_value=7, write=partial, dimension_separator="/")
    note(S, "layout/missing_chunks_slash_fill7", "missing chunks, '/' separator, fill 7")
    c.add(g, "all_chunks_missing_fill", "", shape=(5, 5), chunks=(2, 2), dtype="<f4",
          fill_value=-1.5)
    note(S, "layout/all_chunks_missing_fill", "no chunk ever written: whole array is fill -1.5")
    # 0-d
    c.add(g, "zero_d_i4", "", data=np.array(-123456, dtype="<i4"))
    note(S, "layout/zero_d_i4", "0-d <i4, shape [] chunks []")
    c.add(g, "zero_d_f8_be", "", data=np.array(np.pi, dtype=">f8"), compressor=None)
    note(S, "layout/zero_d_f8_be", "0-d >f8, no compressor")
    c.add(g, "zero_d_struct", "", data=np.array((1, 2.5, b"ab"), dtype=sdt))
    note(S, "layout/zero_d_struct", "0-d structured")
    c.add(g, "zero_d_U", "", data=np.array("ünï", dtype="<U4"))
    note(S, "layout/zero_d_U", "0-d <U4")
    c.add(g, "zero_d_missing_fill", "", shape=(), dtype="<i8", fill_value=-9)
    note(S, "layout/zero_d_missing_fill", "0-d, chunk never written: reads fill -9")
    # zero-length
    c.add(g, "zero_len_1d", "", shape=(0,), dtype="<f8", chunks=(4,))
    note(S, "layout/zero_len_1d", "shape [0]")
    c.add(g, "zero_len_2d_first", "", shape=(0, 5), dtype="<i4", chunks=(3, 5))
    note(S, "layout/zero_len_2d_first", "shape [0, 5]")
    c.add(g, "zero_len_2d_second", "", shape=(4, 0), dtype="<i4", chunks=(2, 2))
    note(S, "layout/zero_len_2d_second", "shape [4, 0]")
    # ranks
    for rank in (1, 2, 3, 4):
        shape = (5, 4, 3, 6)[:rank]
        chunks = (2, 3, 2, 4)[:rank]
        d = np.arange(int(np.prod(shape)), dtype="<u4").reshape(shape) * 11
        c.add(g, "rank%d" % rank, "", data=d, chunks=chunks)
        note(S, "layout/rank%d" % rank, "%d-D %s in %s chunks" % (rank, shape, chunks))
    c.add(g, "rank4_order_F_slash", "", data=np.arange(5 * 4 * 3 * 6, dtype=">i2").reshape(
        5, 4, 3, 6), chunks=(2, 3, 2, 4), order="F", dimension_separator="/")
    note(S, "layout/rank4_order_F_slash", "4-D >i2, order F, '/' separator")
    c.add(g, "chunks_larger_than_array", "", data=np.arange(15, dtype="<i4").reshape(3, 5),
          chunks=(10, 10))
    note(S, "layout/chunks_larger_than_array", "3x5 array in one 10x10 chunk")
    c.add(g, "chunks_larger_than_array_F", "", data=np.arange(15, dtype="<f4").reshape(3, 5),
          chunks=(4, 8), order="F", compressor=Blosc("zstd", 1, 2))
    note(S, "layout/chunks_larger_than_array_F", "3x5 in one 4x8 chunk, order F")
    c.add(g, "chunk_size_one", "", data=np.arange(12, dtype="<i8").reshape(3, 4), chunks=(1, 1))
    note(S, "layout/chunk_size_one", "every element its own chunk")
    d = np.zeros((12, 10), dtype="<i4")
    d[5, 5] = 3
    d[11, 9] = -4
    c.add(g, "write_empty_chunks_false", "", data=d, chunks=(4, 4), write_empty_chunks=False)
    note(S, "layout/write_empty_chunks_false", "write_empty_chunks=False: all-zero chunks absent")
    d = np.full((12, 10), np.nan)
    d[0, 0] = 1.0
    d[6, 9] = -0.0
    c.add(g, "write_empty_chunks_false_nan", "", data=d, chunks=(4, 4), fill_value=np.nan,
          write_empty_chunks=False)
    note(S, "layout/write_empty_chunks_false_nan",
         "fill NaN, write_empty_chunks=False: all-NaN chunks absent")
    c.add(g, "large_chunk_count_1d", "", data=np.arange(1000, dtype="<i2"), chunks=(7,),
          compressor=None)
    note(S, "layout/large_chunk_count_1d", "143 chunks, last one partial")


def build_fill(c, root):
    S = "arrays.zarr"
    g = c.group(root, "fill", {"topic": "fill values"})

    def first_chunk(values):
        def w(z):
            z[0:len(values)] = values
        return w

    cases = [
        ("int_42", "<i4", 42, [1, 2, 3], "fill 42"),
        ("int8_neg", "|i1", -128, [1, 2, 3], "fill -128 (min)"),
        ("uint64_max", "<u8", 2 ** 64 - 1, [1, 2, 3], "fill 2^64-1 (beyond signed long)"),
        ("int64_min_be", ">i8", -2 ** 63, [1, 2, 3], "fill -2^63, big-endian"),
        ("float_nan", "<f8", np.nan, [1.0, -0.0, np.inf], "fill \"NaN\""),
        ("float_inf", "<f4", np.inf, [1.0, 2.0, 3.0], "fill \"Infinity\""),
        ("float_neginf", ">f8", -np.inf, [1.0, 2.0, 3.0], "fill \"-Infinity\""),
        ("float16_nan", "<f2", np.nan, [1.0, 2.0, 3.0], "fill NaN on <f2"),
        ("float_negzero", "<f8", -0.0, [1.0, 2.0, 3.0],
         "fill -0.0 requested: zarr 2.13 normalizes it to 0.0 (-0.0 == 0)"),
        ("float_subnormal", "<f8", 5e-324, [1.0, 2.0, 3.0], "fill 5e-324 (smallest subnormal)"),
        ("float_frac", "<f4", 0.1, [1.0, 2.0, 3.0], "fill 0.1 (rounded to float32 on read)"),
        ("bool_true", "|b1", True, [False, False, True], "fill true"),
        ("complex", "<c16", 1.5 - 2j, [1j, 2, 3], "complex fill [1.5, -2.0]"),
        ("complex_nan", ">c8", complex(np.nan, np.inf), [1j, 2, 3],
         "complex fill [\"NaN\", \"Infinity\"]"),
        ("bytes_S4", "|S4", b"x\x00y", [b"a", b"b", b"c"], "bytes fill base64 of b'x\\x00y\\x00'"),
        ("unicode_U3", "<U3", "é日", ["a", "b", "c"], "unicode fill 'é日' (a JSON string)"),
        ("unicode_U3_be", ">U3", "z😀", ["a", "b", "c"], "unicode fill on >U3"),
        ("void_V2", "|V2", b"\x01\xff", None, "void fill base64"),
        ("datetime_nat", "<M8[s]", np.datetime64("NaT"), np.array([0, 1, 2], dtype="M8[s]"),
         "datetime fill NaT (int64 min in metadata)"),
        ("datetime_value", "<M8[D]", np.datetime64("2020-02-29"),
         np.array([0, 1, 2], dtype="M8[D]"), "datetime fill 2020-02-29 (18321 days)"),
        ("timedelta_neg", ">m8[h]", np.timedelta64(-5, "h"), np.array([0, 1, 2], dtype="m8[h]"),
         "timedelta fill -5 h"),
    ]
    for name, dt, fv, vals, nt in cases:
        kw = dict(shape=(10,), chunks=(4,), dtype=dt, fill_value=fv)
        w = first_chunk(np.array(vals, dtype=dt)) if vals is not None else \
            first_chunk(np.array([b"ab", b"cd"], dtype="V2"))
        c.add(g, name, "", write=w, **kw)
        note(S, "fill/" + name, nt + "; only chunk 0 written (partially), chunks 1-2 missing")
    sdt = np.dtype([("a", "<i4"), ("b", ">f8"), ("c", "S2"), ("d", "<u2", (2,))])
    # zarr 2.13 cannot take a numpy.void scalar here (normalize_fill_value compares it with 0 and
    # numpy raises TypeError), so the structured fill is passed as its raw bytes.
    fv = np.array((-7, np.nan, b"q", [1, 2]), dtype=sdt).tobytes()
    c.add(g, "struct", "", shape=(10,), chunks=(4,), dtype=sdt, fill_value=fv,
          write=first_chunk(np.array([(1, 1.5, b"a", [3, 4])], dtype=sdt)))
    note(S, "fill/struct", "structured fill (-7, NaN, b'q', [1,2]) base64; chunks 1-2 missing")
    c.add(g, "struct_zero", "", shape=(6,), chunks=(4,), dtype=sdt, fill_value=0,
          write=first_chunk(np.array([(1, 1.5, b"a", [3, 4])], dtype=sdt)))
    note(S, "fill/struct_zero", "structured, fill 0 given: metadata holds base64 of zeros")
    for name, dt in (("null_i4", "<i4"), ("null_f8", "<f8")):
        d = np.arange(10).astype(dt)
        c.add(g, name, "", data=d, chunks=(4,), fill_value=None)
        note(S, "fill/" + name, "fill_value null; every chunk written (zarr would otherwise "
             "return uninitialised memory)")
    c.add(g, "nonzero_missing_2d", "", shape=(9, 9), chunks=(3, 3), dtype="<i2", fill_value=-1,
          write=lambda z: z.__setitem__((slice(3, 6), slice(3, 6)), np.ones((3, 3), "<i2")))
    note(S, "fill/nonzero_missing_2d", "fill -1, only the centre chunk written")


def build_attrs(c, root):
    S = "arrays.zarr"
    g = c.group(root, "attrs", {"topic": "attributes", "nested": {"a": [1, 2, {"b": None}]},
                                "ünïcødé": "日本語 😀", "float": 1.5, "bool": True,
                                "empty_list": [], "empty_obj": {}})
    c.add(g, "with_attrs", "", data=np.arange(6, dtype="<i4"), chunks=(4,),
          attrs={"units": "K", "scale": [1, 2.5, -3], "nested": {"deep": {"deeper": ["x", None]}},
                 "ünï": "çödé ✓", "long_number": 9007199254740993, "neg": -0.5})
    note(S, "attrs/with_attrs", "nested JSON and unicode attributes")
    c.add(g, "empty_attrs_file", "", data=np.arange(3, dtype="<i4"))
    z = zarr.open_array(g.store, path="attrs/empty_attrs_file", mode="r+")
    z.attrs.update({})
    note(S, "attrs/empty_attrs_file", ".zattrs file holding an empty object {}")


def build_arrays_store(c):
    root = c.open_store("arrays.zarr", attrs={"corpus": "spark-zarr v2", "version": 1,
                                              "title": "Zarr v2 feature corpus — ünïcødé"})
    build_dtypes(c, root)
    build_objects(c, root)
    build_codecs(c, root)
    build_filters(c, root)
    build_layout(c, root)
    build_fill(c, root)
    build_attrs(c, root)
    c.record_store("arrays.zarr")


def build_hierarchy(c, name, consolidated):
    root = c.open_store(name, attrs={"level": 0, "name": "root", "tags": ["a", "b"]})
    c.add(root, "top", "", data=np.arange(8, dtype="<f4") / 2, chunks=(3,))
    a = c.group(root, "a", {"level": 1, "name": "a"})
    c.add(a, "x", "", data=np.arange(12, dtype="<i8").reshape(3, 4), chunks=(2, 2),
          attrs={"long_name": "x in a"})
    b = c.group(a, "b", {"level": 2, "name": "b", "ünï": "✓"})
    c.add(b, "y", "", data=np.array(["p", "q", "é"], dtype=object), dtype=object,
          object_codec=VLenUTF8(), chunks=(2,))
    cc = c.group(b, "c", {"level": 3})
    c.add(cc, "deep", "", data=np.arange(24, dtype=">u2").reshape(2, 3, 4), chunks=(1, 2, 3),
          order="F", attrs={"depth": 3})
    d = c.group(cc, "d", {"level": 4})
    c.add(d, "deepest", "", data=np.array(7, dtype="<i1"))
    c.group(root, "empty_group", {"empty": True})
    c.group(root, "other", None)
    c.add(root, "other/sibling", "", data=np.linspace(0, 1, 5), chunks=(5,),
          compressor=Blosc("zstd", 3, 2), dimension_separator="/")
    for p, t in (("top", "root-level array"), ("a/x", "array at level 1 with attributes"),
                 ("a/b/y", "vlen-utf8 array at level 2"),
                 ("a/b/c/deep", "order F array at level 3"),
                 ("a/b/c/d/deepest", "0-d array at level 4"),
                 ("other/sibling", "'/' separator array in a group without attributes")):
        note(name, p, t + (" (consolidated store)" if consolidated else " (no .zmetadata)"))
    if consolidated:
        zarr.consolidate_metadata(os.path.join(c.outdir, name))
    c.record_store(name, consolidated=consolidated)


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT)
    os.makedirs(out, exist_ok=True)
    for sub in ("arrays.zarr", "hierarchy.zarr", "hierarchy_noconsolidated.zarr", "expected",
                "manifest.json"):
        p = os.path.join(out, sub)
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.remove(p)
    c = Corpus(out)
    build_arrays_store(c)
    build_hierarchy(c, "hierarchy.zarr", consolidated=True)
    build_hierarchy(c, "hierarchy_noconsolidated.zarr", consolidated=False)
    c.write_manifest()
    print("wrote %d arrays, %d groups to %s" % (len(c.arrays), len(c.groups), out))


if __name__ == "__main__":
    main()
