#!/usr/bin/python3
"""xarray+dask's full-scan sum on each store of generate_variants.py, as bench/xarray_dask.py times
the suite's: 2 threaded workers, blosc's threads off, skipna=False, one untimed run, median of REPS.

    bench/xarray_variants.py DATA_DIR REPS OUT.properties NAME...
"""
import os
import sys

import dask

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xarray_dask import time_sum  # noqa: E402  (also turns blosc's own threads off)


def main():
    data, reps, out, names = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    lines = []
    with dask.config.set(scheduler="threads", num_workers=2):
        for name in names:
            median, _, value = time_sum(f"{data}/{name}.zarr", reps)
            print(f"[xarray] sum(value) {name}: median {median:.3f} s = {value}")
            lines.append(f"{name}={median}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
