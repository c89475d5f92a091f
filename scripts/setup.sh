#!/usr/bin/env bash
# Installs everything the build and the tests need on a fresh machine of this kind.
# Idempotent: each step is skipped when already done. See ../shared/TOOLCHAIN.md.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '[setup] %s\n' "$*"; }

# 1. The wasm target (rustup, or the vendored rust-std as a fallback).
if ! rustc --print target-libdir --target wasm32-unknown-unknown >/dev/null 2>&1 \
   || [ ! -d "$(rustc --print sysroot)/lib/rustlib/wasm32-unknown-unknown" ]; then
  log "adding the wasm32-unknown-unknown target"
  if ! rustup target add wasm32-unknown-unknown; then
    tarball=../shared/toolchain/rust-std-1.95.0-wasm32-unknown-unknown.tar.xz
    log "rustup failed; unpacking $tarball"
    tmp=$(mktemp -d)
    tar -xJf "$tarball" -C "$tmp"
    cp -r "$tmp"/rust-std-*/rust-std-wasm32-unknown-unknown/lib/rustlib/wasm32-unknown-unknown \
      "$(rustc --print sysroot)/lib/rustlib/"
    rm -rf "$tmp"
  fi
fi

# 2. wasm-bindgen-cli at exactly the version in Cargo.lock (no --locked: a dependency version it locks may be missing from a registry mirror).
want=$(cargo metadata --format-version 1 --locked 2>/dev/null \
  | python3 -c 'import json,sys; print(next(p["version"] for p in json.load(sys.stdin)["packages"] if p["name"]=="wasm-bindgen"))')
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  log "installing wasm-bindgen-cli $want (had: ${have:-none}); this takes a few minutes"
  cargo install wasm-bindgen-cli --version "=$want" --no-default-features --force
fi

# 3. Python virtualenv with the build and test tools.
if [ ! -x .venv/bin/python ]; then
  log "creating .venv"
  python3 -m venv .venv
fi
if ! .venv/bin/python -c 'import maturin, pytest, hypothesis, mypy, ruff' 2>/dev/null \
   || ! cmp -s python/requirements-dev.txt .venv/.requirements-dev.txt; then
  log "installing Python tools"
  .venv/bin/pip install --quiet --disable-pip-version-check -r python/requirements-dev.txt
  cp python/requirements-dev.txt .venv/.requirements-dev.txt
fi

# 4. npm dependencies (exact, from package-lock.json).
if [ ! -d npm/node_modules ] || ! cmp -s npm/package-lock.json npm/node_modules/.package-lock.copy; then
  log "npm ci"
  (cd npm && npm ci --no-audit --no-fund --loglevel=error)
  cp npm/package-lock.json npm/node_modules/.package-lock.copy
fi

# 5. Debian's chromium for the browser tests.
if [ ! -x /usr/bin/chromium ]; then
  log "installing chromium (apt)"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
log "ready"
