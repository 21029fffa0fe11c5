#!/usr/bin/python3
"""Stores as users make them in one line, with xarray's and zarr's defaults (no encoding given:
blosc lz4 with byte shuffle, zarr's own chunk shape), 1 GiB decoded each:

    rand64     float64 uniform noise, numpy's default dtype (np.random.rand)
    smooth64   float64, a smooth field plus a little noise, as a model writes it
    int64      int64 counts 0..99, numpy's default integer dtype

Run with Debian's /usr/bin/python3 (zarr 2.13, xarray):
    bench/generate_user_stores.py OUT_DIR
then, for instance, bench/store.sh --write-reps 0 --heap-mib 0 OUT_DIR/rand64.zarr
"""
import os
import sys

import numpy as np
import xarray as xr

T, Y, X = 1024, 256, 512


def main(out):
    os.makedirs(out, exist_ok=True)
    rng = np.random.default_rng(0)
    coords = {"time": np.arange(T), "y": np.linspace(-90, 90, Y), "x": np.linspace(0, 360, X, endpoint=False)}
    dims = ("time", "y", "x")
    xr.Dataset({"v": (dims, rng.random((T, Y, X)))}, coords=coords).to_zarr(
        os.path.join(out, "rand64.zarr"), mode="w")
    t = np.arange(T)[:, None, None]
    y = np.linspace(-1, 1, Y)[None, :, None]
    x = np.linspace(0, 6.28, X)[None, None, :]
    w = 280 + 20 * np.cos(y * 1.5) + 5 * np.sin(x + t / 50.0) + rng.normal(0, 0.1, (T, Y, X))
    xr.Dataset({"w": (dims, w)}, coords=coords).to_zarr(os.path.join(out, "smooth64.zarr"), mode="w")
    n = np.random.default_rng(1).integers(0, 100, (T, Y, X))
    xr.Dataset({"n": (dims, n)}, coords={"time": np.arange(T)}).to_zarr(os.path.join(out, "int64.zarr"), mode="w")
    print("wrote rand64, smooth64, int64 in", out)


if __name__ == "__main__":
    main(sys.argv[1])
