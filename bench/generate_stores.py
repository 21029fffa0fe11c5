#!/usr/bin/python3
"""Writes the benchmark array with zarr-python, so the Java reader is measured on files it did not write.

One float32 3-D field value(time, lat, lon): a climate-like 2 m temperature (cold poles, a daily
cycle, a longitude wave, a slow trend) plus a little noise, so compression ratios are those of
real model output rather than of zeros or of random bytes. Three stores, same values:
    raw.zarr    no compressor
    zstd.zarr   numcodecs Zstd(level=1)
    blosc.zarr  numcodecs Blosc(lz4, clevel=5, byte shuffle)
Each store is a group with one array `value` and xarray's _ARRAY_DIMENSIONS, consolidated.

Other values, for a suite run on data unlike the default's (FIELD, default climate):
    random      uniform in [260, 300): every mantissa bit noise, so the codecs store most bytes
                as they are (zstd 1.25x, blosc 1.33x)
    smooth      the climate field without its noise, rounded to 0.01 (as BitRound or a model's
                output precision leave it): zstd 2.5x, blosc 2.7x

Run with Debian's /usr/bin/python3 (zarr 2.13, numcodecs 0.11):
    bench/generate_stores.py OUT_DIR TIME LAT LON CHUNK_TIME CHUNK_LAT CHUNK_LON [FIELD]
"""
import os
import sys
import time

import numcodecs
import numpy as np
import zarr


def smooth(t0, t1, lat, lon):
    """The climate field's noiseless part over time steps [t0, t1), float64, C order (time, lat, lon)."""
    t = np.arange(t0, t1, dtype=np.float64)[:, None, None]
    la = np.linspace(-90.0, 90.0, lat)[None, :, None]
    lo = np.linspace(0.0, 360.0, lon, endpoint=False)[None, None, :]
    return (288.0 - 30.0 * np.abs(la) / 90.0
            + 5.0 * np.sin(2 * np.pi * (t % 24) / 24.0) * np.cos(np.radians(la))
            + 2.0 * np.cos(np.radians(lo) * 3 + t / 100.0)
            + 0.001 * t)


def climate_field(t0, t1, lat, lon, rng):
    """The values of time steps [t0, t1): float32, C order (time, lat, lon)."""
    v = smooth(t0, t1, lat, lon) + rng.normal(0.0, 0.05, size=(t1 - t0, lat, lon))
    return v.astype(np.float32)


def random_field(t0, t1, lat, lon, rng):
    return (rng.random(size=(t1 - t0, lat, lon), dtype=np.float32) * 40 + 260).astype(np.float32)


def smooth_field(t0, t1, lat, lon, rng):
    return np.round(smooth(t0, t1, lat, lon), 2).astype(np.float32)


FIELDS = {"climate": climate_field, "random": random_field, "smooth": smooth_field}


def main():
    out = sys.argv[1]
    shape = tuple(int(x) for x in sys.argv[2:5])
    chunks = tuple(int(x) for x in sys.argv[5:8])
    name = sys.argv[8] if len(sys.argv) > 8 else "climate"
    if name not in FIELDS:
        sys.exit(f"unknown field {name!r}: one of {', '.join(FIELDS)}")
    field = FIELDS[name]
    compressors = {
        "raw": None,
        "zstd": numcodecs.Zstd(level=1),
        "blosc": numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE),
    }
    os.makedirs(out, exist_ok=True)
    arrays = {}
    for name, compressor in compressors.items():
        root = zarr.open_group(os.path.join(out, name + ".zarr"), mode="w")
        a = root.create_dataset("value", shape=shape, chunks=chunks, dtype="<f4",
                                compressor=compressor, fill_value=float("nan"))
        a.attrs["_ARRAY_DIMENSIONS"] = ["time", "lat", "lon"]
        arrays[name] = a
    start = time.time()
    rng = np.random.default_rng(42)
    step = chunks[0]
    for t0 in range(0, shape[0], step):
        t1 = min(shape[0], t0 + step)
        block = field(t0, t1, shape[1], shape[2], rng)
        for a in arrays.values():
            a[t0:t1] = block  # whole chunk rows: each chunk is encoded exactly once
    for name in compressors:
        zarr.consolidate_metadata(os.path.join(out, name + ".zarr"))
    for name, a in arrays.items():
        print(f"{name}: shape {a.shape} chunks {a.chunks} stored {a.nbytes_stored / 2**20:.1f} MiB "
              f"ratio {a.nbytes / a.nbytes_stored:.2f}")
    print(f"generated in {time.time() - start:.1f} s")


if __name__ == "__main__":
    main()
