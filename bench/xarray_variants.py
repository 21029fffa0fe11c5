#!/usr/bin/python3
"""xarray+dask on each store of generate_variants.py, as bench/xarray_dask.py times the suite's: 2
threaded workers, blosc's threads off, one untimed run, median of REPS. Two computations: the
full-scan sum (skipna=False, as the suite's), and the time-mean map as users write it,
`ds.value.mean("time")` (xarray's default skipna, which skips NaN like Spark's AVG skips nulls).

    bench/xarray_variants.py DATA_DIR REPS OUT.properties NAME...
"""
import os
import statistics
import sys
import time

import dask
import xarray as xr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xarray_dask import time_sum  # noqa: E402  (also turns blosc's own threads off)


def time_mean_map(store, reps):
    """The median seconds of REPS computations of the time-mean map (after one untimed)."""
    mean = xr.open_zarr(store, consolidated=True)["value"].mean("time")
    mean.compute()
    seconds = []
    for _ in range(reps):
        t0 = time.perf_counter()
        mean.compute()
        seconds.append(time.perf_counter() - t0)
    return statistics.median(seconds)


def main():
    data, reps, out, names = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    lines = []
    with dask.config.set(scheduler="threads", num_workers=2):
        for name in names:
            if os.path.exists(f"{data}/{name}.zarr/zarr.json"):
                print(f"[xarray] {name}: skipped, Zarr v3 (zarr-python 2.13 cannot read it)")
                continue
            median, _, value = time_sum(f"{data}/{name}.zarr", reps)
            print(f"[xarray] sum(value) {name}: median {median:.3f} s = {value}")
            lines.append(f"{name}={median}")
            lines.append(f"{name}.value={value}")
            map_median = time_mean_map(f"{data}/{name}.zarr", reps)
            print(f"[xarray] value.mean('time') {name}: median {map_median:.3f} s")
            lines.append(f"{name}.map={map_median}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
