"""Monthly means over an ERA5-like dataset (docs/benchmarks-history.md, "Aggregates grouped by functions of
a dimension"). Run with Debian's /usr/bin/python3 (zarr-python 2.13, xarray, dask).

  monthly_means.py generate OUT   a year of 6-hourly t2m and tp on a 1-degree grid (lat descending,
                                  as in ERA5), chunks 100 x 91 x 180, xarray's defaults (blosc lz4)
  monthly_means.py xarray STORE   xarray+dask (2 threads, blosc's own threads off): the mean per
                                  month over all points, by resample and by groupby, the sum, and
                                  the area-weighted mean (weights cos(lat)), the time-mean map
"""
import statistics
import sys
import time


def generate(out):
    import numpy as np
    import pandas as pd
    import xarray as xr
    nt, ny, nx = 1460, 181, 360
    times = pd.date_range("2020-01-01", periods=nt, freq="6h")
    lat = np.linspace(90, -90, ny)
    lon = np.arange(0, 360, 1.0)
    rng = np.random.default_rng(1)
    base = (280 - 30 * np.abs(np.sin(np.deg2rad(lat))))[None, :, None]
    cycle = 5 * np.sin(np.arange(nt) / 4 * 2 * np.pi)[:, None, None]
    t2m = (base + cycle + rng.normal(0, 1, (nt, ny, nx))).astype("float32")
    tp = rng.gamma(0.3, 1e-3, (nt, ny, nx)).astype("float32")
    ds = xr.Dataset({"t2m": (("time", "lat", "lon"), t2m), "tp": (("time", "lat", "lon"), tp)},
                    coords={"time": times, "lat": lat, "lon": lon})
    ds.to_zarr(out, mode="w", encoding={v: {"chunks": (100, 91, 180)} for v in ds.data_vars},
               consolidated=True)


def xarray(store, reps=5):
    import dask
    import numcodecs
    import xarray as xr
    numcodecs.blosc.use_threads = False
    import numpy as np
    ds = xr.open_zarr(store)
    weights = np.cos(np.deg2rad(ds.lat))
    runs = {
        "resample(time='1MS').mean(...)": lambda: ds.t2m.resample(time="1MS").mean(...).compute(),
        "groupby('time.month').mean(...)": lambda: ds.t2m.groupby("time.month").mean(...).compute(),
        "sum()": lambda: ds.t2m.sum().compute(),
        "weighted(cos(lat)).mean(all dims)": lambda: ds.t2m.weighted(weights).mean(("time", "lat", "lon")).compute(),
        "mean('time') (time-mean map)": lambda: ds.t2m.mean("time").compute(),
    }
    with dask.config.set(scheduler="threads", num_workers=2):
        for name, run in runs.items():
            run()
            seconds = []
            for _ in range(reps):
                t0 = time.perf_counter()
                run()
                seconds.append(time.perf_counter() - t0)
            print(f"xarray+dask {name}: median {statistics.median(seconds):.3f} s of {reps}")


if __name__ == "__main__":
    {"generate": generate, "xarray": xarray}[sys.argv[1]](sys.argv[2])
