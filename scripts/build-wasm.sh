#!/usr/bin/env bash
# Builds the wasm binding into the npm package (ARCHITECTURE §6, ../shared/TOOLCHAIN.md):
#   npm/dist/node/  wasm-bindgen --target nodejs (CommonJS, loads the .wasm synchronously)
#   npm/dist/web/   wasm-bindgen --target web    (ES module, explicit `await init()`)
#   npm/dist/node/api.cjs  CommonJS copy of npm/lib/api.mjs (the one hand-written API layer)
# Both .wasm files are shrunk with `wasm-opt -O3` (speed: the core runs on every prompt and request) from the npm package `binaryen` (never
# Debian's binaryen: its output crashes at load). Idempotent; steps whose inputs did not
# change since the last run are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '[build-wasm] %s\n' "$*"; }

wasm_opt=npm/node_modules/.bin/wasm-opt
if [ ! -x "$wasm_opt" ]; then
  log "installing npm dev dependencies (for binaryen's wasm-opt)"
  (cd npm && npm ci --no-audit --no-fund --loglevel=error)
fi

want=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "wasm-bindgen CLI is ${have:-missing}, Cargo.lock wants $want: run scripts/setup.sh" >&2
  exit 1
fi

log "cargo build (wasm-release)"
cargo build -q -p statecore-wasm --target wasm32-unknown-unknown --profile wasm-release
raw=target/wasm32-unknown-unknown/wasm-release/statecore_wasm.wasm

# One stamp over everything the outputs depend on: skip bindgen + wasm-opt when unchanged.
stamp_file=npm/dist/.build-stamp
stamp=$( { sha256sum "$raw" npm/lib/api.mjs npm/build/cjs-from-esm.mjs "$0"; "$wasm_opt" --version; echo "$want"; } | sha256sum | cut -c1-64)
if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ] \
   && [ -f npm/dist/node/statecore_bg.wasm ] && [ -f npm/dist/web/statecore_bg.wasm ] \
   && [ -f npm/dist/node/api.cjs ]; then
  log "npm/dist is up to date"
  exit 0
fi

rm -rf npm/dist
for target in nodejs web; do
  out=npm/dist/$([ "$target" = nodejs ] && echo node || echo web)
  log "wasm-bindgen --target $target -> $out"
  wasm-bindgen "$raw" --target "$target" --out-dir "$out" --out-name statecore
  log "wasm-opt -O3 $out/statecore_bg.wasm"
  "$wasm_opt" -O3 --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$out/statecore_bg.wasm" -o "$out/statecore_bg.wasm"
done
# The web glue is an ES module inside a "type": "commonjs" package: say so for Node.
printf '{\n  "type": "module"\n}\n' > npm/dist/web/package.json
printf '{\n  "type": "commonjs"\n}\n' > npm/dist/node/package.json

log "npm/dist/node/api.cjs from npm/lib/api.mjs"
node npm/build/cjs-from-esm.mjs npm/lib/api.mjs npm/dist/node/api.cjs

echo "$stamp" > "$stamp_file"
log "done: $(wc -c < npm/dist/node/statecore_bg.wasm) bytes of wasm ($(gzip -9c npm/dist/web/statecore_bg.wasm | wc -c) gzipped)"
