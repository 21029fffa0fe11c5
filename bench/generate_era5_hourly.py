"""An ERA5-like hourly store as xarray writes it by default, and two copies with lossy filters.

    /usr/bin/python3 bench/generate_era5_hourly.py DIR

DIR/era5h.zarr: t2m(time, latitude, longitude) float32, 4392 hours x 181 x 360 (1.1 GiB decoded),
one day per chunk (24 x 181 x 360, 6.0 MiB), xarray's defaults otherwise (Blosc lz4, byte shuffle,
NaN fill, datetime64 time encoded as "hours since"), and a 2-D lsm beside it. DIR/bitround.zarr and
DIR/quantize.zarr: the same t2m through numcodecs' BitRound(keepbits=10) or Quantize(digits=2)
before the same Blosc. See docs/benchmarks-history.md, "Filters that only encode, and MIN with MAX" (session 17).
"""
import sys

import dask.array as da
import numcodecs
import numpy as np
import pandas as pd
import xarray as xr

T, Y, X = 4392, 181, 360
out = sys.argv[1]
time = pd.date_range("2020-01-01", periods=T, freq="h")
lat = np.linspace(90, -90, Y)
lon = np.arange(X, dtype="f8")


def day(block_info=None):
    t0, t1 = block_info[None]["array-location"][0]
    t = np.arange(t0, t1)[:, None, None]
    base = 288 - 30 * np.abs(lat[None, :, None]) / 90 + 5 * np.sin(2 * np.pi * (t / 24.0 + lon[None, None, :] / 360.0))
    return (base + np.random.default_rng(t0).normal(0, 1, (t1 - t0, Y, X))).astype("f4")


t2m = da.map_blocks(day, chunks=((24,) * (T // 24), (Y,), (X,)), dtype="f4")
lsm = (np.random.default_rng(1).random((Y, X)) > 0.7).astype("f4")
ds = xr.Dataset({"t2m": (("time", "latitude", "longitude"), t2m, {"units": "K"}),
                 "lsm": (("latitude", "longitude"), lsm)},
                coords={"time": time, "latitude": lat, "longitude": lon})
ds.to_zarr(f"{out}/era5h.zarr", mode="w")

for name, f in [("bitround", numcodecs.BitRound(keepbits=10)), ("quantize", numcodecs.Quantize(digits=2, dtype="f4"))]:
    copy = xr.open_zarr(f"{out}/era5h.zarr")
    for v in copy.variables:
        copy[v].encoding = {}
    copy["t2m"].encoding = {"filters": [f], "chunks": (24, Y, X),
                            "compressor": numcodecs.Blosc("lz4", 5, numcodecs.Blosc.SHUFFLE)}
    copy.to_zarr(f"{out}/{name}.zarr", mode="w")
