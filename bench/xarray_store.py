#!/usr/bin/python3
"""xarray+dask on any Zarr store, for bench/store.sh: the same two computations as on the suite's
and the variants' stores (2 threaded workers, blosc's threads off, one untimed run, median of REPS):
the full sum (skipna=False, the suite's arithmetic) and the mean over the first dimension (the
time-mean map of a (time, lat, lon) variable; xarray's default skipna, as Spark's AVG skips nulls);
and the sum and count of the values above the variable's mean (cast to its dtype, as Spark's query
casts it), the query StoreBench runs with a filter on values.

A group is opened with xarray (consolidated metadata if present); its variable is VAR, else the
data variable with the most elements. An array is opened with dask.array.from_zarr. Zarr v3 stores
are skipped: zarr-python 2.13 cannot read them.

Writes, per store i (in the order given): i.kind (group, array or v3), i.var, i.sum (seconds),
i.map (seconds), i.filtered (seconds), i.value (the sum with xarray's default skipna, to check
Spark's answer against), i.filteredValue (the filtered sum and count).

    bench/xarray_store.py OUT.properties REPS VAR|- STORE...
"""
import os
import statistics
import sys
import time

import dask
import dask.array
import numcodecs
import xarray as xr
import zarr

numcodecs.blosc.use_threads = False


def median_seconds(compute, reps):
    compute()
    seconds = []
    for _ in range(reps):
        t0 = time.perf_counter()
        compute()
        seconds.append(time.perf_counter() - t0)
    return statistics.median(seconds)


def open_variable(path, var):
    """(kind, variable name or None, DataArray) of what Spark reads at PATH."""
    if isinstance(zarr.open(path, mode="r"), zarr.Array):
        return "array", None, xr.DataArray(dask.array.from_zarr(path))
    ds = xr.open_zarr(path, consolidated=None)
    if var is None:
        var = max(ds.data_vars, key=lambda n: ds[n].size)
    return "group", var, ds[var]


def main():
    out, reps, var, stores = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    var = None if var == "-" else var
    lines = []
    with dask.config.set(scheduler="threads", num_workers=2):
        for i, store in enumerate(stores):
            if os.path.exists(os.path.join(store, "zarr.json")):
                print(f"[xarray] {store}: skipped, Zarr v3 (zarr-python 2.13 cannot read it)")
                lines.append(f"{i}.kind=v3")
                continue
            kind, name, da = open_variable(store, var)
            total = da.sum(skipna=False)
            mean = da.mean(da.dims[0])
            seconds = median_seconds(lambda: float(total.compute()), reps)
            map_seconds = median_seconds(mean.compute, reps)
            value = float(da.sum().compute())
            threshold = da.dtype.type(float(da.mean().compute()))
            above = da > threshold
            filtered = lambda: dask.compute(da.where(above).sum(), above.sum())
            filtered_seconds = median_seconds(filtered, reps)
            kept_sum, kept = filtered()
            print(f"[xarray] {store} {name or '(array)'} {dict(da.sizes)}: sum {seconds:.3f} s = {value}, "
                  f"mean over {da.dims[0]} {map_seconds:.3f} s, above {threshold}: {filtered_seconds:.3f} s")
            lines += [f"{i}.kind={kind}", f"{i}.sum={seconds}", f"{i}.map={map_seconds}", f"{i}.value={value!r}",
                      f"{i}.filtered={filtered_seconds}", f"{i}.filteredValue={float(kept_sum)!r} ({int(kept)} values)"]
            if name is not None:
                lines.append(f"{i}.var={name}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
