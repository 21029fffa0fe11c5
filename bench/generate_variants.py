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

More layouts, written only when named (see EXTRA): stores the other benchmarks never read.

    f32_zstd      float32, chunks 16 x 128 x 128, Zstd level 1 (the twin of v3_zstd)
    v3_zstd       the same chunks in Zarr v3 as zarr-python 3 writes it (bytes + zstd, chunk keys
                  c/t/y/x, no consolidated metadata), written here by hand: zarr 2.13 cannot
    be_blosc      big-endian float32 (">f4"), blosc lz4 byte shuffle
    forder_blosc  float32 chunks in Fortran order (v2 "order": "F"), blosc lz4 byte shuffle
    quantize_zlib float32 through numcodecs' Quantize filter (2 digits), then Zlib level 1
    lz4_small     float32, chunks 8 x 64 x 64 (128 KiB), numcodecs' LZ4
    bloscl_bit    float32, chunks 16 x 128 x 128, blosc lz4 bit shuffle (the twin of bloscz_bit)

Each is a dataset with coordinates time, lat, lon and one variable `value`, consolidated.
Run with Debian's /usr/bin/python3 (zarr 2.13, numcodecs 0.11, xarray):
    bench/generate_variants.py OUT_DIR TIME_STEPS [NAME...]
"""
import json
import shutil
import os
import sys

import numcodecs
import numpy as np
import xarray as xr
import zarr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate_stores import climate_field as field  # noqa: E402  the suite's values

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


EXTRA = ("f32_zstd", "v3_zstd", "be_blosc", "forder_blosc", "quantize_zlib", "lz4_small", "bloscl_bit")


def extra(v):
    def blosc():
        return numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)
    chunks = (16, 128, 128)
    return {
        "f32_zstd": (v, dict(chunks=chunks, compressor=numcodecs.Zstd(level=1))),
        "be_blosc": (v.astype(">f4"), dict(chunks=chunks, dtype=">f4", compressor=blosc())),
        "forder_blosc": (v, dict(chunks=chunks, compressor=blosc())),
        "quantize_zlib": (v, dict(chunks=chunks, compressor=numcodecs.Zlib(level=1),
                                  filters=[numcodecs.Quantize(digits=2, dtype="<f4")])),
        "lz4_small": (v, dict(chunks=(8, 64, 64), compressor=numcodecs.LZ4())),
        "bloscl_bit": (v, dict(chunks=chunks, compressor=numcodecs.Blosc(
            cname="lz4", clevel=5, shuffle=numcodecs.Blosc.BITSHUFFLE))),
    }


def fortran_order(out, name):
    """Rewrites `value` with its chunks in Fortran order (xarray's encoding cannot ask for it)."""
    group = zarr.open_group(os.path.join(out, name + ".zarr"), mode="r+")
    old = group["value"]
    values, attrs = old[...], dict(old.attrs)
    del group["value"]
    new = group.create("value", shape=old.shape, chunks=old.chunks, dtype=old.dtype, order="F",
                       compressor=old.compressor, fill_value=old.fill_value)
    new[...] = values
    new.attrs.update(attrs)
    zarr.consolidate_metadata(group.store)


def write_v3(out, name, values, chunks):
    """The dataset in Zarr v3 as zarr-python 3 writes it by default: bytes (little endian) + zstd,
    chunk keys c/i/j/k, dimension_names, NaN fill value, no consolidated metadata."""
    root = os.path.join(out, name + ".zarr")
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(root)

    def meta(path, doc):
        with open(os.path.join(path, "zarr.json"), "w") as f:
            json.dump(doc, f, indent=2)

    def array(aname, data, achunks, dims, dtype, fill):
        path = os.path.join(root, aname)
        os.makedirs(path)
        meta(path, {"zarr_format": 3, "node_type": "array", "shape": list(data.shape), "data_type": dtype,
                    "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(achunks)}},
                    "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
                    "fill_value": fill, "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                                                  {"name": "zstd", "configuration": {"level": 1, "checksum": False}}],
                    "attributes": {}, "dimension_names": dims})
        codec = numcodecs.Zstd(level=1)
        grid = [range(0, n, c) for n, c in zip(data.shape, achunks)]
        for corner in np.ndindex(*[len(g) for g in grid]):
            key = [i for i in corner]
            box = tuple(slice(i * c, i * c + c) for i, c in zip(corner, achunks))
            block = np.zeros(achunks, dtype=data.dtype)
            piece = data[box]
            block[tuple(slice(0, n) for n in piece.shape)] = piece
            dest = os.path.join(path, "c", *[str(k) for k in key])
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with open(dest, "wb") as f:
                f.write(codec.encode(np.ascontiguousarray(block, dtype="<" + data.dtype.str[1:])))

    t, lat, lon = values.shape
    meta(root, {"zarr_format": 3, "node_type": "group", "attributes": {}})
    array("time", np.arange(t, dtype="<i8"), (t,), ["time"], "int64", 0)
    array("lat", np.linspace(-90, 90, lat), (lat,), ["lat"], "float64", "NaN")
    array("lon", np.linspace(0, 360, lon, endpoint=False), (lon,), ["lon"], "float64", "NaN")
    array("value", values.astype("<f4"), chunks, ["time", "lat", "lon"], "float32", "NaN")
    print(f"{name}: written")


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
    for name, (values, encoding) in extra(v).items():
        if name in only:
            write(out, name, values, encoding)
            if name == "forder_blosc":
                fortran_order(out, name)
    if "v3_zstd" in only:
        write_v3(out, "v3_zstd", v, (16, 128, 128))
    if not only or "era5_grid" in only:
        lat, lon = ODD_GRID
        steps = max(1, t * LAT * LON // (lat * lon))  # about as many values as the others
        blosc = numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE)
        write(out, "era5_grid", field(0, steps, lat, lon, np.random.default_rng(2)),
              dict(chunks=(16, 100, 100), compressor=blosc))


if __name__ == "__main__":
    main()
