#!/usr/bin/env bash
# Builds the page of `statecore view` into npm/dist/viewer/ (flat names, served by
# npm/lib/view/server.cjs as /assets/<name>):
#   viewer.js, chunk-<hash>.js   npm/viewer/src/main.mjs bundled by esbuild (ESM, split: Mermaid
#                                loads as its own chunks only when a Hivemind panel is drawn)
#   *.LEGAL.txt                  the bundled libraries' licence comments
#   THIRD-PARTY-NOTICES.txt      every bundled npm package with its licence texts
#                                (scripts/third_party.py, from esbuild's metafile)
#   index.html, viewer.css       copied from npm/viewer/
#   statecore_bg.wasm            the core's combined module, copied from npm/dist/web/
#                                (scripts/build-wasm.sh)
#   statecore-<protocol>_bg.wasm each protocol's module, from npm/dist/web-<protocol>/ (the
#                                page loads one of them for a workspace of one protocol)
# Idempotent: skipped when no input changed since the last build (a stamp over every input).
# scripts/build-wasm.sh removes npm/dist (viewer included): run this after it.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '[build-viewer] %s\n' "$*"; }

out=npm/dist/viewer
esbuild=npm/node_modules/.bin/esbuild
wasm=npm/dist/web/statecore_bg.wasm
if [ ! -x "$esbuild" ]; then
  log "installing npm dev dependencies (for esbuild)"
  (cd npm && npm ci --no-audit --no-fund --loglevel=error)
fi
if [ ! -f "$wasm" ]; then
  echo "[build-viewer] $wasm is missing: run scripts/build-wasm.sh first" >&2
  exit 1
fi

# Every input: the page's sources, the package's browser entry and glue, the wasm, the
# locked library versions, esbuild's version and this script.
stamp_file=$out/.build-stamp
stamp=$( {
  find npm/viewer -type f | LC_ALL=C sort | xargs sha256sum
  sha256sum npm/lib/generated/web.mjs npm/lib/binding/web-init.mjs npm/lib/binding/api.mjs npm/lib/binding/convert.mjs npm/lib/generated/generated.mjs \
    npm/lib/generated/web-modules.mjs npm/dist/web/statecore.js "$wasm" npm/dist/web-*/statecore_bg.wasm \
    npm/package-lock.json scripts/build-viewer.sh \
    scripts/third_party.py
  "$esbuild" --version
} | sha256sum | cut -c1-64)
if [ -f "$stamp_file" ] && [ "$(cat "$stamp_file")" = "$stamp" ] && [ -f "$out/viewer.js" ] \
   && [ -f "$out/statecore_bg.wasm" ] && [ -f "$out/index.html" ]; then
  log "$out is up to date"
  exit 0
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/build-viewer.XXXXXX")
trap 'rm -rf "$tmp" "$tmp.meta.json"' EXIT
"$esbuild" npm/viewer/src/main.mjs \
  --bundle --format=esm --splitting --minify --target=es2022 --platform=browser \
  --outdir="$tmp" --entry-names=viewer --chunk-names=chunk-[hash] \
  --legal-comments=linked --charset=utf8 --log-level=warning --metafile="$tmp.meta.json" \
  --define:process.env.NODE_ENV='"production"'
python3 scripts/third_party.py js "$tmp.meta.json" "$tmp/THIRD-PARTY-NOTICES.txt"
rm -f "$tmp.meta.json"
cp npm/viewer/index.html npm/viewer/viewer.css "$tmp/"
cp "$wasm" "$tmp/statecore_bg.wasm"
# Each protocol's module (scripts/build-wasm.sh), which the page loads for a workspace of one
# protocol (npm/viewer/src/modules.mjs).
for dir in npm/dist/web-*/; do
  protocol=$(basename "$dir")
  cp "$dir/statecore_bg.wasm" "$tmp/statecore-${protocol#web-}_bg.wasm"
done

# Every output must be a flat name the server serves as /assets/<name>.
bad=$(find "$tmp" -mindepth 1 \( -type d -o ! -regex '.*/[A-Za-z0-9][A-Za-z0-9._-]*' \) -print)
if [ -n "$bad" ]; then
  echo "[build-viewer] outputs the server cannot serve: $bad" >&2
  exit 1
fi

rm -rf "$out"
mkdir -p "$(dirname "$out")"
mv "$tmp" "$out"
chmod 755 "$out"
trap - EXIT
printf '%s\n' "$stamp" > "$stamp_file"

size() { wc -c < "$1" | awk '{ printf "%.0f KB", $1 / 1024 }'; }
chunks=$(find "$out" -name 'chunk-*.js' | wc -l)
chunk_bytes=$(find "$out" -name 'chunk-*.js' -exec cat {} + | wc -c)
log "$out: viewer.js $(size "$out/viewer.js"), $chunks chunks $((chunk_bytes / 1024)) KB (Mermaid's, loaded on demand), viewer.css $(size "$out/viewer.css"), statecore_bg.wasm $(size "$out/statecore_bg.wasm")"
