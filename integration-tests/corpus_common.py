"""Shared helpers for the spark-zarr independent test corpus (run with /usr/bin/python3).

The corpus is written with Debian's zarr-python 2.13 / numcodecs 0.11 / numpy 1.24, which are the
independent implementation the Java reader is compared against. See integration-tests/README.md.
"""

import base64
import hashlib
import json
import math
import os
import zlib

import numpy as np

MANIFEST_VERSION = 1


def seed_for(name):
    """A stable per-case seed so adding cases does not change other cases' data."""
    return zlib.crc32(name.encode("utf-8")) & 0x7FFFFFFF


def rng_for(name):
    return np.random.default_rng(seed_for(name))


def little_endian(a):
    """The array with every field (recursively, including structured fields) little-endian."""
    return np.ascontiguousarray(a.astype(a.dtype.newbyteorder("<"), copy=False))


def crc32c(data):
    """CRC-32C (Castagnoli), bit by bit: numcodecs 0.11 has no CRC32C codec."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def raw_expected_bytes(a):
    """Fixed-size dtypes: little-endian, C-order raw bytes of the logical array."""
    return little_endian(a).tobytes(order="C")


def _json_item(v):
    if v is None:
        return None
    if isinstance(v, (bytes, bytearray, np.bytes_)):
        return base64.standard_b64encode(bytes(v)).decode("ascii")
    if isinstance(v, (str, np.str_)):
        return str(v)
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        if math.isnan(f) or math.isinf(f):
            raise ValueError("non-finite float in an object array cannot be written as JSON")
        return f
    if isinstance(v, dict):
        return {str(k): _json_item(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_json_item(x) for x in v]
    if isinstance(v, np.ndarray):
        return [_json_item(x) for x in v.tolist()]
    raise TypeError("cannot express %r (%s) in the expected JSON" % (v, type(v)))


def json_expected_items(a):
    """Object arrays: a flat JSON list of the items in C order."""
    flat = np.asarray(a, dtype=object).reshape(-1, order="C")
    return [_json_item(v) for v in flat]


def json_expected_bytes(a):
    return (json.dumps(json_expected_items(a), ensure_ascii=False, allow_nan=False,
                       separators=(",", ":")) + "\n").encode("utf-8")


def sha256_bytes(b):
    return hashlib.sha256(b).hexdigest()


def write_file(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def dump_json(path, obj):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1, ensure_ascii=False, allow_nan=False)
        f.write("\n")


def dtype_from_json(d):
    """numpy dtype from a .zarray "dtype" JSON value (string or list of fields)."""
    if isinstance(d, str):
        return np.dtype(d)
    fields = []
    for f in d:
        name, t = f[0], f[1]
        sub = dtype_from_json(t) if isinstance(t, list) else np.dtype(t)
        if len(f) > 2:
            fields.append((name, sub, tuple(f[2])))
        else:
            fields.append((name, sub))
    return np.dtype(fields)
