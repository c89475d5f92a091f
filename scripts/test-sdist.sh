#!/usr/bin/env bash
# The source distribution (issue 15): `maturin sdist` from python/, then, in a brand-new venv,
# `pip install` of the sdist alone, which builds the native module from source (the Rust
# toolchain and maturin from PyPI, as any user without a matching wheel would), and a use of
# the installed package. Run after scripts/build-python.sh (the notices it writes ship).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log() { printf '[test-sdist] %s\n' "$*"; }

[ -f python/statecore/THIRD-PARTY-NOTICES.txt ] || { echo "test-sdist: run scripts/build-python.sh first" >&2; exit 1; }
(cd python && ../.venv/bin/maturin sdist -o "$work/dist" >"$work/sdist.log" 2>&1) \
  || { cat "$work/sdist.log" >&2; exit 1; }
sdist=$(ls "$work"/dist/statecore-*.tar.gz)
listing=$(tar -tzf "$sdist")
for want in LICENSE pyproject.toml README.md Cargo.toml Cargo.lock core/src/lib.rs \
            bindings-python/src/lib.rs statecore/__init__.py statecore/aio.py \
            statecore/THIRD-PARTY-NOTICES.txt statecore/py.typed; do
  grep -qx "statecore-0.1.0/$want" <<<"$listing" || { echo "test-sdist: $want missing from $sdist" >&2; exit 1; }
done
if grep -E '/(target|node_modules|\.venv)/' <<<"$listing"; then
  echo "test-sdist: build outputs in $sdist" >&2; exit 1
fi
# The docs (pages and built site) ship, so the docstrings' references resolve offline; no
# placeholder address is in its metadata or text.
.venv/bin/python scripts/check_shipped_docs.py "$sdist" statecore-0.1.0/
.venv/bin/python scripts/project_address.py artifacts "$sdist"

log "pip install $(basename "$sdist") into a new venv (a build from source)"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "$sdist"
cd "$work"
"$work/venv/bin/python" - <<'PY'
import asyncio, importlib.resources, os
import statecore
from statecore import aio
assert statecore.merge({"a": 1}, {"b": 2}) == {"a": 1, "b": 2}
statecore.update_document("s.json", "fctry.state", {"workflowStep": "interviewer"})
got = asyncio.run(aio.run(statecore.read_document, "s.json", "fctry.state"))
assert got["document"] == {"workflowStep": "interviewer"}, got
notices = importlib.resources.files("statecore").joinpath("THIRD-PARTY-NOTICES.txt").read_text()
assert "\npyo3 " in notices
print("sdist: built from source,", statecore.__version__, "from", os.path.dirname(statecore.__file__))
PY
"$work/venv/bin/statecore" validate --kind fctry.state s.json
log "ok"
