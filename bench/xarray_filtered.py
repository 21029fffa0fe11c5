#!/usr/bin/python3
"""xarray+dask on a filtered sum, for the figures of docs/benchmarks-history.md, section "Filters on values
in the scan (session 26)": on STORE's variable VAR (2 threaded workers, blosc's threads off, one
untimed run, median of 5) the full sum, the sum and count of the values above THRESHOLD, and the
mean of those values grouped by the second dimension (the first and third reduced), as Spark's
`SELECT lat, avg(value), count(*) ... WHERE value > 280 GROUP BY lat` computes it; since session
29 also the sum and count of the values in (THRESHOLD - 10, THRESHOLD + 10) (`WHERE value > 270
AND value < 290`) and the mean and count of the values above THRESHOLD over the first dimension,
a map (`SELECT lat, lon, avg(value), count(*) ... WHERE value > 280 GROUP BY lat, lon`); since
session 30 the minimum, maximum and count of the values above THRESHOLD (`SELECT min(value),
max(value), count(*) ... WHERE value > 280`).

    /usr/bin/python3 bench/xarray_filtered.py STORE VAR [THRESHOLD (default 280)]
"""
import statistics
import sys
import time

import dask
import numcodecs
import xarray as xr

numcodecs.blosc.use_threads = False


def main():
    path, var = sys.argv[1], sys.argv[2]
    threshold = float(sys.argv[3]) if len(sys.argv) > 3 else 280.0
    with dask.config.set(scheduler="threads", num_workers=2):
        da = xr.open_zarr(path)[var]
        above = da > threshold
        kept = da.where(above)
        reduced = [da.dims[0], da.dims[2]] if da.ndim >= 3 else [da.dims[0]]
        inside = (da > threshold - 10) & (da < threshold + 10)
        for name, compute in [("sum", lambda: da.sum().compute()),
                              ("filtered sum, count", lambda: dask.compute(kept.sum(), above.sum())[0]),
                              (f"filtered mean by {da.dims[1]}", lambda: kept.mean(reduced).compute()),
                              ("range sum, count", lambda: dask.compute(da.where(inside).sum(), inside.sum())[0]),
                              ("filtered min, max, count",
                               lambda: dask.compute(kept.min(), kept.max(), above.sum())[0]),
                              (f"filtered mean and count over {da.dims[0]}",
                               lambda: dask.compute(kept.mean(da.dims[0]), above.sum(da.dims[0]))[0])]:
            result = compute()
            seconds = []
            for _ in range(5):
                t0 = time.perf_counter()
                compute()
                seconds.append(time.perf_counter() - t0)
            print(f"[xarray] {name}: median {statistics.median(seconds):.3f} s of {[round(s, 3) for s in seconds]}"
                  f" = {float(result.values.ravel()[0])}")


if __name__ == "__main__":
    main()
