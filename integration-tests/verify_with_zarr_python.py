#!/usr/bin/python3
"""Checks with zarr-python 2.13 that every array listed in a corpus manifest reads as expected.

Usage: /usr/bin/python3 integration-tests/verify_with_zarr_python.py MANIFEST

MANIFEST has the format documented in integration-tests/README.md; store and expected paths are
relative to the manifest's directory. For every array this opens the store with zarr-python,
compares dtype, shape, chunks, order, fill_value, compressor/filter ids, attributes (when the entry
has "attributes"), the expected file's sha256 (when given) and every value (NaN-aware, -0.0 vs 0.0
distinguished). Prints one line per array and finally exactly "N passed, M failed"; exits 1 if any
array failed (or the manifest cannot be read).
"""

import base64
import hashlib
import json
import math
import os
import sys

import numpy as np
import zarr
from zarr.meta import Metadata2

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_common import dtype_from_json, json_expected_items, little_endian  # noqa: E402


class Mismatch(Exception):
    pass


def _fill_equal(a, b):
    """Compares two fill_value JSON values; "NaN" strings and float NaN compare equal."""
    def norm(v):
        if isinstance(v, float) and math.isnan(v):
            return "NaN"
        if isinstance(v, float) and math.isinf(v):
            return "Infinity" if v > 0 else "-Infinity"
        if isinstance(v, (list, tuple)):
            return [norm(x) for x in v]
        return v
    na, nb = norm(a), norm(b)
    if na == nb:
        return True
    # numbers given as int vs float (e.g. 0 vs 0.0)
    if isinstance(na, (int, float)) and isinstance(nb, (int, float)) and \
            not isinstance(na, bool) and not isinstance(nb, bool):
        return float(na) == float(nb) and math.copysign(1, na) == math.copysign(1, nb)
    return False


def _values_equal(got, exp):
    """NaN-aware, sign-of-zero-aware equality of two little-endian arrays of the same dtype."""
    if got.dtype.names:
        return all(_values_equal(got[n], exp[n]) for n in got.dtype.names)
    if got.dtype.subdtype is not None:
        return _values_equal(got, exp)
    k = got.dtype.kind
    if k == "c":
        return _values_equal(got.real, exp.real) and _values_equal(got.imag, exp.imag)
    if k == "f":
        g = got.astype("<f8")
        e = exp.astype("<f8")
        both_nan = np.isnan(g) & np.isnan(e)
        same = (g == e) & (np.signbit(g) == np.signbit(e))
        return bool(np.all(both_nan | same))
    return got.tobytes() == exp.tobytes()


def _json_equal(a, b):
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    return a == b


def _first_diff_json(got, exp):
    for i, (g, e) in enumerate(zip(got, exp)):
        if not _json_equal(g, e):
            return "item %d: got %r, expected %r" % (i, g, e)
    return "lengths %d vs %d" % (len(got), len(exp))


def check_array(base, entry):
    store = os.path.join(base, entry["store"])
    path = entry.get("path", "")
    if not os.path.isdir(store):
        raise Mismatch("store %s not found" % store)
    try:
        z = zarr.open_array(store, path=path, mode="r")
    except Exception as e:  # noqa: BLE001
        raise Mismatch("zarr-python cannot open it: %s: %s" % (type(e).__name__, e))
    if "zarr_format" in entry and entry["zarr_format"] != 2:
        raise Mismatch("zarr_format %r: this verifier handles v2 only" % entry["zarr_format"])
    exp_dtype = dtype_from_json(entry["dtype"])
    if z.dtype != exp_dtype:
        raise Mismatch("dtype %s, expected %s" % (z.dtype.descr, exp_dtype.descr))
    if list(z.shape) != list(entry["shape"]):
        raise Mismatch("shape %s, expected %s" % (list(z.shape), entry["shape"]))
    if "chunks" in entry and list(z.chunks) != list(entry["chunks"]):
        raise Mismatch("chunks %s, expected %s" % (list(z.chunks), entry["chunks"]))
    if "order" in entry and z.order != entry["order"]:
        raise Mismatch("order %s, expected %s" % (z.order, entry["order"]))
    if "fill_value" in entry:
        obj_codec = None
        if z.dtype.hasobject and z.filters:
            obj_codec = z.filters[0]
        try:
            got_fill = Metadata2.encode_fill_value(z.fill_value, z.dtype, obj_codec)
        except Exception:  # noqa: BLE001
            got_fill = z.fill_value
        if z.dtype.kind == "O":
            got_fill = z.fill_value
        if not _fill_equal(got_fill, entry["fill_value"]):
            raise Mismatch("fill_value %r, expected %r" % (got_fill, entry["fill_value"]))
    if "compressor" in entry:
        exp_id = entry["compressor"]["id"] if entry["compressor"] else None
        got_id = z.compressor.codec_id if z.compressor is not None else None
        if exp_id != got_id:
            raise Mismatch("compressor %s, expected %s" % (got_id, exp_id))
    if "filters" in entry:
        exp_ids = [f["id"] for f in entry["filters"]] if entry["filters"] else []
        got_ids = [f.codec_id for f in z.filters] if z.filters else []
        if exp_ids != got_ids:
            raise Mismatch("filters %s, expected %s" % (got_ids, exp_ids))
    if "attributes" in entry:
        got_attrs = dict(z.attrs)
        if not _json_equal(got_attrs, entry["attributes"]):
            raise Mismatch("attributes %s, expected %s" % (json.dumps(got_attrs),
                                                          json.dumps(entry["attributes"])))
    exp = entry["expected"]
    with open(os.path.join(base, exp["file"]), "rb") as f:
        data = f.read()
    if exp.get("sha256") and hashlib.sha256(data).hexdigest() != exp["sha256"]:
        raise Mismatch("expected file %s does not match its sha256" % exp["file"])
    try:
        a = z[...]
    except Exception as e:  # noqa: BLE001
        raise Mismatch("zarr-python cannot read the values: %s: %s" % (type(e).__name__, e))
    fmt = exp.get("format", "raw")
    if fmt == "json":
        expected_items = json.loads(data.decode("utf-8"))
        got_items = json_expected_items(a)
        if not _json_equal(got_items, expected_items):
            raise Mismatch("values differ: " + _first_diff_json(got_items, expected_items))
    elif fmt == "raw":
        got = little_endian(a)
        le = got.dtype
        if len(data) != got.nbytes:
            raise Mismatch("expected file has %d bytes, the array %d" % (len(data), got.nbytes))
        if got.tobytes(order="C") != data:
            want = np.frombuffer(data, dtype=le).reshape(got.shape)
            if not _values_equal(got.reshape(-1), want.reshape(-1)):
                flat_g, flat_w = got.reshape(-1), want.reshape(-1)
                for i in range(flat_g.size):
                    if not _values_equal(flat_g[i:i + 1], flat_w[i:i + 1]):
                        raise Mismatch("values differ at flat index %d: got %r, expected %r"
                                       % (i, flat_g[i], flat_w[i]))
                raise Mismatch("values differ")
    else:
        raise Mismatch("unknown expected format %r" % fmt)


def main():
    if len(sys.argv) != 2:
        print("usage: verify_with_zarr_python.py MANIFEST", file=sys.stderr)
        return 2
    manifest_path = os.path.abspath(sys.argv[1])
    base = os.path.dirname(manifest_path)
    try:
        with open(manifest_path, encoding="utf-8") as f:
            manifest = json.load(f)
        arrays = manifest["arrays"]
    except Exception as e:  # noqa: BLE001
        print("cannot read manifest %s: %s" % (manifest_path, e))
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    for entry in arrays:
        label = "%s/%s" % (entry.get("store"), entry.get("path", ""))
        try:
            check_array(base, entry)
        except Mismatch as e:
            failed += 1
            print("FAIL %s: %s" % (label, e))
            continue
        except Exception as e:  # noqa: BLE001  (a broken entry is a failure, not a crash)
            failed += 1
            print("FAIL %s: %s: %s" % (label, type(e).__name__, e))
            continue
        passed += 1
        print("ok   %s" % label)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
