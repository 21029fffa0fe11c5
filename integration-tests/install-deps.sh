#!/usr/bin/env bash
# Installs the independent Zarr implementations the tests compare against: Debian's zarr-python
# 2.13, numcodecs, xarray and libblosc (run them with /usr/bin/python3, not a pyenv python).
set -euo pipefail
if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
if ! /usr/bin/python3 -c "import zarr, numcodecs, xarray" >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    python3-zarr python3-numcodecs python3-xarray libblosc1 >/dev/null
fi
/usr/bin/python3 -c "import zarr, numcodecs; print('zarr-python', zarr.__version__, 'numcodecs', numcodecs.__version__)"
# zarrita (npm, version pinned in integration-tests/zarrita/package-lock.json) for the v3 checks.
HERE="$(cd "$(dirname "$0")" && pwd)"
if command -v npm >/dev/null 2>&1; then
  (cd "$HERE/zarrita" && npm ci --no-audit --no-fund --loglevel=error)
  node -e "console.log('zarrita', require('$HERE/zarrita/node_modules/zarrita/package.json').version)"
else
  echo "npm not found: install nodejs and npm to run the zarrita v3 checks" >&2
fi
