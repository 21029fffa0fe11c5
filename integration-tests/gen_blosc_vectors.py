#!/usr/bin/python3
"""Blosc1 test vectors from Debian's libblosc, and the check of frames our Java encoder wrote.

Run with Debian's python (it has numcodecs 0.11 linked against libblosc 1.21):

  /usr/bin/python3 integration-tests/gen_blosc_vectors.py [OUT_DIR]
      writes raw inputs, libblosc frames and manifest.json (default src/test/resources/blosc)
  /usr/bin/python3 integration-tests/gen_blosc_vectors.py --verify DIR
      decompresses every frame DIR/manifest.json lists with libblosc and compares it with its raw
      file; exits 1 on any difference

Frames are made with libblosc's blosc_compress_ctx through ctypes, the call numcodecs makes, so
that any typesize can go with any length (numcodecs takes the typesize from a numpy dtype, which
needs whole elements); for whole elements the script checks numcodecs.Blosc gives the same bytes.
"""
import ctypes
import ctypes.util
import hashlib
import json
import os
import random
import sys

import numcodecs
import numcodecs.blosc
import numpy as np

CNAMES = ["blosclz", "lz4", "lz4hc", "snappy", "zlib", "zstd"]
SHUFFLES = [0, 1, 2]
TYPESIZES = [1, 2, 3, 4, 8, 12, 16, 17, 33]
PATTERNS = ["ramp", "noisy", "random", "constant"]

# With threads libblosc places blocks in the order they finish: same data, varying bytes.
numcodecs.blosc.use_threads = False

_lib = ctypes.CDLL(ctypes.util.find_library("blosc") or "libblosc.so.1")
_lib.blosc_compress_ctx.argtypes = [
    ctypes.c_int, ctypes.c_int, ctypes.c_size_t, ctypes.c_size_t, ctypes.c_void_p,
    ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int]
_lib.blosc_get_version_string.restype = ctypes.c_char_p


def libblosc_compress(raw, cname, clevel, shuffle, typesize, blocksize):
    dest = ctypes.create_string_buffer(len(raw) + 16)
    n = _lib.blosc_compress_ctx(clevel, shuffle, typesize, len(raw), raw, dest, len(raw) + 16,
                                cname.encode(), blocksize, 1)
    if n <= 0:
        raise RuntimeError("blosc_compress_ctx failed: %d" % n)
    return dest.raw[:n]


def make(pattern, typesize, nbytes, seed):
    """Deterministic data: element ramps, noisy ramps, random bytes or a constant."""
    rng = random.Random(seed)
    if pattern == "random":
        return bytes(rng.getrandbits(8) for _ in range(nbytes))
    if pattern == "constant":
        return b"\x42" * nbytes
    out = bytearray()
    i = 0
    while len(out) < nbytes:
        value = i * 3 if pattern == "ramp" else i * 7 + rng.randrange(4)
        out += (value % (1 << (8 * min(typesize, 7)))).to_bytes(typesize, "little", signed=False)
        i += 1
    return bytes(out[:nbytes])


def sawtooth(nbytes):
    """Large compressible input (int32 counting modulo 1000) for multi-block automatic sizes."""
    return (np.arange(nbytes // 4 + 1, dtype="<i4") % 1000).tobytes()[:nbytes]


class Writer:
    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.vectors = []
        os.makedirs(os.path.join(out_dir, "raw"), exist_ok=True)
        os.makedirs(os.path.join(out_dir, "frames"), exist_ok=True)

    def add(self, raw, cname, clevel, shuffle, typesize, blocksize, pattern):
        frame = libblosc_compress(raw, cname, clevel, shuffle, typesize, blocksize)
        if typesize > 0 and len(raw) % typesize == 0 and len(raw) > 0:
            codec = numcodecs.Blosc(cname=cname, clevel=clevel, shuffle=shuffle,
                                    blocksize=blocksize)
            via_numcodecs = bytes(codec.encode(np.frombuffer(raw, dtype="S%d" % typesize)))
            assert via_numcodecs == frame, ("numcodecs and blosc_compress_ctx disagree", cname, clevel, shuffle, typesize, blocksize, len(raw), frame[:16].hex(), via_numcodecs[:16].hex())
        if raw:  # numcodecs reports libblosc's 0 bytes decompressed as an error
            assert bytes(numcodecs.blosc.decompress(frame)) == raw
        else:
            assert numcodecs.blosc.cbuffer_sizes(frame)[0] == 0
        raw_name = "raw/%s.bin" % hashlib.sha1(raw).hexdigest()[:16]
        with open(os.path.join(self.out_dir, raw_name), "wb") as f:
            f.write(raw)
        frame_name = "frames/%04d.blosc" % len(self.vectors)
        with open(os.path.join(self.out_dir, frame_name), "wb") as f:
            f.write(frame)
        self.vectors.append({
            "frame": frame_name, "raw": raw_name, "cname": cname, "clevel": clevel,
            "shuffle": shuffle, "typesize": typesize, "blocksize": blocksize,
            "pattern": pattern, "nbytes": len(raw)})

    def finish(self):
        manifest = {"libblosc": _lib.blosc_get_version_string().decode(),
                    "numcodecs": numcodecs.__version__, "vectors": self.vectors}
        with open(os.path.join(self.out_dir, "manifest.json"), "w") as f:
            f.write(json.dumps(manifest, separators=(",", ":")).replace("{\"frame", "\n{\"frame"))
        print("wrote %d vectors to %s" % (len(self.vectors), self.out_dir))


def generate(out_dir):
    w = Writer(out_dir)
    # The main matrix: every codec and shuffle against element sizes and block sizes, with whole
    # element counts that are multiples of 8 (so bit shuffle really transposes) or a ragged tail.
    combo = 0
    for typesize in TYPESIZES:
        elems = 8 * -(-5000 // (8 * typesize))
        for blocksize, tail in [(0, 0), (256, 5), (4096, 3), (192 * typesize, 0)]:
            pattern = PATTERNS[combo % len(PATTERNS)]
            raw = make(pattern, typesize, elems * typesize + tail, seed=combo)
            combo += 1
            for cname in CNAMES:
                for shuffle in SHUFFLES:
                    w.add(raw, cname, 5, shuffle, typesize, blocksize, pattern)
    # Tiny and empty inputs (below one element, below libblosc's 128-byte minimum, just above).
    for nbytes in [0, 1, 7, 100, 130]:
        raw = make("noisy", 8, nbytes, seed=nbytes)
        for cname in CNAMES:
            for shuffle in SHUFFLES:
                w.add(raw, cname, 5, shuffle, 8, 0, "tiny")
    # clevel 0 (stored), 1 and 9, and typesizes the matrix lacks.
    for clevel, typesize in [(0, 1), (0, 4), (1, 4), (9, 2), (9, 8), (9, 255), (1, 64)]:
        raw = make("noisy", typesize, 3000 // typesize * typesize, seed=clevel * 1000 + typesize)
        for cname in CNAMES:
            for shuffle in SHUFFLES:
                w.add(raw, cname, clevel, shuffle, typesize, 0, "noisy")
    # Large inputs with automatic block sizes spanning several blocks (clevel 1 keeps them small).
    raw = sawtooth(140003)
    for cname in CNAMES:
        for shuffle in SHUFFLES:
            for clevel in [1, 5]:
                w.add(raw, cname, clevel, shuffle, 4, 0, "sawtooth")
    w.finish()


def verify(directory):
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    failures = 0
    for v in manifest["vectors"]:
        with open(os.path.join(directory, v["frame"]), "rb") as f:
            frame = f.read()
        with open(os.path.join(directory, v["raw"]), "rb") as f:
            raw = f.read()
        try:
            nbytes, cbytes, blocksize = numcodecs.blosc.cbuffer_sizes(frame)
            if cbytes != len(frame):
                raise ValueError("cbytes %d but frame has %d bytes" % (cbytes, len(frame)))
            decoded = bytes(numcodecs.blosc.decompress(frame)) if nbytes else b""
            if decoded != raw:
                raise ValueError("decodes to different bytes")
        except Exception as e:  # report every failing frame, not only the first
            failures += 1
            print("FAIL %s (%s): %s" % (v["frame"], v.get("name", ""), e))
    print("verified %d frames with libblosc %s, %d failed"
          % (len(manifest["vectors"]), _lib.blosc_get_version_string().decode(), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--verify":
        sys.exit(verify(sys.argv[2]))
    here = os.path.dirname(os.path.abspath(__file__))
    generate(sys.argv[1] if len(sys.argv) > 1
             else os.path.join(here, "..", "src", "test", "resources", "blosc"))
