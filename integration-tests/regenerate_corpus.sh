#!/usr/bin/env bash
# Regenerates the independent Zarr corpora and checks them with their verifiers.
# Usage: integration-tests/regenerate_corpus.sh [OUTDIR]
#   OUTDIR defaults to src/test/resources/corpus (the committed copy); CI passes e.g.
#   target/corpus. Writes OUTDIR/v2, OUTDIR/v2-bad, OUTDIR/datasets (zarr-python 2.13),
#   OUTDIR/v1 (numpy + numcodecs from the v1 spec), OUTDIR/v3draft (zarr-python 2.13's v3 draft
#   API), OUTDIR/hostile (numpy + numcodecs, JSON by hand), OUTDIR/v3-numcodecs (zarr-python 3's
#   numcodecs.* codecs, encoded by numcodecs) and OUTDIR/v3 (zarrita; skipped with a
#   message when node or zarrita is not installed).
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="${1:-$HERE/../src/test/resources/corpus}"
PY=/usr/bin/python3   # Debian's python3 sees the apt zarr/numcodecs/xarray packages
mkdir -p "$OUT"
"$PY" "$HERE/generate_v2_corpus.py" "$OUT/v2"
"$PY" "$HERE/generate_bad_v2_stores.py" "$OUT/v2-bad" >/dev/null
"$PY" "$HERE/generate_datasets.py" "$OUT/datasets"
"$PY" "$HERE/verify_with_zarr_python.py" "$OUT/v2/manifest.json" | tail -n 1
"$PY" "$HERE/generate_v1_corpus.py" "$OUT/v1"
"$PY" "$HERE/generate_v3draft_corpus.py" "$OUT/v3draft"
"$PY" "$HERE/generate_v3draft_corpus.py" --verify "$OUT/v3draft/manifest.json" | tail -n 1
"$PY" "$HERE/generate_hostile_stores.py" "$OUT/hostile"
"$PY" "$HERE/generate_v3_numcodecs_corpus.py" "$OUT/v3-numcodecs" | tail -n 1
if command -v node >/dev/null 2>&1 && [ -d "$HERE/zarrita/node_modules/zarrita" ]; then
  node "$HERE/zarrita/generate_v3_corpus.mjs" "$OUT/v3"
  node "$HERE/zarrita/verify_with_zarrita.mjs" "$OUT/v3/manifest.json" | tail -n 1
else
  echo "v3 corpus: skipped (node or zarrita missing; run integration-tests/install-deps.sh)"
fi
