#!/usr/bin/env bash
# Regenerates the independent Zarr corpus with zarr-python 2.13 and checks it with the verifier.
# Usage: integration-tests/regenerate_corpus.sh [OUTDIR]
#   OUTDIR defaults to src/test/resources/corpus (the committed copy); CI passes e.g.
#   target/corpus. Writes OUTDIR/v2, OUTDIR/v2-bad and OUTDIR/datasets.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${1:-$HERE/../src/test/resources/corpus}"
PY=/usr/bin/python3   # Debian's python3 sees the apt zarr/numcodecs/xarray packages
mkdir -p "$OUT"
"$PY" "$HERE/generate_v2_corpus.py" "$OUT/v2"
"$PY" "$HERE/generate_bad_v2_stores.py" "$OUT/v2-bad" >/dev/null
"$PY" "$HERE/generate_datasets.py" "$OUT/datasets"
"$PY" "$HERE/verify_with_zarr_python.py" "$OUT/v2/manifest.json" | tail -n 1
