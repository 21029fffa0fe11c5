#!/usr/bin/python3
"""Writes the Jazzer seed inputs of MetadataFuzzTest and CodecFuzzTest from the corpora.

Usage: /usr/bin/python3 integration-tests/make_fuzz_seeds.py
Run after generate_hostile_stores.py. Seeds go to
src/test/resources/io/github/sparkzarr/zarr/fuzz/<TestClass>Inputs/<method>/, where Jazzer looks
for them: regression runs (no JAZZER_FUZZ) execute exactly these, fuzzing starts from them.
Crashing inputs Jazzer finds are added there by hand once fixed, named "finding-*".
"""

import glob
import hashlib
import os
import shutil
import sys

import numpy as np
from numcodecs import BZ2, LZ4, LZMA, Adler32, Blosc, CRC32, Delta, GZip, VLenBytes, VLenUTF8, Zlib, Zstd

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from generate_hostile_stores import encoded, shard  # noqa: E402
ROOT = os.path.join(HERE, "..")
CORPUS = os.path.join(ROOT, "src", "test", "resources", "corpus")
OUT = os.path.join(ROOT, "src", "test", "resources", "io", "github", "sparkzarr", "zarr", "fuzz")
MAX_SEED = 300 * 1024
PER_METHOD = 40
CHUNK = np.arange(16, dtype="<i4") * 7 - 30


def seeds(cls, method, blobs):
    d = os.path.join(OUT, cls + "Inputs", method)
    for old in glob.glob(os.path.join(d, "seed-*")):
        os.remove(old)
    os.makedirs(d, exist_ok=True)
    kept = 0
    for blob in blobs:
        if len(blob) > MAX_SEED or kept >= PER_METHOD:
            continue
        with open(os.path.join(d, "seed-" + hashlib.sha1(blob).hexdigest()[:12]), "wb") as f:
            f.write(blob)
        kept += 1
    return kept


def files(pattern, limit=PER_METHOD):
    out = []
    for p in sorted(glob.glob(os.path.join(CORPUS, pattern), recursive=True))[:limit]:
        with open(p, "rb") as f:
            out.append(f.read())
    return out


def hostile_chunks(word):
    """Chunks of hostile stores whose name mentions `word`."""
    out = []
    for d in sorted(glob.glob(os.path.join(CORPUS, "hostile", "*%s*" % word))):
        # v1/v2/v3 chunks: a/0, a/c/0; v3 draft chunks: data/root/a/c0
        found = glob.glob(os.path.join(d, "a", "**", "[0-9]*"), recursive=True) \
            + glob.glob(os.path.join(d, "data", "root", "a", "c[0-9]*"))
        for p in sorted(found):
            if os.path.isfile(p):
                with open(p, "rb") as f:
                    out.append(f.read())
    return out


def main():
    raw = CHUNK.tobytes()
    total = 0
    total += seeds("MetadataFuzzTest", "v1Meta", files("v1/*/meta") + files("hostile/v1_*/a/meta"))
    total += seeds("MetadataFuzzTest", "v2Zarray",
                   files("v2/**/.zarray", 15) + files("hostile/v2_*/a/.zarray", 25))
    total += seeds("MetadataFuzzTest", "v3ZarrJson",
                   files("v3/**/zarr.json", 10) + files("v3-sharded/**/zarr.json", 5)
                   + files("hostile/v3_*/a/zarr.json", 25))
    total += seeds("MetadataFuzzTest", "v3Draft",
                   files("v3draft/draft.zarr/zarr.json") + files("v3draft/draft.zarr/meta/**/*.json", 14)
                   + files("hostile/v3draft_entry_*/zarr.json", 10)
                   + files("hostile/v3draft_*/meta/root/a.array.json", 15))
    total += seeds("MetadataFuzzTest", "consolidated",
                   files("v2/**/.zmetadata") + files("hostile/*/.zmetadata")
                   + files("hostile/v3_consolidated_*/zarr.json"))
    strings = np.array(["", "a", "héllo", "x" * 40] * 8, dtype=object)[:16]
    codec_seeds = {
        "blosc": [bytes(Blosc(c, 5, s).encode(raw)) for c in ("lz4", "zstd", "zlib", "blosclz")
                  for s in (0, 1, 2)] + hostile_chunks("blosc"),
        "zlib": [bytes(Zlib(1).encode(raw))] + hostile_chunks("zlib"),
        "gzip": [encoded(GZip(1), raw)] + hostile_chunks("gzip"),
        "bz2": [bytes(BZ2(1).encode(raw))] + hostile_chunks("bz2"),
        "lzma": [bytes(LZMA().encode(raw))] + hostile_chunks("lzma"),
        "zstd": [bytes(Zstd(1).encode(raw))] + hostile_chunks("zstd"),
        "lz4": [bytes(LZ4(1).encode(raw))] + hostile_chunks("lz4"),
        "checksums": [bytes(CRC32().encode(raw)), bytes(Adler32().encode(raw))]
                     + hostile_chunks("mismatch"),
        "filters": [bytes(Delta("<i4").encode(raw)), raw, raw * 2],
        "vlen": [bytes(VLenUTF8().encode(strings)),
                 bytes(VLenBytes().encode(np.array([s.encode() for s in strings], dtype=object)))]
                + hostile_chunks("vlen_utf8") + hostile_chunks("vlen_bytes"),
        "sharding": [shard([(0, 16), (16, 16), (32, 16), (48, 16)], crc=True)]
                    + hostile_chunks("v3_shard"),
    }
    for method, blobs in codec_seeds.items():
        total += seeds("CodecFuzzTest", method, blobs)
    print("wrote %d seeds under %s" % (total, OUT))


if __name__ == "__main__":
    sys.exit(main())
