#!/usr/bin/python3
"""Codec test vectors from the real numcodecs, and the check of our encodings against it.

  gen_codec_vectors.py [OUT_DIR]     write vectors (default: src/test/resources/codecs)
  gen_codec_vectors.py --verify DIR  decode DIR/manifest.json's encodings with numcodecs

Run with Debian's interpreter (/usr/bin/python3), which has numcodecs 0.11 and numpy.

A manifest lists vectors as {"name", "codec" (numcodecs get_config()), "input", "encoded"},
paths relative to the manifest. Generation writes numcodecs' own encodings; a few extra
vectors ("source" says which) come from other encoders numcodecs must also read: several gzip
members, a gzip member with a file name and zero padding, concatenated zstd frames and a zstd
frame without content size (zstd command line tool reading a pipe).

Verification skips, with the reason printed, what this numcodecs cannot check: codecs or
parameters it does not have (crc32c, fletcher32, "location", zstd "checksum") and inputs it
cannot round-trip itself (numcodecs 0.11 refuses to decode empty zstd and lz4 data).
"""
import gzip
import io
import json
import os
import random
import shutil
import subprocess
import sys

import numcodecs
import numpy as np

LZMA_FILTER_DELTA = 3
LZMA_FILTER_LZMA2 = 33

CONFIGS = [
    {"id": "zlib", "level": 1},
    {"id": "zlib", "level": 9},
    {"id": "gzip", "level": 1},
    {"id": "gzip", "level": 9},
    {"id": "bz2", "level": 1},
    {"id": "bz2", "level": 9},
    {"id": "lzma"},
    {"id": "lzma", "format": 1, "check": 1, "preset": 1},
    {"id": "lzma", "format": 1, "check": 0},
    {"id": "lzma", "format": 1, "check": 10, "preset": 9},
    {"id": "lzma", "format": 2},
    {"id": "lzma", "format": 2, "preset": 1},
    {"id": "lzma", "format": 3, "filters": [{"id": LZMA_FILTER_LZMA2, "preset": 1}]},
    {"id": "lzma", "format": 3,
     "filters": [{"id": LZMA_FILTER_DELTA, "dist": 4}, {"id": LZMA_FILTER_LZMA2, "preset": 6}]},
    {"id": "lzma", "format": 3,
     "filters": [{"id": LZMA_FILTER_LZMA2, "dict_size": 65536, "lc": 3, "lp": 0, "pb": 2}]},
    {"id": "zstd", "level": 1},
    {"id": "zstd", "level": 9},
    {"id": "zstd", "level": -3},
    {"id": "lz4", "acceleration": 1},
    {"id": "lz4", "acceleration": 10},
    {"id": "crc32"},
    {"id": "adler32"},
]


def inputs():
    rnd = random.Random(42)
    return {
        "empty": b"",
        "tiny": b"zarr!",
        "random": bytes(rnd.getrandbits(8) for _ in range(1024)),
        "ints": np.arange(1000, dtype="<i4").tobytes(),
        "text": b"The quick brown fox jumps over the lazy dog. " * 70,
    }


def config_dir(config):
    parts = [config["id"]] + [
        f"{k}{json.dumps(v, separators=(',', ':'))}" for k, v in config.items() if k != "id"]
    name = "-".join(parts)
    for ch in '{}[]":,':
        name = name.replace(ch, "_" if ch in ":," else "")
    return name


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def extras(data):
    """(name, config, encoded, input, source) from encoders other than numcodecs' own."""
    text, ints = data["text"], data["ints"]
    yield ("gzip-two-members", {"id": "gzip", "level": 1},
           gzip.compress(text, 1) + gzip.compress(ints, 9), text + ints,
           "Python gzip.compress twice, concatenated")
    named = io.BytesIO()
    with gzip.GzipFile(filename="chunk.bin", mode="wb", fileobj=named, mtime=0) as f:
        f.write(text)
    yield ("gzip-fname-padded", {"id": "gzip", "level": 1}, named.getvalue() + b"\0" * 8, text,
           "Python gzip.GzipFile with a file name (FNAME header), then 8 zero bytes")
    zstd = numcodecs.Zstd(1)
    yield ("zstd-two-frames", zstd.get_config(), zstd.encode(text) + zstd.encode(ints),
           text + ints, "two numcodecs Zstd frames, concatenated")
    cli = shutil.which("zstd")
    if cli:
        piped = subprocess.run([cli, "-q", "-c", "-3", "--no-check"], input=text,
                               capture_output=True, check=True).stdout
        yield ("zstd-no-content-size", zstd.get_config(), piped, text,
               "zstd command line tool reading a pipe (frame without content size)")


def generate(out):
    if os.path.isdir(out):
        shutil.rmtree(out)
    data = inputs()
    for name, raw in data.items():
        write(os.path.join(out, "inputs", name + ".bin"), raw)
    vectors = []
    for spec in CONFIGS:
        codec = numcodecs.get_codec(dict(spec))
        config = codec.get_config()
        sub = config_dir(spec)
        for name, raw in data.items():
            rel = f"{sub}/{name}.bin"
            write(os.path.join(out, rel), bytes(codec.encode(raw)))
            vectors.append({"name": f"{sub}/{name}", "codec": config,
                            "input": f"inputs/{name}.bin", "encoded": rel})
    for name, config, encoded, raw, source in extras(data):
        write(os.path.join(out, "extra", name + ".bin"), encoded)
        write(os.path.join(out, "extra", name + ".raw"), raw)
        vectors.append({"name": "extra/" + name, "codec": config, "input": f"extra/{name}.raw",
                        "encoded": f"extra/{name}.bin", "source": source})
    manifest = {"generator": "integration-tests/gen_codec_vectors.py",
                "numcodecs": numcodecs.__version__, "vectors": vectors}
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(f"wrote {len(vectors)} vectors with numcodecs {numcodecs.__version__} to {out}")


def read(base, rel):
    with open(os.path.join(base, rel), "rb") as f:
        return f.read()


def verify(directory):
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    ok = skipped = failed = 0
    for v in manifest["vectors"]:
        name = v["name"]
        raw, encoded = read(directory, v["input"]), read(directory, v["encoded"])
        try:
            codec = numcodecs.get_codec(dict(v["codec"]))
        except (KeyError, TypeError, ValueError) as e:
            print(f"SKIP {name}: numcodecs {numcodecs.__version__} has no such codec: {e!r}")
            skipped += 1
            continue
        try:
            codec.decode(codec.encode(raw))
        except Exception as e:  # numcodecs' own limitation, not our encoding's fault
            print(f"SKIP {name}: numcodecs cannot round-trip this input itself: {e!r}")
            skipped += 1
            continue
        try:
            decoded = bytes(codec.decode(encoded))
        except Exception as e:
            print(f"FAIL {name}: numcodecs cannot decode it: {e!r}")
            failed += 1
            continue
        if decoded != raw:
            print(f"FAIL {name}: decodes to {len(decoded)} bytes that differ from the input")
            failed += 1
        else:
            ok += 1
    print(f"numcodecs {numcodecs.__version__}: verified {ok}, skipped {skipped}, failed {failed}")
    return 1 if failed or not ok else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--verify":
        return verify(argv[2])
    if len(argv) > 2:
        print(__doc__, file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(__file__))
    default = os.path.join(here, "..", "src", "test", "resources", "codecs")
    generate(os.path.normpath(argv[1] if len(argv) == 2 else default))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
