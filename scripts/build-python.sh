#!/usr/bin/env bash
# Builds the statecore abi3 wheel (maturin, release; manylinux2014, so it installs on glibc 2.17
# and later) into dist/wheels and installs it into
# .venv, so the Python tests run against the INSTALLED wheel, as a user would.
# Also copies the wheel's native module into python/statecore/ (git-ignored), so tools run
# from python/ (mypy.stubtest) see the same binary. Idempotent: safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '[build-python] %s\n' "$*"; }

if [ ! -x .venv/bin/maturin ]; then
  log "creating .venv with the Python tools"
  [ -x .venv/bin/python ] || python3 -m venv .venv
  .venv/bin/pip install --quiet --disable-pip-version-check -r python/requirements-dev.txt
fi

# A target dir of its own: sharing one with `cargo build` rebuilds pyo3 on every switch.
export CARGO_TARGET_DIR="${STATECORE_MATURIN_TARGET:-$PWD/target/maturin}"

# The crates compiled into the native module, with their licences (shipped in the wheel).
host=$(rustc -vV | sed -n 's/^host: //p')
python3 scripts/third_party.py rust statecore-python "$host" python/statecore/THIRD-PARTY-NOTICES.txt

mkdir -p dist/wheels
rm -f dist/wheels/statecore-*.whl
# manylinux2014 (glibc 2.17, most CI images and servers): linked by zig (the `ziglang` wheel
# from PyPI; maturin runs it as `python -m ziglang`, hence .venv/bin first on PATH).
log "maturin build --profile python-release --zig --compatibility manylinux2014"
(cd python && PATH="$PWD/../.venv/bin:$PATH" ../.venv/bin/maturin build --profile python-release \
  --zig --compatibility manylinux2014 --quiet -o ../dist/wheels --interpreter ../.venv/bin/python)
wheels=(dist/wheels/statecore-*-cp39-abi3-*.whl)
if [ ${#wheels[@]} -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
  echo "expected exactly one cp39-abi3 wheel in dist/wheels, got: ${wheels[*]}" >&2
  exit 1
fi
wheel=${wheels[0]}

log "installing $wheel into .venv"
.venv/bin/pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"

# The same native module beside the sources, for tools that import from python/.
.venv/bin/python - "$wheel" <<'PY'
import sys, zipfile
from pathlib import Path
with zipfile.ZipFile(sys.argv[1]) as wheel:
    [name] = [n for n in wheel.namelist() if n.startswith("statecore/_statecore") and n.endswith(".so")]
    Path("python", name).write_bytes(wheel.read(name))
PY
root=$PWD
log "ok: $(cd / && "$root/.venv/bin/python" -c 'import statecore; print(statecore.__version__, statecore.__file__)')"
