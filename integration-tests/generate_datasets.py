#!/usr/bin/python3
"""Writes xarray datasets (Dataset.to_zarr, Zarr v2, consolidated) and queries.json.

Usage: /usr/bin/python3 integration-tests/generate_datasets.py [OUTDIR]
(default OUTDIR: src/test/resources/corpus/datasets). See integration-tests/README.md.

Expected query answers are computed from xarray's CF-decoded view (xr.open_zarr, mask_and_scale)
with these rules, which the Spark dataset view must follow:
  * a value equal to a variable's CF _FillValue (or missing_value) is SQL NULL;
  * a literal NaN stored in a float variable without _FillValue stays NaN (NaN is not NULL);
  * aggregates ignore NULLs; NaN follows Spark semantics (sum/avg containing NaN are NaN, NaN is
    larger than every other value in max/min and ordering, count(col) counts NaN).
"""

import json
import os
import shutil
import sys

import numpy as np
import pandas as pd
import xarray as xr
import zarr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_common import dump_json  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.join(HERE, "..", "src", "test", "resources", "corpus", "datasets")


def build_era5(path):
    rng = np.random.default_rng(20200101)
    time = pd.date_range("2020-01-01", periods=48, freq="H")
    lat = np.linspace(87.5, -87.5, 36)
    lon = np.arange(72, dtype="f8") * 5.0
    tt, la, lo = np.meshgrid(np.arange(48), lat, lon, indexing="ij")
    t2m = (288.0 - 40.0 * np.abs(np.sin(np.deg2rad(la))) + 5.0 * np.sin(2 * np.pi * tt / 24.0)
           + 3.0 * np.cos(np.deg2rad(lo)) + rng.normal(0, 0.5, tt.shape)).astype("f4")
    # missing values: scattered points plus whole regions (all-missing chunks, not written)
    t2m[rng.random(t2m.shape) < 0.02] = np.nan
    t2m[0:12, 30:36, 0:20] = np.nan  # t2m chunk (0, 3, 0) entirely missing
    t2m[36:48, 0:10, 60:72] = np.nan  # chunk (3, 0, 3) entirely missing
    tp = np.maximum(rng.gamma(0.3, 0.002, tt.shape) - 0.0005, 0).astype("f4")
    tp[rng.random(tp.shape) < 0.005] = np.nan  # literal NaN: stays NaN (no _FillValue)
    tp[0:12, 12:18, 0:11] = np.nan_to_num(tp[0:12, 12:18, 0:11])  # a NaN-free box for a sum query
    lsm = (np.cos(np.deg2rad(lo[0])) > 0).astype("f4") * (np.abs(la[0]) < 60)
    lsm = np.round(lsm * 0.9 + rng.random(lsm.shape) * 0.1, 3).astype("f4")
    ds = xr.Dataset(
        {
            "t2m": (("time", "lat", "lon"), t2m,
                    {"units": "K", "long_name": "2 metre temperature"}),
            "tp": (("time", "lat", "lon"), tp, {"units": "m", "long_name": "Total precipitation"}),
            "lsm": (("lat", "lon"), lsm, {"units": "(0 - 1)", "long_name": "Land-sea mask"}),
        },
        coords={
            "time": ("time", time, {"long_name": "time"}),
            "lat": ("lat", lat, {"units": "degrees_north", "standard_name": "latitude"}),
            "lon": ("lon", lon, {"units": "degrees_east", "standard_name": "longitude"}),
        },
        attrs={"title": "ERA5-like synthetic sample for spark-zarr tests",
               "Conventions": "CF-1.7"},
    )
    encoding = {
        "time": {"units": "hours since 2020-01-01", "calendar": "proleptic_gregorian",
                 "dtype": "i4"},
        "t2m": {"dtype": "i2", "scale_factor": 0.002, "add_offset": 270.0, "_FillValue": -32767,
                "chunks": (12, 10, 20), "write_empty_chunks": False},
        "tp": {"chunks": (16, 36, 24)},
        "lsm": {"chunks": (20, 30)},
    }
    ds.to_zarr(path, mode="w", encoding=encoding, consolidated=False)
    # xarray 2022.12 rejects {"_FillValue": None} in to_zarr encodings ("unexpected encoding
    # parameters for zarr backend"), so it gives float variables fill_value NaN, which CF decoding
    # would treat as _FillValue (NaN -> NULL). tp's NaN must stay literal NaN, so its fill_value is
    # set to null in .zarray (all its chunks are written) and the metadata consolidated again.
    for var in ("tp", "lsm"):
        zpath = os.path.join(path, var, ".zarray")
        with open(zpath, encoding="utf-8") as f:
            meta = json.load(f)
        meta["fill_value"] = None
        with open(zpath, "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=4, sort_keys=True, ensure_ascii=True)
    zarr.consolidate_metadata(path)


def build_simple(path):
    y = np.array([10, 20, 30, 40], dtype="i4")
    x = np.array([0, 1, 2, 3, 4], dtype="i8")
    counts = (np.arange(20, dtype="i4").reshape(4, 5) * 3) % 7
    value = np.round(np.arange(20, dtype="f8").reshape(4, 5) * 0.25 - 1.0, 2)
    ds = xr.Dataset({"count": (("y", "x"), counts, {"units": "1"}),
                     "value": (("y", "x"), value, {"units": "m"})},
                    coords={"y": y, "x": x}, attrs={"title": "simple"})
    enc = {"count": {"chunks": (3, 2)}, "value": {"chunks": (2, 5)}}
    ds.to_zarr(path, mode="w", encoding=enc, consolidated=True)


def num(v):
    """JSON value of a numpy scalar: NaN/inf as strings "NaN"/"Infinity"/"-Infinity"."""
    if v is None:
        return None
    if isinstance(v, (np.integer, int)):
        return int(v)
    f = float(v)
    if np.isnan(f):
        return "NaN"
    if np.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    return f


def spark_sum(a):
    """sum over non-null values (null = CF fill, already NaN after decoding of a packed var)."""
    return a


def queries_era5(path):
    ds = xr.open_zarr(path, consolidated=True)  # CF decoding: t2m fill -> NaN meaning NULL
    ds = ds.load()
    t2m, tp = ds.t2m.astype("f8"), ds.tp  # aggregate t2m in float64 (xarray decodes to float32)
    q = []

    def add(sql, expected, expr, note=None):
        e = {"dataset": "era5_small.zarr", "sql": sql, "expected": expected, "xarray": expr}
        if note:
            e["note"] = note
        q.append(e)

    n = int(t2m.size)
    add("SELECT count(*) FROM ds", [[n]], "ds.t2m.size")
    add("SELECT count(*), count(t2m), count(tp) FROM ds",
        [[n, int(t2m.count()), int(tp.size)]],
        "[ds.t2m.size, int(ds.t2m.count()), ds.tp.size]",
        "t2m values equal to _FillValue are NULL; tp's literal NaN are not NULL, so count(tp) = "
        "count(*)")
    box = t2m.sel(lat=slice(40, 30))  # lat is descending
    add("SELECT avg(t2m) FROM ds WHERE lat BETWEEN 30 AND 40 AND time >= '2020-01-02'",
        [[num(box.sel(time=slice("2020-01-02", None)).mean(skipna=True))]],
        "ds.t2m.astype('f8').sel(lat=slice(40, 30), time=slice('2020-01-02', None))"
        ".mean(skipna=True)")
    b2 = t2m.sel(lat=slice(60, -20), lon=slice(100, 200),
                 time=slice("2020-01-01T06:00", "2020-01-01T18:00"))
    add("SELECT min(t2m), max(t2m), count(t2m) FROM ds WHERE lat BETWEEN -20 AND 60 AND lon "
        "BETWEEN 100 AND 200 AND time BETWEEN '2020-01-01 06:00:00' AND '2020-01-01 18:00:00'",
        [[num(b2.min(skipna=True)), num(b2.max(skipna=True)), int(b2.count())]],
        "b = ds.t2m.sel(lat=slice(60, -20), lon=slice(100, 200), time=slice('2020-01-01T06:00', "
        "'2020-01-01T18:00')); [b.min(), b.max(), b.count()]")
    g = t2m.sel(lat=slice(-30, -60)).groupby("lat").mean(...)
    rows = [[float(la), num(v)] for la, v in sorted(zip(g.lat.values, g.values))]
    add("SELECT lat, avg(t2m) FROM ds WHERE lat BETWEEN -60 AND -30 GROUP BY lat ORDER BY lat",
        rows, "ds.t2m.sel(lat=slice(-30, -60)).groupby('lat').mean(...) sorted by lat ascending")
    daily = t2m.sel(lat=slice(10, -10)).resample(time="1D").mean(...)
    rows = [[str(pd.Timestamp(t)).replace("T", " "), num(v)]
            for t, v in zip(daily.time.values, daily.values)]
    add("SELECT date_trunc('DAY', time) AS day, avg(t2m) FROM ds WHERE lat BETWEEN -10 AND 10 "
        "GROUP BY day ORDER BY day", rows,
        "ds.t2m.sel(lat=slice(10, -10)).resample(time='1D').mean(...)")
    pt = ds.sel(time="2020-01-01T05:00", lat=42.5, lon=10.0)
    add("SELECT t2m, tp, lsm FROM ds WHERE time = '2020-01-01 05:00:00' AND lat = 42.5 AND "
        "lon = 10.0", [[num(pt.t2m), num(pt.tp), num(pt.lsm)]],
        "ds.sel(time='2020-01-01T05:00', lat=42.5, lon=10.0)[['t2m', 'tp', 'lsm']]")
    miss = t2m.isel(time=3, lat=32, lon=5)
    add("SELECT t2m FROM ds WHERE time = '2020-01-01 03:00:00' AND lat = -72.5 AND lon = 25.0",
        [[None if np.isnan(float(miss)) else num(miss)]],
        "ds.t2m.isel(time=3, lat=32, lon=5)  (inside a t2m chunk that was never written)",
        "the point is in an all-missing t2m chunk: NULL")
    nonan = tp.sel(lat=slice(30, 0), lon=slice(0, 50), time=slice("2020-01-01T00", "2020-01-01T11"))
    has_nan = bool(np.isnan(nonan.values).any())
    add("SELECT sum(tp), count(tp) FROM ds WHERE lat BETWEEN 0 AND 30 AND lon BETWEEN 0 AND 50 "
        "AND time < '2020-01-01 12:00:00'",
        [[num(float(np.sum(nonan.values, dtype="f8"))), int(nonan.size)]],
        "b = ds.tp.sel(lat=slice(30, 0), lon=slice(0, 50), time=slice('2020-01-01T00', "
        "'2020-01-01T11')); [b.values.sum(dtype='f8'), b.size]",
        "box %s literal NaN; sum follows Spark (NaN if any NaN)" %
        ("contains" if has_nan else "contains no"))
    day2 = tp.sel(time="2020-01-02T00:00")
    add("SELECT sum(tp), count(tp) FROM ds WHERE time = '2020-01-02 00:00:00'",
        [[num(float(np.sum(day2.values, dtype="f8"))), int(day2.size)]],
        "b = ds.tp.sel(time='2020-01-02T00:00'); [b.values.sum(dtype='f8'), b.size]",
        "this time step holds %d literal NaN in tp, so the sum is NaN"
        % int(np.isnan(day2.values).sum()))
    add("SELECT count(*) FROM ds WHERE isnan(tp)", [[int(np.isnan(tp.values).sum())]],
        "int(np.isnan(ds.tp.values).sum())", "literal NaN in tp are NaN, not NULL")
    add("SELECT max(tp), min(tp) FROM ds",
        [["NaN" if np.isnan(tp.values).any() else num(tp.max()), num(np.nanmin(tp.values))]],
        "['NaN' if any NaN else ds.tp.max(), np.nanmin(ds.tp.values)]",
        "Spark orders NaN above every number: max over a column holding NaN is NaN")
    lsm_land = ds.lsm.where(ds.lsm > 0.5)
    add("SELECT count(*) FROM ds WHERE lsm > 0.5 AND time = '2020-01-01 00:00:00'",
        [[int(lsm_land.count())]], "int(ds.lsm.where(ds.lsm > 0.5).count())",
        "lsm (lat, lon) is broadcast over time")
    add("SELECT avg(t2m) FROM ds WHERE lsm > 0.5",
        [[num(t2m.where(ds.lsm > 0.5).mean(skipna=True))]],
        "ds.t2m.where(ds.lsm > 0.5).mean(skipna=True)")
    return q


def queries_simple(path):
    ds = xr.open_zarr(path, consolidated=True).load()
    q = []

    def add(sql, expected, expr):
        q.append({"dataset": "simple.zarr", "sql": sql, "expected": expected, "xarray": expr})

    add("SELECT count(*) FROM ds", [[int(ds["count"].size)]], "ds['count'].size")
    sub = ds.sel(x=slice(2, None))
    add("SELECT sum(count), avg(value) FROM ds WHERE x >= 2",
        [[int(sub["count"].sum()), num(sub["value"].mean())]],
        "s = ds.sel(x=slice(2, None)); [s['count'].sum(), s['value'].mean()]")
    g = ds["value"].groupby("y").sum(...)
    add("SELECT y, sum(value) FROM ds GROUP BY y ORDER BY y",
        [[int(y), num(v)] for y, v in zip(g.y.values, g.values)],
        "ds['value'].groupby('y').sum(...)")
    p = ds.sel(y=30, x=4)
    add("SELECT count, value FROM ds WHERE y = 30 AND x = 4",
        [[int(p["count"]), num(p["value"])]], "ds.sel(y=30, x=4)")
    return q


def main():
    out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_OUT)
    os.makedirs(out, exist_ok=True)
    for n in ("era5_small.zarr", "simple.zarr", "queries.json"):
        p = os.path.join(out, n)
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.remove(p)
    era5 = os.path.join(out, "era5_small.zarr")
    simple = os.path.join(out, "simple.zarr")
    build_era5(era5)
    build_simple(simple)
    queries = {
        "generator": "integration-tests/generate_datasets.py",
        "zarr": zarr.__version__.split("+")[0],
        "xarray": xr.__version__,
        "conventions": {
            "table": "one row per point of the cartesian product of a dataset's dimensions "
                     "(era5_small: time x lat x lon = 48*36*72 rows); coordinate variables are "
                     "columns; data variables over fewer dimensions (lsm over lat, lon) are "
                     "broadcast",
            "time": "CF-decoded 'hours since 2020-01-01' compared as TIMESTAMP WITHOUT TIME ZONE "
                    "(timestamp_ntz); expected timestamps are written 'YYYY-MM-DD HH:MM:SS'",
            "nulls": "a stored value equal to the variable's CF _FillValue is NULL (t2m is int16 "
                     "packed with scale_factor/add_offset and _FillValue -32767); aggregates "
                     "ignore NULLs; count(col) counts non-NULL values",
            "nan": "literal NaN in a float variable without _FillValue (tp) is NaN, not NULL: "
                   "count(tp) counts it, sum/avg containing NaN are NaN, max is NaN (Spark orders "
                   "NaN above all numbers), min ignores it; NaN is written as the string \"NaN\"",
            "packing": "t2m decodes to float64 (int16 * 0.002 + 270.0); compare floats with a "
                       "relative tolerance of 1e-6 (float32 vs float64 accumulation)",
            "xarray": "each query's 'xarray' field is the expression used, with ds = "
                      "xr.open_zarr(path, consolidated=True).load() (CF decoding on); every "
                      "aggregate over t2m was computed on ds.t2m.astype('f8')",
            "expected": "a list of result rows, each a list of column values, in ORDER BY order "
                        "(single-row results otherwise)",
        },
        "queries": queries_era5(era5) + queries_simple(simple),
    }
    dump_json(os.path.join(out, "queries.json"), queries)
    print("wrote datasets and %d queries to %s" % (len(queries["queries"]), out))


if __name__ == "__main__":
    main()
