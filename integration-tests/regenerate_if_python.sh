#!/usr/bin/env bash
# Build step (mvn verify): regenerates the corpus into OUTDIR with Debian's zarr-python, so the
# Java tests also run against a fresh copy. Without /usr/bin/python3 + zarr it says so and skips;
# when they are there, any generator failure fails the build.
set -euo pipefail
OUT="$1"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if ! /usr/bin/python3 -c "import zarr, numcodecs, xarray" >/dev/null 2>&1; then
  echo "fresh corpus: skipped (no /usr/bin/python3 with zarr, numcodecs and xarray; run integration-tests/install-deps.sh)"
  exit 0
fi
rm -rf "$OUT"
bash "$HERE/regenerate_corpus.sh" "$OUT"
echo "fresh corpus: regenerated into $OUT"
