#!/usr/bin/python3
"""numcodecs' own single-threaded decode of every chunk of one array, stored bytes read first: what
xarray+dask's threads decode with, beside the suite's Java decode limit.

    bench/numcodecs_decode.py ARRAY_DIR [PASSES]    (Debian's /usr/bin/python3, zarr 2.13)

ARRAY_DIR is a v2 array (its .zarray names the compressor); prints each pass's time and MiB/s
of decoded bytes.
"""
import json
import os
import sys
import time

import numcodecs


def main(array_dir, passes):
    with open(os.path.join(array_dir, ".zarray")) as f:
        codec = numcodecs.get_codec(json.load(f)["compressor"])
    names = [n for n in os.listdir(array_dir) if not n.startswith(".")]
    stored = []
    for n in names:
        with open(os.path.join(array_dir, n), "rb") as f:
            stored.append(f.read())
    print(f"{codec} on {len(stored)} chunks of {array_dir}")
    for _ in range(passes):
        start = time.perf_counter()
        decoded = sum(len(codec.decode(b)) for b in stored)
        took = time.perf_counter() - start
        print(f"{took:.3f} s, {decoded / took / 2**20:.0f} MiB/s decoded")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 4)
