#!/usr/bin/python3
"""Test vectors for the numcodecs filters and object codecs, made by numcodecs itself.

    gen_filter_vectors.py [OUT_DIR]   write OUT_DIR/manifest.json (default: the test resources)
    gen_filter_vectors.py --verify DIR
        decode, with numcodecs, the chunks our codecs encoded (DIR/ours.json, written by
        FilterVectorsTest) and check numcodecs reads them as it reads its own encodings, and that
        numcodecs accepts our configurations unchanged. Exit status 1 on any mismatch.

Numeric cases hold hex bytes: "decoded" (the input, in dtype's byte order), "encoded" (numcodecs'
encode) and "roundtrip" (numcodecs' decode(encode(x))). Object cases hold item lists instead:
"string" items are str or null, "bytes" items are hex, "json" items are JSON texts or null.
"""
import json
import os
import sys
import warnings

import numpy as np
import numcodecs

warnings.simplefilter("ignore")  # numpy warns about NaN casts and overflow, which we test on purpose
RNG = np.random.default_rng(20240611)
HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "src", "test", "resources", "filters")


def raw(x):
    return x.tobytes() if isinstance(x, np.ndarray) else bytes(x)


def ints(dtype, n=24):
    info = np.iinfo(dtype)
    edge = [info.min, info.max, 0, 1, info.max - 1, info.min + 1]
    rand = RNG.integers(info.min, info.max, size=n - len(edge), dtype=np.dtype(dtype).newbyteorder("="), endpoint=True)
    return np.concatenate([np.array(edge, dtype=dtype), rand.astype(dtype)])


def floats(dtype):
    special = [np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 0.5, 1.5, 2.5, -0.5, -2.5, 1e-3, 65504.0, 3.0e38]
    values = np.concatenate([np.array(special, dtype="f8"), RNG.normal(0, 1000, 20), RNG.normal(0, 1, 10)])
    return values.astype(dtype)


CASES = []


def numeric(name, codec, arr):
    enc = codec.encode(arr.copy())
    dec = codec.decode(enc)
    CASES.append(dict(name=name, kind="numeric", config=codec.get_config(), dtype=arr.dtype.str,
                      decoded=raw(arr).hex(), encoded=raw(enc).hex(),
                      roundtrip=raw(np.asarray(dec)).hex()))


def json_item(x):
    return None if x is None else json.dumps(x, ensure_ascii=False, separators=(",", ":"))


def objects(name, codec, kind, items, shape=None):
    arr = np.empty(len(items), dtype=object)
    arr[:] = items
    if shape is not None:
        arr = arr.reshape(shape)
    enc = codec.encode(arr)
    dec = np.asarray(codec.decode(enc), dtype=object).reshape(-1)
    CASES.append(dict(name=name, kind=kind, config=codec.get_config(),
                      shape=list(arr.shape), items=[encode_item(kind, x) for x in items],
                      encoded=raw(enc).hex(), roundtrip=[encode_item(kind, x) for x in dec]))


def encode_item(kind, x):
    if kind == "bytes":
        return None if x is None else bytes(x).hex()
    if kind == "json":
        return json_item(x)
    return x


def both_orders(dtype):
    return [dtype] if np.dtype(dtype).itemsize == 1 else ["<" + dtype, ">" + dtype]


def delta_cases():
    for base in ["i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8"]:
        for dt in both_orders(base):
            numeric(f"delta {dt}", numcodecs.Delta(dt), ints(dt))
    numeric("delta i2 as i1 (wraps)", numcodecs.Delta("<i2", "i1"), np.arange(100, 400, 7, dtype="<i2"))
    numeric("delta u8 as i8", numcodecs.Delta("<u8", "<i8"), ints("<u8"))
    numeric("delta i1 as >i8", numcodecs.Delta("i1", ">i8"), ints("i1"))
    numeric("delta i4 as f8", numcodecs.Delta("<i4", "<f8"), ints("<i4"))
    numeric("delta i8 as f4", numcodecs.Delta("<i8", "<f4"), ints("<i8"))
    for dt in ["<f2", ">f2", "<f4", ">f4", "<f8", ">f8"]:
        numeric(f"delta {dt}", numcodecs.Delta(dt), floats(dt))
    numeric("delta f8 as f4", numcodecs.Delta("<f8", "<f4"), floats("<f8"))
    numeric("delta f8 as i4", numcodecs.Delta("<f8", "<i4"), np.array([3e9, 1.5, -1e20, np.nan, 7.25, -2.5, 1e10], "<f8"))
    numeric("delta f4 as u2", numcodecs.Delta(">f4", "<u2"), np.array([-1.5, 300.7, 1e9, -np.inf, 65536.0], ">f4"))


def fixedscaleoffset_cases():
    lin = np.linspace(1000, 1001, 10, dtype="f8")
    numeric("fso doc u1", numcodecs.FixedScaleOffset(offset=1000, scale=10, dtype="f8", astype="u1"), lin)
    numeric("fso doc u2", numcodecs.FixedScaleOffset(offset=1000, scale=10**3, dtype="f8", astype="u2"), lin)
    half = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, 0.05, 0.15, 0.25, 0.35, np.nan, np.inf, -np.inf, -0.0, 1e30], "f8")
    numeric("fso halfway i4", numcodecs.FixedScaleOffset(offset=0, scale=1, dtype="<f8", astype="<i4"), half)
    numeric("fso scale 10 >i2", numcodecs.FixedScaleOffset(offset=0.0, scale=10, dtype=">f8", astype=">i2"), half.astype(">f8"))
    numeric("fso f8 to u8", numcodecs.FixedScaleOffset(offset=-5, scale=1, dtype="<f8", astype="<u8"), half)
    finite = half[np.isfinite(half) & (np.abs(half) < 1e6)]  # numpy's f8 -> u4 cast of others is position-dependent
    numeric("fso f8 to u4", numcodecs.FixedScaleOffset(offset=0, scale=3, dtype="<f8", astype="<u4"), finite)
    numeric("fso f8 to i1", numcodecs.FixedScaleOffset(offset=0, scale=100, dtype="<f8", astype="|i1"), half)
    numeric("fso f4 float offset", numcodecs.FixedScaleOffset(offset=0.1, scale=100, dtype="<f4", astype="<i2"), floats("<f4"))
    numeric("fso f4 to f4", numcodecs.FixedScaleOffset(offset=0.5, scale=0.001, dtype="<f4", astype="<f4"), floats("<f4"))
    numeric("fso f2 int offset promotes", numcodecs.FixedScaleOffset(offset=1000, scale=2, dtype="<f2", astype="<i4"), floats("<f2"))
    numeric("fso f2 small", numcodecs.FixedScaleOffset(offset=3, scale=4, dtype=">f2", astype=">f2"), floats(">f2"))
    numeric("fso f2 to u4", numcodecs.FixedScaleOffset(offset=0, scale=1, dtype="<f2", astype="<u4"), floats("<f2"))
    numeric("fso i2 int arithmetic", numcodecs.FixedScaleOffset(offset=1000, scale=2, dtype="<i2", astype="|u1"), ints("<i2"))
    numeric("fso i4 big offset", numcodecs.FixedScaleOffset(offset=70000, scale=3, dtype="<i2", astype="<i4"), ints("<i2"))
    numeric("fso u1 negative offset", numcodecs.FixedScaleOffset(offset=-1, scale=1, dtype="|u1", astype="<i2"), ints("|u1"))
    numeric("fso i8 float offset", numcodecs.FixedScaleOffset(offset=0.5, scale=2, dtype="<i8", astype="<i8"), ints("<i8"))
    numeric("fso u8 negative offset", numcodecs.FixedScaleOffset(offset=-1, scale=1, dtype=">u8", astype=">u8"), ints(">u8"))
    numeric("fso f8 to f4", numcodecs.FixedScaleOffset(offset=1e5, scale=1e3, dtype="<f8", astype="<f4"), floats("<f8"))


def quantize_cases():
    x = np.concatenate([np.linspace(0, 1, 10), floats("f8"), np.arange(-40, 41) / 32.0])
    for digits in [0, 1, 2, 3, 6]:
        for dt in ["<f8", ">f4", "<f2"]:
            numeric(f"quantize {digits} {dt}", numcodecs.Quantize(digits, dt), x.astype(dt))
    numeric("quantize -2 f8", numcodecs.Quantize(-2, "<f8"), x * 1000)
    numeric("quantize 5 f2 promotes", numcodecs.Quantize(5, "<f2"), x.astype("<f2"))
    numeric("quantize 40 f4 promotes", numcodecs.Quantize(40, "<f4"), x.astype("<f4"))
    numeric("quantize 3 f8 as f4", numcodecs.Quantize(3, "<f8", astype="<f4"), x)
    numeric("quantize 2 f4 as >f8", numcodecs.Quantize(2, "<f4", astype=">f8"), x.astype("<f4"))


def astype_cases():
    f = np.concatenate([floats("f8"), [300.0, -300.0, 1e20, -1e20, -1.0, 2.0**63, 2.0**64, 2.0**31, -2.0**31 - 1, 65535.9, 2.0**32 + 5]])
    for src in ["<f8", ">f4", "<f2"]:
        for dst in ["|i1", "|u1", "<i2", ">u2", "<i4", "<u4", ">i8", "<u8", "<f4", "<f2", "|b1"]:
            if src != dst:
                values = f[(f > -2.0**31 - 1) & (f < 2.0**32)] if (src, dst) == ("<f8", "<u4") else f
                numeric(f"astype {src} to {dst}", numcodecs.AsType(encode_dtype=dst, decode_dtype=src), values.astype(src))
    for src in ["<i8", ">u8", "<i4", "|u1"]:
        for dst in ["<f4", "<f8", "<f2", "|i1", "|b1"]:
            numeric(f"astype {src} to {dst}", numcodecs.AsType(encode_dtype=dst, decode_dtype=src), ints(src))
    big = np.array([2**60 + 2**36 + 1, 2**53 + 1, -(2**62) - 2**38 - 1], "<i8")
    numeric("astype i8 to f4 rounding", numcodecs.AsType(encode_dtype="<f4", decode_dtype="<i8"), big)
    ubig = np.array([2**64 - 2**39 - 1, 2**63 + 2**39 + 1, 2**64 - 1], "<u8")
    numeric("astype u8 to f4 rounding", numcodecs.AsType(encode_dtype="<f4", decode_dtype="<u8"), ubig)
    numeric("astype bool to u1", numcodecs.AsType(encode_dtype="|u1", decode_dtype="|b1"), np.array([True, False, True]))


def packbits_cases():
    for n in [0, 1, 7, 8, 9, 17, 100]:
        numeric(f"packbits {n}", numcodecs.PackBits(), RNG.integers(0, 2, n).astype(bool))


def categorize_cases():
    values = ["male", "female", "female", "unexpected", "", "male", "ünï", "日本", "femal"]
    labels = ["female", "male", "ünï", "日本"]
    objects("categorize object", numcodecs.Categorize(labels, dtype=object), "string", values)
    objects("categorize object none", numcodecs.Categorize(labels, dtype="|O", astype="<u2"), "string", values + [None])
    objects("categorize duplicate labels", numcodecs.Categorize(["a", "b", "a"], dtype=object, astype="<f4"), "string", ["a", "b", "c"])
    for dt in ["<U5", ">U5", "<U1"]:
        arr = np.array(values, dtype=dt)
        for astype in ["|u1", "<i4", ">f8"]:
            numeric(f"categorize {dt} {astype}", numcodecs.Categorize(labels + ["toolonglabel"], dtype=dt, astype=astype), arr)


def bitround_cases():
    for dt, keeps in [("f2", [0, 1, 5, 10]), ("f4", [0, 3, 10, 22, 23]), ("f8", [0, 7, 30, 51, 52])]:
        for keep in keeps:  # numcodecs' BitRound rejects big-endian input
            numeric(f"bitround {keep} <{dt}", numcodecs.BitRound(keep), floats("<" + dt))


def shuffle_cases():
    data = RNG.integers(0, 256, 48, dtype="u1")
    for size in [0, 1, 2, 3, 4, 8, 16]:
        numeric(f"shuffle {size}", numcodecs.Shuffle(size), data)
    numeric("shuffle f8", numcodecs.Shuffle(8), floats(">f8"))


def object_codec_cases():
    strings = ["foo", "", "ünïcödé", "日本語", "emoji 😀", "a\nb\x00c", None]
    objects("vlen-utf8", numcodecs.VLenUTF8(), "string", strings)
    objects("vlen-utf8 empty", numcodecs.VLenUTF8(), "string", [])
    blobs = [b"foo", b"", b"\x00\xff\x80", None, bytes(range(256))]
    objects("vlen-bytes", numcodecs.VLenBytes(), "bytes", blobs)
    items = ["foo", 1, -7, 1.5, None, True, False, [1, 2, "x"], {"b": 1, "a": [1.0, "é"], "é": None, "\U0001F600": 2, "\uffff": 3},
             float("nan"), float("inf"), float("-inf"), 1e16, 1e15, 1e-5, 1e-4, 0.1, 2e23, 5e-324, 1.7976931348623157e308,
             -0.0, 12345678901234567890123, "日本", "\u2028\x7f\x1f", 'a"b\\c\n\t/', "😀", []]
    objects("json2", numcodecs.JSON(), "json", items)
    objects("json2 2-d", numcodecs.JSON(), "json", ["a", 1, None, [1], {"k": "v"}, 2.5], shape=(2, 3))
    objects("json2 ascii off unsorted", numcodecs.JSON(ensure_ascii=False, sort_keys=False, separators=(", ", ": ")), "json",
            [{"z": 1, "a": "日本"}, "é", [1, 2]])


def generate(out_dir):
    for make in [delta_cases, fixedscaleoffset_cases, quantize_cases, astype_cases, packbits_cases,
                 categorize_cases, bitround_cases, shuffle_cases, object_codec_cases]:
        make()
    os.makedirs(out_dir, exist_ok=True)
    manifest = dict(numcodecs=numcodecs.__version__, numpy=np.__version__, cases=CASES,
                    quantize_bits={str(d): quantize_bits(d) for d in range(-30, 31)})
    with open(os.path.join(out_dir, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"wrote {len(CASES)} cases to {os.path.normpath(out_dir)}/manifest.json")


def quantize_bits(digits):
    """numcodecs' Quantize bit count, computed with Python's float functions as quantize.py does
    (the Java port uses Java's; this table checks they agree)."""
    import math
    precision = 10. ** -digits
    exp = math.log(precision, 10)
    exp = int(math.floor(exp)) if exp < 0 else int(math.ceil(exp))
    return math.ceil(math.log(10. ** -exp, 2))


def verify(directory):
    with open(os.path.join(directory, "ours.json")) as f:
        ours = json.load(f)
    failures = []
    for case in ours:
        name = case["name"]
        try:
            codec = numcodecs.get_codec(dict(case["config"]))
            if json.loads(json.dumps(codec.get_config())) != case["config"]:  # tuples become lists
                failures.append(f"{name}: numcodecs reads our config {case['config']} as {codec.get_config()}")
            encoded = bytes.fromhex(case["encoded"])
            if case["kind"] == "numeric":
                dtype = np.dtype(case["dtype"])
                original = np.frombuffer(bytes.fromhex(case["decoded"]), dtype=dtype)
                want = raw(np.asarray(codec.decode(codec.encode(original.copy()))))
                got = raw(np.asarray(codec.decode(np.frombuffer(encoded, dtype=np.dtype(case["encoded_dtype"])))))
            else:
                arr = np.empty(len(case["items"]), dtype=object)
                arr[:] = [parse_item(case["kind"], x) for x in case["items"]]
                want = [encode_item(case["kind"], x) for x in np.asarray(codec.decode(codec.encode(arr.reshape(case["shape"]))), dtype=object).reshape(-1)]
                got = [encode_item(case["kind"], x) for x in np.asarray(codec.decode(encoded), dtype=object).reshape(-1)]
            if got != want:
                failures.append(f"{name}: numcodecs decodes our chunk to {got!r:.200}, its own to {want!r:.200}")
        except Exception as e:  # noqa: BLE001 - report every failing case, not just the first
            failures.append(f"{name}: {type(e).__name__}: {e}")
    for line in failures:
        print(line)
    print(f"verified {len(ours)} chunks, {len(failures)} failures")
    return 1 if failures else 0


def parse_item(kind, x):
    if x is None:
        return None
    if kind == "bytes":
        return bytes.fromhex(x)
    if kind == "json":
        return json.loads(x)
    return x


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "--verify":
        sys.exit(verify(sys.argv[2]))
    generate(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT)
