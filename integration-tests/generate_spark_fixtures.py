#!/usr/bin/python3
"""Writes the small, uncompressed Zarr v2 stores the Spark read-path tests use, with the values
zarr-python / xarray read back saved as JSON next to them (the tests' expected answers).

Run with Debian's python (zarr-python 2.13, xarray):  /usr/bin/python3 integration-tests/generate_spark_fixtures.py
"""
import base64
import json
import os
import shutil
import sys

import numcodecs
import numpy as np
import pandas as pd
import xarray as xr
import zarr

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "test", "resources", "spark")


def jsonable(v):
    """One element as the test compares it: times as epoch microseconds, binary as base64."""
    if isinstance(v, np.void) and v.dtype.names:
        return {n: jsonable(v[n]) for n in v.dtype.names}
    if isinstance(v, np.ndarray):
        return [jsonable(x) for x in v]
    if isinstance(v, np.datetime64):
        return None if np.isnat(v) else int(v.astype("datetime64[us]").astype(np.int64))
    if isinstance(v, np.timedelta64):
        return None if np.isnat(v) else int(v.astype("timedelta64[us]").astype(np.int64))
    if isinstance(v, (bytes, np.bytes_)):
        return base64.b64encode(bytes(v)).decode()
    if isinstance(v, np.void):
        return base64.b64encode(v.tobytes()).decode()
    if isinstance(v, (complex, np.complexfloating)):
        return [float(v.real), float(v.imag)]
    if isinstance(v, np.unsignedinteger) and v.dtype.itemsize == 8:
        return str(int(v))
    if isinstance(v, (np.floating, float)):
        return None if np.isnan(v) else float(v)
    if isinstance(v, (np.bool_, bool)):
        return bool(v)
    if isinstance(v, np.integer):
        return int(v)
    if isinstance(v, (str, np.str_)):
        return str(v)
    if isinstance(v, pd.Timestamp):
        return None if pd.isna(v) else int(v.value // 1000)
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return None
    if isinstance(v, (list, dict)):
        return json.dumps(v, separators=(",", ":"))  # a JSON-codec element: its text
    return v


def types_store():
    path = os.path.join(OUT, "types.zarr")
    root = zarr.open_group(path, mode="w")
    n = 6
    arrays = {
        "bool": np.array([True, False, True, True, False, True]),
        "int8": np.array([-128, -1, 0, 1, 2, 127], dtype="i1"),
        "int16": np.array([-32768, -2, 0, 3, 4, 32767], dtype="i2"),
        "int32": np.array([-2**31, -3, 0, 5, 6, 2**31 - 1], dtype="i4"),
        "int64": np.array([-2**63, -4, 0, 7, 8, 2**63 - 1], dtype="i8"),
        "int32_be": np.array([-7, 1, 2, 3, 65536, 2**31 - 1], dtype=">i4"),
        "uint8": np.array([0, 1, 2, 127, 128, 255], dtype="u1"),
        "uint16": np.array([0, 1, 2, 32767, 32768, 65535], dtype="u2"),
        "uint32": np.array([0, 1, 2, 2**31 - 1, 2**31, 2**32 - 1], dtype="u4"),
        "uint64": np.array([0, 1, 2, 2**63 - 1, 2**63, 2**64 - 1], dtype="u8"),
        "float16": np.array([0.5, -1.25, 65504.0, np.inf, 0.0, 3.140625], dtype="f2"),
        "float32": np.array([1.5, -2.25, 3.4e38, -np.inf, 1e-30, 0.1], dtype="f4"),
        "float64": np.array([1.5, -2.25, 1.7e308, np.inf, 5e-324, 0.1], dtype="f8"),
        "complex64": np.array([1 + 2j, -1.5j, 3, 0, 2.5 - 1j, 1e10j], dtype="c8"),
        "complex128": np.array([1 + 2j, -1.5j, 3, 0, 2.5 - 1j, 1e100j], dtype="c16"),
        "datetime_ns": np.array(["2020-01-01T00:00:00.123456789", "NaT", "1969-12-31T23:59:59.999999999",
                                 "2262-04-11", "1970-01-01", "2000-02-29T12:00"], dtype="M8[ns]"),
        "datetime_D": np.array(["2020-01-01", "NaT", "1900-03-01", "2100-12-31", "1970-01-01", "0001-01-01"], dtype="M8[D]"),
        "datetime_M": np.array(["2020-01", "NaT", "1900-03", "2100-12", "1970-01", "1969-11"], dtype="M8[M]"),
        "datetime_Y": np.array(["2020", "NaT", "1900", "2100", "1970", "1969"], dtype="M8[Y]"),
        "datetime_10s": np.array([0, 1, -1, 360, 8640, -9223372036854775808], dtype="i8").view("M8[10s]"),
        "timedelta_s": np.array([0, 1, -1, 86400, 90061, "NaT"], dtype="m8[s]"),
        "timedelta_ms": np.array([0, 1, -1, 86400000, 123456789, "NaT"], dtype="m8[ms]"),
        "bytes": np.array([b"", b"a", b"ab\x00c", b"abcde", b"x\x00", b"\x00\x00y"], dtype="S5"),
        "raw": np.array([b"\x00\x01\x02", b"abc", b"\x00\x00\x00", b"\xff\xfe\x00", b"x\x00\x00", b"123"], dtype="V3"),
        "unicode": np.array(["", "a", "héllo"[:4], "日本", "x\x00", "abcd"], dtype="U4"),
    }
    expected = {}
    for name, data in arrays.items():
        a = root.create_dataset(name, shape=data.shape, chunks=(4,), dtype=data.dtype, compressor=None,
                                fill_value=None if data.dtype.kind in "SVU" else 0)
        a[:] = data
        expected[name] = [jsonable(x) for x in a[:]]
    vlen = root.create_dataset("vlen_string", shape=(n,), chunks=(4,), dtype=object,
                               object_codec=numcodecs.VLenUTF8(), compressor=None)
    vlen[:] = np.array(["", "a", "héllo", "日本語", "x" * 40, "end"], dtype=object)
    vbytes = root.create_dataset("vlen_bytes", shape=(n,), chunks=(4,), dtype=object,
                                 object_codec=numcodecs.VLenBytes(), compressor=None)
    vbytes[:] = np.array([b"", b"a", b"\x00\x01", b"abc\x00", b"z" * 20, b"\xff"], dtype=object)
    js = root.create_dataset("json", shape=(n,), chunks=(4,), dtype=object,
                             object_codec=numcodecs.JSON(), compressor=None)
    js_values = [1, "two", [3, 4], {"five": 5}, None, 6.5]
    js[:] = np.array(js_values, dtype=object)
    for name in ["vlen_string", "vlen_bytes"]:
        expected[name] = [jsonable(x) for x in root[name][:]]
    expected["json"] = [json.dumps(x) for x in js[:]]  # each element as its JSON text
    sdt = np.dtype([("a", "<i4"), ("b", ">f8", (2,)), ("c", [("x", "u1"), ("y", "S2")]), ("d", "<i2", (2, 2))])
    s = np.zeros(n, dtype=sdt)
    for i in range(n):
        s[i] = (i - 2, (i * 0.5, -i), (i * 40, b"ab"[: i % 3]), ((i, i + 1), (-i, 7)))
    st = root.create_dataset("struct", shape=(n,), chunks=(4,), dtype=sdt, compressor=None, fill_value=None)
    st[:] = s
    expected["struct"] = [jsonable(x) for x in st[:]]

    # A 2-D array with dimension names and uneven edge chunks; and one with missing chunks.
    g = root.create_dataset("grid", shape=(5, 7), chunks=(2, 3), dtype="i4", compressor=None, fill_value=-1)
    g[:] = np.arange(35, dtype="i4").reshape(5, 7)
    g.attrs["_ARRAY_DIMENSIONS"] = ["y", "x"]
    expected["grid"] = g[:].tolist()
    sp = root.create_dataset("sparse", shape=(4, 6), chunks=(2, 2), dtype="f8", compressor=None, fill_value=-9.5)
    sp[0:2, 0:2] = [[1, 2], [3, 4]]
    sp[2:4, 4:6] = [[5, 6], [7, 8]]
    expected["sparse"] = sp[:].tolist()
    lat = root.create_dataset("lat", shape=(3,), chunks=(2,), dtype="f8", compressor=None)
    lat[:] = [10.0, 20.0, 30.0]
    lat.attrs["_ARRAY_DIMENSIONS"] = ["lat"]
    expected["lat"] = lat[:].tolist()
    # A lone array at the root of its own store: its value column is called "value".
    lone = zarr.open_array(os.path.join(OUT, "lone.zarr"), mode="w", shape=(3, 2), chunks=(2, 2), dtype="i2",
                           compressor=None)
    lone[:] = [[1, 2], [3, 4], [5, 6]]
    expected["lone"] = lone[:].tolist()
    zarr.consolidate_metadata(path)
    with open(os.path.join(OUT, "types.expected.json"), "w") as f:
        json.dump(expected, f, indent=1)


def dataset_store():
    """A CF-encoded dataset as xarray writes it, and the table xarray's to_dataframe gives."""
    path = os.path.join(OUT, "dataset.zarr")
    time = pd.date_range("2020-01-01", periods=5, freq="D")
    lat = np.array([60.0, 50.0, 40.0, 35.0, 30.0, 20.0, 10.0])  # decreasing
    lon = np.arange(9, dtype="f4") * 10 - 40  # increasing
    rng = np.random.default_rng(42)
    t2m = (rng.standard_normal((5, 7, 9)) * 10 + 280).astype("f4")
    t2m[0, 0, 0] = np.nan
    packed = np.round(rng.uniform(-20, 40, (5, 7, 9)), 2)
    packed[1, 2, :] = np.nan
    precip = rng.uniform(0, 5, (5, 7, 9))
    elev = np.arange(63, dtype="f8").reshape(7, 9) * 3
    ds = xr.Dataset(
        {
            "t2m": (("time", "lat", "lon"), t2m, {"units": "K"}),
            "packed": (("time", "lat", "lon"), packed),
            "precip": (("time", "lat", "lon"), precip),
            "elev": (("lat", "lon"), elev),
        },
        coords={"time": time, "lat": lat, "lon": lon},
    )
    encoding = {v: {"compressor": None} for v in ds.variables}
    encoding["t2m"]["chunks"] = (2, 3, 4)
    encoding["packed"].update(chunks=(2, 3, 4), dtype="i2", scale_factor=0.01, add_offset=10.0, _FillValue=-32768)
    encoding["precip"]["chunks"] = (5, 7, 9)
    encoding["elev"]["chunks"] = (4, 4)
    encoding["time"].update(units="days since 2019-12-31", calendar="proleptic_gregorian", chunks=(2,))
    encoding["lat"]["chunks"] = (3,)
    shutil.rmtree(path, ignore_errors=True)
    ds.to_zarr(path, encoding=encoding, consolidated=True)
    # A missing chunk: xarray reads it back as the fill value (NaN for t2m).
    os.remove(os.path.join(path, "t2m", "1.1.1"))
    back = xr.open_zarr(path)
    df = back.to_dataframe().reset_index()
    expected = {
        "columns": list(df.columns),
        "dtypes": {v: str(back[v].dtype) for v in back.variables},
        "rows": [[jsonable(x) for x in row] for row in df.itertuples(index=False)],
    }
    with open(os.path.join(OUT, "dataset.expected.json"), "w") as f:
        json.dump(expected, f, indent=0)

    # A group whose arrays do not share dimensions: loading it needs `variables` or `array`.
    mixed = xr.Dataset(
        {"a": (("time", "lat"), np.ones((5, 7))), "station_height": (("station",), np.arange(3.0))},
        coords={"time": time, "lat": lat},
    )
    mpath = os.path.join(OUT, "mixed.zarr")
    shutil.rmtree(mpath, ignore_errors=True)
    mixed.to_zarr(mpath, encoding={v: {"compressor": None} for v in mixed.variables}, consolidated=True)


if __name__ == "__main__":
    os.makedirs(OUT, exist_ok=True)
    for p in ["types.zarr", "lone.zarr"]:
        shutil.rmtree(os.path.join(OUT, p), ignore_errors=True)
    types_store()
    dataset_store()
    print("wrote", OUT, file=sys.stderr)
