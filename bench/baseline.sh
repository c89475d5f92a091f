#!/usr/bin/env bash
# Builds a baseline commit's packages for the before/after rows of `make bench`: its npm
# package (the Node wasm build, scripts/build-wasm.sh of that commit) and its Python package
# (maturin wheel, unpacked) under bench/.baseline/<commit>/ (git-ignored, cached: built once).
# Prints the directory. Needs what `make build` set up (the wasm-bindgen CLI of the same pin,
# .venv with maturin).
#   bash bench/baseline.sh <commit>
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
log() { printf '[bench baseline] %s\n' "$*" >&2; }
commit=$(git rev-parse --short=12 "${1:?usage: baseline.sh <commit>}^{commit}")
dir=$root/bench/.baseline/$commit
if [ -f "$dir/.built" ]; then
  echo "$dir"
  exit 0
fi
rm -rf "$dir"
mkdir -p "$dir/src" "$dir/wheels"
log "building $commit in $dir (once; a few minutes)"
git archive "$commit" | tar -x -C "$dir/src"
(cd "$dir/src" && bash scripts/build-wasm.sh) >&2
(
  cd "$dir/src/python"
  CARGO_TARGET_DIR="$dir/src/target/maturin" "$root/.venv/bin/maturin" build --release --quiet \
    -o "$dir/wheels" --interpreter "$root/.venv/bin/python"
) >&2
"$root/.venv/bin/python" - "$dir" <<'PY'
import sys, zipfile
from pathlib import Path
base = Path(sys.argv[1])
[wheel] = base.joinpath("wheels").glob("statecore-*.whl")
zipfile.ZipFile(wheel).extractall(base / "py")
PY
rm -rf "$dir/src/target"
touch "$dir/.built"
echo "$dir"
