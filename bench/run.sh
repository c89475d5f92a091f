#!/usr/bin/env bash
# `make bench` (after `make build`): installs the bench-only dependencies (idempotent), runs the
# Node and Python benches and writes bench/RESULTS.md (docs/conventions.md § Benchmarks). Benches never fail on
# speed; they fail (non-zero, RESULTS.md left as it was) when statecore gives a wrong result.
#   bash bench/run.sh [--quick]     (--quick: few samples, to check that everything runs)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
log() { printf '[bench] %s\n' "$*" >&2; }
quick=()
[ "${1:-}" = "--quick" ] && quick=(--quick)

# --- what `make build` must have produced ----------------------------------------------------
if [ ! -f npm/dist/node/statecore_bg.wasm ] || [ ! -f npm/dist/web/statecore_bg.wasm ]; then
  echo "bench: npm/dist is missing: run 'make build' (or scripts/build-wasm.sh) first" >&2
  exit 1
fi
if ! .venv/bin/python -c 'import statecore' 2>/dev/null; then
  echo "bench: statecore is not installed in .venv: run 'make build' (or scripts/build-python.sh) first" >&2
  exit 1
fi

# --- bench-only dependencies -----------------------------------------------------------------
stamp=$(sha256sum bench/package-lock.json | cut -c1-64)
if [ "$(cat bench/node_modules/.bench-stamp 2>/dev/null || true)" != "$stamp" ]; then
  log "npm ci (bench/package-lock.json)"
  (cd bench && npm ci --no-audit --no-fund --loglevel=error)
  echo "$stamp" > bench/node_modules/.bench-stamp
fi
log "pip install -r bench/requirements.txt"
if ! .venv/bin/pip install --quiet --disable-pip-version-check -r bench/requirements.txt; then
  # jsonschema-rs is optional (a native wheel): without it its rows are left out.
  log "retrying without jsonschema-rs"
  grep -v '^jsonschema-rs' bench/requirements.txt > bench/.requirements-core.txt
  .venv/bin/pip install --quiet --disable-pip-version-check -r bench/.requirements-core.txt
  rm -f bench/.requirements-core.txt
fi

# --- the benches -------------------------------------------------------------------------------
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
started=$(date +%s)
log "node bench/node_bench.mjs"
node bench/node_bench.mjs "${quick[@]}" > "$work/node.md"
for section in hivemind agency specify; do
  log "node bench/node_section.mjs $section (a process of its own)"
  { echo; node bench/node_section.mjs "$section" "${quick[@]}"; } >> "$work/node.md"
done
log "node bench/hivemind_e2e.mjs (trigger file → state.json → callback, both watchers)"
node bench/hivemind_e2e.mjs "${quick[@]}" >> "$work/node.md"
log "node bench/mcp_bench.mjs (an MCP write tool over stdio, both servers, against the helper in process)"
node bench/mcp_bench.mjs "${quick[@]}" >> "$work/node.md"
log "python bench/python_bench.py"
(cd bench && "$root/.venv/bin/python" python_bench.py "${quick[@]}") > "$work/python.md"

# --- before/after: a protocol helper's update against the last build before the operation
# table (issue 9), built once into bench/.baseline/ -------------------------------------------
baseline_commit=${STATECORE_BENCH_BASELINE:-455b932}
log "baseline build of $baseline_commit (bench/baseline.sh; cached)"
baseline=$(bash bench/baseline.sh "$baseline_commit")
log "python bench/helper_compare.py"
(cd bench && "$root/.venv/bin/python" helper_compare.py "$baseline" "$baseline_commit" "${quick[@]}") > "$work/helpers.md"

# --- lock fairness under contention (docs/locking.md § Fairness) ---------------------------------
log "node bench/fairness.mjs"
node bench/fairness.mjs "${quick[@]}" > "$work/fairness.md"
log "node bench/contention.mjs (4 processes × 500 increments of one counter, Node and Python)"
node bench/contention.mjs "${quick[@]}" > "$work/contention.md"

# --- scale: time per byte from 0.1 to 8 MiB (docs/performance.md § Scale) ----------------------
log "node bench/scale.mjs"
node bench/scale.mjs "${quick[@]}" > "$work/scale.md"
log "python bench/scale.py"
"$root/.venv/bin/python" bench/scale.py "${quick[@]}" >> "$work/scale.md"

# --- hive log replay: 1,000,000 events, statecore against a fold per language (issue 12) -----------
log "node bench/hive_bench.mjs (the log is made once by bench/hive_log.py, cached in the temp dir)"
node bench/hive_bench.mjs "${quick[@]}" > "$work/hive.md"
echo >> "$work/hive.md"
log "python bench/hive_bench.py"
"$root/.venv/bin/python" bench/hive_bench.py "${quick[@]}" >> "$work/hive.md"

# --- the PostgreSQL store against a hand-written SELECT ... FOR UPDATE (issue 16; docs/store.md) --
log "python bench/store_bench.py (a throwaway PostgreSQL server, scripts/pg-server.sh)"
(cd bench && "$root/.venv/bin/python" store_bench.py "${quick[@]}") > "$work/store.md"
log "node bench/store_bench.mjs"
node bench/store_bench.mjs "${quick[@]}" >> "$work/store.md"
log "python bench/throughput.py (one file, one row, one log; docs/scale.md)"
"$root/.venv/bin/python" bench/throughput.py "${quick[@]}" >> "$work/store.md"

# --- specify: an index.md of 1,000 gaps updated (issue 13; Node's is in node_bench.mjs) ----------
log "python bench/specify_bench.py"
(cd bench && "$root/.venv/bin/python" specify_bench.py "${quick[@]}") >> "$work/python.md"

# --- the live viewer: from a file write to the page showing it, per protocol (issue 35) ---------
log "node bench/viewer_latency.mjs (statecore view + headless Chromium)"
node bench/viewer_latency.mjs "${quick[@]}" > "$work/viewer.md"

# --- peak memory of the 200 KB update -------------------------------------------------------------
log "node bench/memory.mjs"
node bench/memory.mjs > "$work/memory.md"

# --- wasm sizes ----------------------------------------------------------------------------------
{
  echo "### Size of the .wasm (npm/dist)"
  echo
  echo "| file | raw bytes | gzip -9 bytes |"
  echo "|---|---|---|"
  for f in npm/dist/node/*.wasm npm/dist/web/*.wasm npm/dist/statusline/*.wasm; do
    echo "| \`$f\` | $(wc -c < "$f") | $(gzip -9c "$f" | wc -c) |"
  done
  echo
} > "$work/sizes.md"

# --- RESULTS.md -----------------------------------------------------------------------------------
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- core bindings-wasm bindings-python npm/lib python/statecore 2>/dev/null \
  || commit="$commit + uncommitted changes"
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
pyver=$(.venv/bin/python -c 'import platform; print(platform.python_version())')
{
  echo "# statecore benchmarks"
  echo
  echo "Generated by \`make bench\` (\`bash bench/run.sh${quick:+ --quick}\`); do not edit by hand."
  echo
  echo "| | |"
  echo "|---|---|"
  echo "| date | $(date -u '+%Y-%m-%d %H:%M UTC') |"
  echo "| machine | $(nproc) CPUs (\`nproc\`), ${cpu:-unknown CPU}, $(uname -sm) |"
  echo "| node | $(node --version) |"
  echo "| python | $pyver |"
  echo "| statecore | $commit; wasm from npm/dist, Python wheel installed in .venv |"
  echo "| run time | $(( $(date +%s) - started )) s |"
  echo
  echo "Machines here are noisy: the same measurement moves 1.3–2.4× between samples and runs."
  echo "Only ratios within one run are meaningful; each row is the median of interleaved samples"
  echo "(the range column shows the spread). A ratio statecore/alternative below 1 means statecore"
  echo "is faster. Each comparison first checks, outside the timed loops, that statecore's output"
  echo "equals the alternative's as JSON values (and that the JSON Schema / pydantic stand-ins"
  echo "accept and reject the same documents as statecore's rules)."
  echo
  echo "## Key ratios"
  echo
  grep -h '^Key: ' "$work/node.md" "$work/python.md" "$work/helpers.md" "$work/scale.md" "$work/memory.md" "$work/hive.md" "$work/store.md" "$work/viewer.md" "$work/contention.md" | sed 's/^Key: /- /'
  echo
  echo "## Node"
  echo
  cat "$work/node.md"
  echo
  echo "## Python"
  echo
  cat "$work/python.md"
  echo
  echo "## Before and after the operation table"
  echo
  echo "The same protocol helper on this tree and on \`$baseline_commit\` (the last commit before"
  echo "one crossing per update), both built by this run's toolchain (\`bench/baseline.sh\`)."
  echo
  cat "$work/helpers.md"
  echo
  echo "## Lock fairness"
  echo
  echo "A writer in a tight loop re-takes the lock at once; a waiter in another process takes it"
  echo "again and again (\`bench/fairness.mjs\`). Before waiters claimed the next turn"
  echo "(\`<file>.lock.next\`, issue 10) the longest wait was 2.5–2.8 s in both languages."
  echo
  cat "$work/fairness.md"
  echo
  echo "## Lock contention"
  echo
  echo "Four processes increment one counter file as fast as they can (\`bench/contention.mjs\`):"
  echo "statecore with fairness on against the usual lock of each language, with the longest single"
  echo "increment (its wait included) beside the time. Node's table is given twice: processes warmed up"
  echo "by 20 increments (a process's first second, while V8 still compiles the hot code) and by 1,500"
  echo "(a long-running writer; docs/performance.md § The contended rows' first second)."
  echo
  cat "$work/contention.md"
  echo
  echo "## Scale"
  echo
  echo "Time per byte of each call from 0.1 to 8 MiB (\`bench/scale.mjs\`, \`bench/scale.py\`): each"
  echo "cell is the time per byte at that size over the time per byte at the smallest size (near 1:"
  echo "linear), then the time over \`JSON.parse\` / \`json.loads\` of the same text."
  echo
  cat "$work/scale.md"
  echo
  echo "## Hive log replay"
  echo
  echo "A hive session's EVENTS.jsonl folded into its STATE.json (docs/hive.md § Recovery; issue 12's"
  echo "target: at least 4× the faster fold's events per second, ratio ≤ 0.25, with a peak memory no"
  echo "higher than theirs). The folds are bench/hive_reference.mjs and bench/hive_reference.py."
  echo
  cat "$work/hive.md"
  echo
  echo "## PostgreSQL store"
  echo
  cat "$work/store.md"
  echo
  echo "## Live viewer"
  echo
  cat "$work/viewer.md"
  echo
  echo "## Peak memory"
  echo
  cat "$work/memory.md"
  echo
  echo "## Package size"
  echo
  cat "$work/sizes.md"
} > "$work/RESULTS.md"
mv "$work/RESULTS.md" bench/RESULTS.md
log "wrote bench/RESULTS.md ($(( $(date +%s) - started )) s)"
