#!/usr/bin/env bash
# The core, and the command line's and viewer's crate built over it (statecore-cli), must build
# for wasm32-unknown-unknown with no binding crate in their dependency trees; the core must not
# depend on statecore-cli (it does not know the crates built over it).
set -euo pipefail
cd "$(dirname "$0")/.."
for crate in statecore statecore-cli; do
  tree=$(cargo tree -p "$crate" --edges normal --prefix none --target wasm32-unknown-unknown)
  if grep -Eq '^(wasm-bindgen|js-sys|web-sys|pyo3|getrandom)( |$)' <<<"$tree"; then
    echo "$crate depends on a binding or platform crate:" >&2
    grep -E '^(wasm-bindgen|js-sys|web-sys|pyo3|getrandom)( |$)' <<<"$tree" >&2
    exit 1
  fi
  if [ "$crate" = statecore ] && grep -Eq '^statecore-cli( |$)' <<<"$tree"; then
    echo "the core depends on statecore-cli, a crate built over it" >&2
    exit 1
  fi
  cargo build -q -p "$crate" --target wasm32-unknown-unknown
done
echo "core purity: ok (no binding crates; statecore and statecore-cli build for wasm32-unknown-unknown)"
