#!/usr/bin/python3
"""xarray+dask's full-scan sum on each store of generate_variants.py, as bench/xarray_dask.py times
the suite's: 2 threaded workers, blosc's threads off, skipna=False, one untimed run, median of REPS.

    bench/xarray_variants.py DATA_DIR REPS OUT.properties NAME...
"""
import statistics
import sys
import time

import dask
import numcodecs
import xarray as xr

numcodecs.blosc.use_threads = False


def main():
    data, reps, out, names = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    lines = []
    with dask.config.set(scheduler="threads", num_workers=2):
        for name in names:
            total = xr.open_zarr(f"{data}/{name}.zarr", consolidated=True)["value"].sum(skipna=False)
            float(total.compute())
            seconds = []
            for _ in range(reps):
                t0 = time.perf_counter()
                value = float(total.compute())
                seconds.append(time.perf_counter() - t0)
            print(f"[xarray] sum(value) {name}: median {statistics.median(seconds):.3f} s = {value}")
            lines.append(f"{name}={statistics.median(seconds)}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
