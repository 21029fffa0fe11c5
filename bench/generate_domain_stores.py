#!/usr/bin/python3
"""Stores as imaging and genomics tools lay them out, 1 GiB decoded each, written with zarr-python
so the reader is measured on files it did not write:

    image_u16  a 5-D OME-Zarr-style image (t, c, z, y, x) = (1, 2, 64, 2048, 2048) of uint16
               counts (smooth background, bright spots, Poisson noise), chunks (1, 1, 1, 1024,
               1024) as bioformats2raw writes them, blosc lz4 with byte shuffle
    calls_i8   genotype calls (variants, samples, ploidy) = (1048576, 512, 2) of int8: 0 or 1,
               -1 for a missing call, chunks (10000, 512, 2) as sgkit/bio2zarr write them, blosc
               zstd level 7 with bit shuffle
    images_u8  a stack of RGB training images (image, y, x, channel) = (4096, 256, 256, 3) of uint8,
               channels last as numpy and the ML loaders hold them, chunks (16, 256, 256, 3),
               zarr-python's default compressor (blosc lz4, byte shuffle)
    depth_i4   read depths per call (variants, samples) = (524288, 512) of int32, Poisson around
               30, -1 (the fill value, so missing to xarray and to Spark) for 1% of calls, chunks
               (10000, 512), the default compressor
    embeddings_f2  float16 embeddings (item, feature) = (1048576, 256), normal values, chunks
               (8192, 256), the default compressor (512 MiB decoded)

Each is a group with one array and xarray's _ARRAY_DIMENSIONS, consolidated, so xarray opens it
too. Run with Debian's /usr/bin/python3 (zarr 2.13):
    bench/generate_domain_stores.py OUT_DIR [NAME...]
then, for instance, bench/store.sh --write-reps 0 --heap-mib 0 OUT_DIR/image_u16.zarr
"""
import os
import sys

import numcodecs
import numpy as np
import zarr


def create(out, name, var, dims, shape, chunks, dtype, compressor, fill_value=0):
    path = os.path.join(out, name + ".zarr")
    root = zarr.open_group(path, mode="w")
    a = root.create_dataset(var, shape=shape, chunks=chunks, dtype=dtype, compressor=compressor,
                            fill_value=fill_value)
    a.attrs["_ARRAY_DIMENSIONS"] = list(dims)
    return path, a


def image_u16(out, rng):
    shape = (1, 2, 64, 2048, 2048)
    path, a = create(out, "image_u16", "image", ("t", "c", "z", "y", "x"), shape, (1, 1, 1, 1024, 1024),
                     "<u2", numcodecs.Blosc(cname="lz4", clevel=5, shuffle=numcodecs.Blosc.SHUFFLE))
    y = np.linspace(-1, 1, shape[3])[:, None]
    x = np.linspace(-1, 1, shape[4])[None, :]
    background = 100 + 50 * np.exp(-(x * x + y * y) * 2)
    for c in range(shape[1]):
        for z in range(shape[2]):
            spots = np.zeros((shape[3], shape[4]))
            for sy, sx in rng.integers(0, 2048, (40, 2)):
                spots[max(0, sy - 8):sy + 8, max(0, sx - 8):sx + 8] += 2000 * (c + 1)
            a[0, c, z] = rng.poisson(background + spots).astype(np.uint16)
    return path


def calls_i8(out, rng):
    shape = (1048576, 512, 2)
    path, a = create(out, "calls_i8", "call_genotype", ("variants", "samples", "ploidy"), shape,
                     (10000, 512, 2), "i1",
                     numcodecs.Blosc(cname="zstd", clevel=7, shuffle=numcodecs.Blosc.BITSHUFFLE))
    frequency = rng.beta(0.3, 3.0, shape[0])
    step = 100000
    for v0 in range(0, shape[0], step):
        v1 = min(shape[0], v0 + step)
        calls = (rng.random((v1 - v0, shape[1], shape[2])) < frequency[v0:v1, None, None]).astype(np.int8)
        calls[rng.random(calls.shape) < 0.01] = -1
        a[v0:v1] = calls
    return path


def images_u8(out, rng):
    shape = (4096, 256, 256, 3)
    path, a = create(out, "images_u8", "images", ("image", "y", "x", "channel"), shape, (16, 256, 256, 3),
                     "u1", zarr.storage.default_compressor)
    y = np.linspace(0, 1, shape[1])[:, None, None]
    x = np.linspace(0, 1, shape[2])[None, :, None]
    for i0 in range(0, shape[0], 256):
        batch = np.empty((256,) + shape[1:], dtype=np.uint8)
        for i in range(256):
            tint = rng.uniform(40, 200, 3)[None, None, :]
            slope = rng.uniform(-60, 60, (2, 3))
            noise = rng.normal(0, 12, shape[1:])
            batch[i] = np.clip(tint + slope[0] * y + slope[1] * x + noise, 0, 255).astype(np.uint8)
        a[i0:i0 + 256] = batch
    return path


def depth_i4(out, rng):
    shape = (524288, 512)
    path, a = create(out, "depth_i4", "call_DP", ("variants", "samples"), shape, (10000, 512), "<i4",
                     zarr.storage.default_compressor, fill_value=-1)
    step = 50000
    for v0 in range(0, shape[0], step):
        v1 = min(shape[0], v0 + step)
        depth = rng.poisson(30, (v1 - v0, shape[1])).astype(np.int32)
        depth[rng.random(depth.shape) < 0.01] = -1
        a[v0:v1] = depth
    return path


def embeddings_f2(out, rng):
    shape = (1048576, 256)
    path, a = create(out, "embeddings_f2", "embedding", ("item", "feature"), shape, (8192, 256), "<f2",
                     zarr.storage.default_compressor)
    for i0 in range(0, shape[0], 65536):
        a[i0:i0 + 65536] = rng.normal(0, 1, (65536, shape[1])).astype(np.float16)
    return path


STORES = {"image_u16": image_u16, "calls_i8": calls_i8, "images_u8": images_u8, "depth_i4": depth_i4,
          "embeddings_f2": embeddings_f2}


def main(out, names):
    os.makedirs(out, exist_ok=True)
    for name in names or STORES:
        path = STORES[name](out, np.random.default_rng(7))
        zarr.consolidate_metadata(path)
        print("wrote", path)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
