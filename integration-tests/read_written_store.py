#!/usr/bin/python3
"""Prints, as JSON, what zarr-python 2.13 and xarray read from a store spark-zarr wrote.

Usage: /usr/bin/python3 integration-tests/read_written_store.py STORE

Output: {"arrays": {path: {dtype, shape, chunks, compressor, filters, fill_value, attrs, values}},
         "xarray": {"dims": {name: length}, "coords": {...}, "data_vars": {...}}} where each
variable has "dims", "attrs" and flattened C-order "values". Values are made JSON-safe: NaN and
NaT become null, datetime64/timedelta64 become integer microseconds, bytes become base64.
The Java write tests compare this with what they wrote.
"""

import base64
import json
import math
import sys

import numpy as np
import xarray as xr
import zarr


def plain(values):
    a = np.asarray(values)
    out = []
    if a.dtype.kind in "mM":
        ints = a.astype(a.dtype.str[:3] + "[us]").astype("int64").ravel()
        nat = np.isnat(a.ravel())
        return [None if n else int(v) for v, n in zip(ints, nat)]
    for v in a.ravel().tolist():
        if isinstance(v, float) and math.isnan(v):
            out.append(None)
        elif isinstance(v, bytes):
            out.append(base64.b64encode(v).decode())
        else:
            out.append(v)
    return out


def fill(v):
    if isinstance(v, (np.generic, np.ndarray)) and v.dtype.kind in "mM":
        return None if np.isnat(v) else int(v.astype("int64"))
    if isinstance(v, (np.generic,)):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, bytes):
        return base64.b64encode(v).decode()
    return v


def main(path):
    group = zarr.open_consolidated(path, mode="r")
    arrays = {}
    for name, a in group.arrays(recurse=True):
        arrays[a.path] = {
            "dtype": a.dtype.str,
            "shape": list(a.shape),
            "chunks": list(a.chunks),
            "compressor": None if a.compressor is None else a.compressor.codec_id,
            "filters": [f.codec_id for f in (a.filters or [])],
            "fill_value": fill(a.fill_value),
            "attrs": dict(a.attrs),
            "values": plain(a[...]),
        }
    ds = xr.open_zarr(path, consolidated=True)
    view = {"dims": {k: int(v) for k, v in ds.sizes.items()}, "coords": {}, "data_vars": {},
            "attrs": dict(ds.attrs)}
    for kind, items in (("coords", ds.coords), ("data_vars", ds.data_vars)):
        for name, var in items.items():
            view[kind][name] = {"dims": list(var.dims), "attrs": dict(var.attrs),
                                "values": plain(var.values)}
    json.dump({"arrays": arrays, "xarray": view}, sys.stdout, default=fill)


if __name__ == "__main__":
    main(sys.argv[1])
