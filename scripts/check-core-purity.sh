#!/usr/bin/env bash
# The core must build for wasm32-unknown-unknown with no binding crate in its dependency tree.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=$(cargo tree -p statecore --edges normal --prefix none --target wasm32-unknown-unknown)
if grep -Eq '^(wasm-bindgen|js-sys|web-sys|pyo3|getrandom)( |$)' <<<"$tree"; then
  echo "core depends on a binding or platform crate:" >&2
  grep -E '^(wasm-bindgen|js-sys|web-sys|pyo3|getrandom)( |$)' <<<"$tree" >&2
  exit 1
fi
cargo build -q -p statecore --target wasm32-unknown-unknown
echo "core purity: ok (no binding crates; builds for wasm32-unknown-unknown)"
