#!/usr/bin/python3
"""xarray+dask's time for the suite's full-scan aggregate, on the stores generate_stores.py wrote.

Dask's threaded scheduler with 2 workers (the cores local[2] gets); blosc's own threads are off so
both sides use the same 2 cores. Sum with skipna=False: Spark's sum() adds NaNs too, so both do
the same arithmetic. One untimed run, then the median of REPS. Writes name=seconds lines for the
Java suite to print.

    bench/xarray_dask.py DATA_DIR REPS OUT.properties
"""
import statistics
import sys
import time

import dask
import numcodecs
import xarray as xr

numcodecs.blosc.use_threads = False


def time_sum(store, reps):
    """The median seconds of REPS timed sums of `value` (after one untimed), the runs, the sum."""
    total = xr.open_zarr(store, consolidated=True)["value"].sum(skipna=False)  # one dask task per chunk
    float(total.compute())
    seconds = []
    for _ in range(reps):
        t0 = time.perf_counter()
        value = float(total.compute())
        seconds.append(time.perf_counter() - t0)
    return statistics.median(seconds), seconds, value


def main():
    data, reps, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    lines = []
    with dask.config.set(scheduler="threads", num_workers=2):
        for name in ("raw", "zstd", "blosc"):
            median, seconds, value = time_sum(f"{data}/{name}.zarr", reps)
            print(f"[xarray] sum(value) {name}: median {median:.3f} s of {[round(s, 3) for s in seconds]} = {value}")
            key = f"xarray+dask sum(value) {name}".replace(" ", "\\ ")  # Java properties syntax
            lines.append(f"{key}={median}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
