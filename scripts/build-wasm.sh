#!/usr/bin/env bash
# Builds the wasm binding into the npm package (docs/conventions.md § The wasm boundary and the npm package):
#   npm/dist/node/  wasm-bindgen --target nodejs (CommonJS, loads the .wasm synchronously)
#   npm/dist/web/   wasm-bindgen --target web    (ES module, explicit `await init()`) of the
#                  browser's module: built with the `web` feature (only the operations the
#                  table marks `web`, on a core without its `full` feature), size-optimised
#                  (profile wasm-web, opt-level z, wasm-opt -Oz; docs/performance.md § wasm size)
#   npm/dist/web-<protocol>/  the same, one module per protocol (fctry, hivemind, agency, hive,
#                  specify): the generic base plus that protocol's kinds, rules, views and
#                  derivations (the core's feature of the protocol's name; profile
#                  wasm-web-<protocol>), loaded by the browser entry when a page asks for it
#   npm/dist/node/api.cjs  CommonJS copy of npm/lib/generated/generated.mjs + binding/convert.mjs + binding/api.mjs (the JS layer)
#   npm/dist/statusline/  --target nodejs of the module built without the `full` feature: only
#                  the status line's function, size-optimised (profile wasm-statusline, -Oz), for
#                  bin/statecore-statusline.cjs, which runs on every shell prompt
# Every module uses wasm SIMD (simd128, .cargo/config.toml). Node's full module is optimised with
# `wasm-opt -O3` (speed: the core runs on every prompt and request), the browser's and the
# status line's with -Oz (size: fetched by a page, read on every shell prompt),
# by the npm package `binaryen` (never Debian's binaryen: its output crashes at load).
# Idempotent; steps whose inputs did not change since the last run are skipped.
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
# The protocols: the core's features of the same names (core/Cargo.toml).
protocols=$(sed -n 's/^full = \[\(.*\)\]$/\1/p' core/Cargo.toml | tr -d '",')
log "cargo build (wasm-web: the browser's combined module, every protocol)"
cargo build -q -p statecore-wasm --no-default-features --features "web,${protocols// /,}" --target wasm32-unknown-unknown --profile wasm-web
raw_web=target/wasm32-unknown-unknown/wasm-web/statecore_wasm.wasm
raw_protocols=()
for protocol in $protocols; do
  log "cargo build (wasm-web-$protocol: the browser's $protocol module)"
  cargo build -q -p statecore-wasm --no-default-features --features "web,$protocol" --target wasm32-unknown-unknown --profile "wasm-web-$protocol"
  raw_protocols+=("target/wasm32-unknown-unknown/wasm-web-$protocol/statecore_wasm.wasm")
done
log "cargo build (wasm-statusline: the status line's function only)"
cargo build -q -p statecore-wasm --no-default-features --target wasm32-unknown-unknown --profile wasm-statusline
raw_statusline=target/wasm32-unknown-unknown/wasm-statusline/statecore_wasm.wasm

# One stamp over everything the outputs depend on: skip bindgen + wasm-opt when unchanged.
stamp_file=npm/dist/.build-stamp
stamp=$( { sha256sum "$raw" "$raw_web" "${raw_protocols[@]}" "$raw_statusline" npm/lib/binding/api.mjs npm/lib/binding/convert.mjs npm/lib/generated/generated.mjs npm/build/cjs-from-esm.mjs "$0" .cargo/config.toml scripts/third_party.py Cargo.lock; "$wasm_opt" --version; echo "$want"; } | sha256sum | cut -c1-64)
if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ] \
   && [ -f npm/dist/node/statecore_bg.wasm ] && [ -f npm/dist/web/statecore_bg.wasm ] \
   && [ -f npm/dist/node/api.cjs ] && [ -f npm/dist/statusline/statecore_bg.wasm ] \
   && [ -f npm/dist/THIRD-PARTY-NOTICES.txt ]; then
  missing=0
  for protocol in $protocols; do
    [ -f "npm/dist/web-$protocol/statecore_bg.wasm" ] || missing=1
  done
  if [ "$missing" = 0 ]; then
    log "npm/dist is up to date"
    exit 0
  fi
fi

rm -rf npm/dist
# bindgen INPUT TARGET OUT LEVEL: wasm-bindgen, then wasm-opt at LEVEL.
bindgen() {
  log "wasm-bindgen --target $2 -> $3"
  wasm-bindgen "$1" --target "$2" --out-dir "$3" --out-name statecore
  log "wasm-opt $4 $3/statecore_bg.wasm"
  "$wasm_opt" "$4" --enable-simd --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$3/statecore_bg.wasm" -o "$3/statecore_bg.wasm"
}
bindgen "$raw" nodejs npm/dist/node -O3
bindgen "$raw_web" web npm/dist/web -Oz
i=0
for protocol in $protocols; do
  bindgen "${raw_protocols[$i]}" web "npm/dist/web-$protocol" -Oz
  i=$((i + 1))
done
bindgen "$raw_statusline" nodejs npm/dist/statusline -Oz
# The web glue is an ES module inside a "type": "commonjs" package: say so for Node.
for dir in npm/dist/web npm/dist/web-*; do
  printf '{\n  "type": "module"\n}\n' > "$dir/package.json"
done
printf '{\n  "type": "commonjs"\n}\n' | tee npm/dist/node/package.json > npm/dist/statusline/package.json

log "npm/dist/node/api.cjs from npm/lib/generated/generated.mjs, binding/convert.mjs and binding/api.mjs"
node npm/build/cjs-from-esm.mjs npm/dist/node/api.cjs npm/lib/generated/generated.mjs npm/lib/binding/convert.mjs npm/lib/binding/api.mjs

log "npm/dist/THIRD-PARTY-NOTICES.txt: the crates compiled into the wasm, with their licences"
python3 scripts/third_party.py rust statecore-wasm wasm32-unknown-unknown npm/dist/THIRD-PARTY-NOTICES.txt

echo "$stamp" > "$stamp_file"
sizes() { echo "$(wc -c < "$1") bytes ($(gzip -9c "$1" | wc -c) gzipped)"; }
log "done: Node's module $(sizes npm/dist/node/statecore_bg.wasm); the browser's combined $(sizes npm/dist/web/statecore_bg.wasm); status line module $(wc -c < npm/dist/statusline/statecore_bg.wasm) bytes"
for protocol in $protocols; do
  log "the browser's $protocol module: $(sizes "npm/dist/web-$protocol/statecore_bg.wasm")"
done
