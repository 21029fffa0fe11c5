#!/usr/bin/python3
"""Writes the suite's field in other layouts, with xarray's to_zarr (what users' stores come from),
to check that no figure depends on the suite's one layout (float32, 1 MiB chunks, three codecs).

    f64_zstd      float64, chunks 16 x 128 x 128 (2 MiB), Zstd level 1
    packed_i16    int16 packed by CF scale_factor 0.01 / add_offset 273.15 / _FillValue, blosc lz4
                  byte shuffle (how ERA5 and much netCDF-born climate data is stored)
    plane_blosc   float32, chunks 1 x 512 x 512 (one time step each), blosc lz4 byte shuffle
    column_blosc  float32, chunks T x 32 x 32 (long time series), blosc lz4 byte shuffle
    gzip          float32, chunks 16 x 128 x 128, GZip level 1
    bloscz_bit    float32, chunks 16 x 128 x 128, blosc zstd bit shuffle
    u8_blosc      uint8 (an image-like quantisation), chunks 32 x 256 x 256, blosc lz4 byte shuffle
    i32_zstd      int32 (values x 100), chunks 16 x 128 x 128, Zstd level 1
    era5_grid     float32 on ERA5's 721 x 1440 grid (T/4 time steps), chunks 16 x 100 x 100, blosc
                  lz4 byte shuffle: no chunk size divides the grid, so a quarter of the chunks are
                  partial edge chunks

Each is a dataset with coordinates time, lat, lon and one variable `value`, consolidated.
Run with Debian's /usr/bin/python3 (zarr 2.13, numcodecs 0.11, xarray):
    bench/generate_variants.py OUT_DIR TIME_STEPS [NAME...]
"""
import os
import sys

import numcodecs
import numpy as np
import xarray as xr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate_stores import field  # noqa: E402  the suite's values

LAT, LON = 512, 512
ODD_GRID = (721, 1440)  # ERA5's 0.25 degree grid


def variants(v, t):
    def blosc(cname, shuffle):
        return numcodecs.Blosc(cname=cname, clevel=5, shuffle=shuffle)
    chunks = (16, 128, 128)
    return {
        "f64_zstd": (v.astype(np.float64), dict(chunks=chunks, compressor=numcodecs.Zstd(level=1))),
        "packed_i16": (v, dict(chunks=chunks, dtype="int16", scale_factor=0.01, add_offset=273.15,
                               _FillValue=-32768, compressor=blosc("lz4", numcodecs.Blosc.SHUFFLE))),
        "plane_blosc": (v, dict(chunks=(1, LAT, LON), compressor=blosc("lz4", numcodecs.Blosc.SHUFFLE))),
        "column_blosc": (v, dict(chunks=(t, 32, 32), compressor=blosc("lz4", numcodecs.Blosc.SHUFFLE))),
        "gzip": (v, dict(chunks=chunks, compressor=numcodecs.GZip(level=1))),
        "bloscz_bit": (v, dict(chunks=chunks, compressor=blosc("zstd", numcodecs.Blosc.BITSHUFFLE))),
        "u8_blosc": (np.clip((v - 250) * 3, 0, 255).astype(np.uint8),
                     dict(chunks=(32, 256, 256), compressor=blosc("lz4", numcodecs.Blosc.SHUFFLE))),
        "i32_zstd": (np.round(v * 100).astype(np.int32), dict(chunks=chunks, compressor=numcodecs.Zstd(level=1))),
    }


def write(out, name, values, encoding):
    t, lat, lon = values.shape
    coords = {"time": np.arange(t), "lat": np.linspace(-90, 90, lat),
              "lon": np.linspace(0, 360, lon, endpoint=False)}
    ds = xr.Dataset({"value": (("time", "lat", "lon"), values)}, coords=coords)
    ds.to_zarr(os.path.join(out, name + ".zarr"), mode="w", encoding={"value": encoding}, consolidated=True)
    print(f"{name}: written")


def main():
    out, t = sys.argv[1], int(sys.argv[2])
    only = set(sys.argv[3:])
    v = field(0, t, LAT, LON, np.random.default_rng(1))
    os.makedirs(out, exist_ok=True)
    for name, (values, encoding) in variants(v, t).items():
        if not only or name in only:
            write(out, name, values, encoding)
    if not only or "era5_grid" in only:
        lat, lon = ODD_GRID
        steps = max(1, t * LAT * LON // (lat * lon))  # about as many values as the others
        blosc = numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)
        write(out, "era5_grid", field(0, steps, lat, lon, np.random.default_rng(2)),
              dict(chunks=(16, 100, 100), compressor=blosc))


if __name__ == "__main__":
    main()
