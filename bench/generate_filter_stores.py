"""Stores with numcodecs filters that change values, from an ERA5-like store's t2m (the first
2208 hours, 575 MB of float32): the layouts of session 20 in docs/benchmarks-history.md.

    /usr/bin/python3 bench/generate_filter_stores.py ERA5H_STORE OUT_DIR

ERA5H_STORE is what bench/generate_era5_hourly.py writes. Each store is an xarray dataset with t2m
in chunks of 24 x 181 x 360:
    fso           FixedScaleOffset(offset=250, scale=100, float32 as uint16) + blosc lz4 shuffle
    delta         int32 (t2m x 100) with Delta + Zstd(1)
    shuffle_zstd  float32 with numcodecs' Shuffle filter + Zstd(1)
    astype_f8     float64 stored as float32 (AsType) + blosc lz4 shuffle
and two without filters, for comparison:
    f64_lz4       float64 with numcodecs' LZ4 compressor
    zlib_packed   netCDF-style CF packing (int16, scale_factor 0.002, add_offset 265, _FillValue) + Zlib(4)
"""
import sys

import numcodecs
import numpy as np
import xarray as xr

src = xr.open_zarr(sys.argv[1]).isel(time=slice(0, 2208))
out = sys.argv[2]
base = src[["t2m"]].copy()
for v in base.variables:
    base[v].encoding = {}
chunks = (24, 181, 360)
lz4 = numcodecs.Blosc("lz4", 5, numcodecs.Blosc.SHUFFLE)
stores = {
    "fso": (base["t2m"], [numcodecs.FixedScaleOffset(offset=250, scale=100, dtype="<f4", astype="<u2")], lz4),
    "delta": (np.round(base["t2m"] * 100).astype("int32"), [numcodecs.Delta(dtype="<i4")], numcodecs.Zstd(level=1)),
    "shuffle_zstd": (base["t2m"], [numcodecs.Shuffle(elementsize=4)], numcodecs.Zstd(level=1)),
    "astype_f8": (base["t2m"].astype("float64"), [numcodecs.AsType(encode_dtype="f4", decode_dtype="f8")], lz4),
}
for name, (values, filters, compressor) in stores.items():
    ds = base.copy()
    ds["t2m"] = values
    ds["t2m"].encoding = {"filters": filters, "compressor": compressor, "chunks": chunks}
    ds.to_zarr(f"{out}/{name}.zarr", mode="w")
    print(name, "written")

ds = base.copy()
ds["t2m"] = ds["t2m"].astype("float64")
ds["t2m"].encoding = {"compressor": numcodecs.LZ4(), "chunks": chunks}
ds.to_zarr(f"{out}/f64_lz4.zarr", mode="w")
ds = base.copy()
ds["t2m"].encoding = {"dtype": "int16", "scale_factor": 0.002, "add_offset": 265.0, "_FillValue": -32767,
                      "compressor": numcodecs.Zlib(level=4), "chunks": chunks}
ds.to_zarr(f"{out}/zlib_packed.zarr", mode="w")
print("f64_lz4, zlib_packed written")
