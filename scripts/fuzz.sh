#!/usr/bin/env bash
# Coverage-guided fuzzing of the statecore core with libFuzzer, on stable Rust (docs/fuzzing.md).
#
#   scripts/fuzz.sh build               build the libFuzzer binaries (fuzz/target, own cache)
#   scripts/fuzz.sh seeds               regenerate fuzz/seeds/<target>/ from tests/conformance
#   scripts/fuzz.sh short [SECONDS]     build, seeds, SECONDS (12) per target on a throw-away
#                                       corpus, then replay fuzz/regressions/** (make test-fuzz)
#   scripts/fuzz.sh long [SECONDS]      SECONDS (FUZZ_SECONDS, 600) per target, growing the
#                                       persistent corpus fuzz/corpus/<target>/ (make fuzz)
#   scripts/fuzz.sh replay TARGET PATH...   run inputs through a plain build (full backtrace)
#   scripts/fuzz.sh minimize TARGET FILE [NAME]  minimise a failing input into fuzz/regressions/TARGET/
#   scripts/fuzz.sh cmin [TARGET...]        shrink the persistent corpus (libFuzzer -merge)
#
# A libFuzzer run ignores the findings listed in fuzz/known-findings.txt (already recorded in
# fuzz/regressions/, whose replay still fails until they are fixed).
# Environment: FUZZ_TARGETS (space-separated, default: every fuzz/fuzz_targets/*.rs),
# FUZZ_MAX_LEN (bytes, 262144), FUZZ_TIMEOUT (s per input, 10), FUZZ_RSS_MB (2048),
# FUZZ_NO_BUILD=1 (long: fuzz the binaries already built, e.g. while the core is being edited).
# Needs only cargo and a C++ compiler (libfuzzer-sys compiles libFuzzer with it).
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
FUZZ=$ROOT/fuzz
export CARGO_TARGET_DIR=$FUZZ/target CARGO_TERM_COLOR=never
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
BIN_DIR=$CARGO_TARGET_DIR/$TRIPLE/release
MAX_LEN=${FUZZ_MAX_LEN:-262144}
TIMEOUT=${FUZZ_TIMEOUT:-10}
RSS_MB=${FUZZ_RSS_MB:-2048}
ALL_TARGETS=$(cd "$FUZZ/fuzz_targets" && ls -- *.rs | sed 's/\.rs$//' | xargs)
TARGETS=$(echo ${FUZZ_TARGETS:-$ALL_TARGETS})
# What cargo-fuzz passes for `--sanitizer none`: sanitizer-coverage instrumentation for
# libFuzzer's feedback, the `fuzzing` cfg, debug assertions and overflow checks. `--target`
# keeps these flags off build scripts and proc-macros (they do not link libFuzzer).
FUZZ_RUSTFLAGS="--cfg fuzzing -Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares -Cdebug-assertions -Coverflow-checks"

log() { printf '[fuzz] %s\n' "$*"; }
die() { printf '[fuzz] error: %s\n' "$*" >&2; exit 2; }

cmd_build() {
  local bins=() t start=$SECONDS
  for t in $ALL_TARGETS; do bins+=(--bin "$t"); done
  log "building ${ALL_TARGETS} (stable $(rustc --version | cut -d' ' -f2), $TRIPLE)"
  RUSTFLAGS="$FUZZ_RUSTFLAGS" cargo build -q --manifest-path "$FUZZ/Cargo.toml" --release \
    --features libfuzzer --target "$TRIPLE" "${bins[@]}" || die "the fuzz build failed"
  log "built in $((SECONDS - start)) s"
}

cmd_seeds() {
  cargo run -q --manifest-path "$FUZZ/Cargo.toml" --bin seeds -- "$FUZZ/seeds" || die "seeds failed"
}

# One libFuzzer run: target, seconds, writable corpus dir. Prints a summary line; on a finding
# prints the target, the input file and the log's panic/backtrace, and returns 1.
run_target() {
  local t=$1 secs=$2 corpus=$3 bin=$BIN_DIR/$1
  [ -x "$bin" ] || die "no binary $bin (scripts/fuzz.sh build)"
  local logs=$FUZZ/logs artifacts=$FUZZ/artifacts/$t
  mkdir -p "$logs" "$artifacts" "$corpus"
  local logfile=$logs/$t.log dirs=("$corpus" "$FUZZ/seeds/$t") before after
  [ -d "$FUZZ/regressions/$t" ] && dirs+=("$FUZZ/regressions/$t")
  before=$(ls "$corpus" | wc -l)
  local start=$SECONDS rc=0
  FUZZ_KNOWN_FILE=$FUZZ/known-findings.txt RUST_BACKTRACE=1 "$bin" -max_total_time="$secs" -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" \
    -max_len="$MAX_LEN" -dict="$FUZZ/seeds/$t.dict" -artifact_prefix="$artifacts/" \
    -print_final_stats=1 "${dirs[@]}" >"$logfile" 2>&1 || rc=$?
  local took=$((SECONDS - start))
  local execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logfile" | tail -1)
  after=$(ls "$corpus" | wc -l)
  local cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$logfile" | tail -1)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$t" "$took" "${execs:-?}" \
    "$after" "$rc" "$cov" >>"$logs/summary.tsv"
  if [ "$rc" = 0 ]; then
    printf '[fuzz] %-8s ok   %4ss %12s execs  corpus %5s (+%s)  %s\n' "$t" "$took" \
      "${execs:-?}" "$after" "$((after - before))" "$cov"
    return 0
  fi
  local input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$logfile" | tail -1)
  local what=crash
  case "$(basename "${input:-x}")" in timeout-*) what=timeout ;; oom-*) what=out-of-memory ;; esac
  echo "================================================================================"
  echo "FUZZ FAILURE ($what) in target '$t'"
  echo "  input: ${input:-<none written; see the log>}"
  echo "  log:   $logfile"
  echo "--------------------------------------------------------------------------------"
  grep -E -A 40 "panicked at|==ERROR|ALARM|out-of-memory" "$logfile" \
    | grep -v -E '^(MS:|base unit:|0x)' | head -60
  echo "--------------------------------------------------------------------------------"
  echo "  reproduce: scripts/fuzz.sh replay $t ${input:-FILE}"
  echo "  minimise:  scripts/fuzz.sh minimize $t ${input:-FILE}"
  echo "================================================================================"
  return 1
}

cmd_runs() { # mode seconds
  local mode=$1 secs=$2 failed=() t corpus
  [ -d "$FUZZ/seeds" ] || cmd_seeds
  if [ "$mode" = short ]; then SHORT_TMP=$(mktemp -d); trap 'rm -rf "$SHORT_TMP"' EXIT; fi
  log "$mode run: ${secs}s per target: $TARGETS (max_len $MAX_LEN, timeout ${TIMEOUT}s, rss ${RSS_MB} MB)"
  for t in $TARGETS; do
    [[ " $ALL_TARGETS " == *" $t "* ]] || die "unknown target $t (targets: $ALL_TARGETS)"
    if [ "$mode" = short ]; then corpus=$SHORT_TMP/$t; else corpus=$FUZZ/corpus/$t; fi
    run_target "$t" "$secs" "$corpus" || failed+=("$t")
  done
  if [ "${#failed[@]}" -gt 0 ]; then
    log "FAILED targets: ${failed[*]} (inputs under fuzz/artifacts/<target>/)"
    return 1
  fi
}

cmd_test() {
  mkdir -p "$FUZZ/logs"
  cargo fmt --manifest-path "$FUZZ/Cargo.toml" -- --check || die "cargo fmt (fuzz crate)"
  cargo clippy -q --manifest-path "$FUZZ/Cargo.toml" --all-targets -- -D warnings \
    || die "clippy (fuzz crate)"
  # Every committed regression input and every conformance seed, without libFuzzer.
  log "replaying fuzz/regressions/** and the conformance seeds (cargo test)"
  RUST_BACKTRACE=0 cargo test -q --manifest-path "$FUZZ/Cargo.toml" >"$FUZZ/logs/replay.log" 2>&1 && return 0
  grep -E -A 30 'regression input\(s\) fail|seed\(s\) fail|^error' "$FUZZ/logs/replay.log" | head -40
  log "the regression replay FAILED (fuzz/logs/replay.log; scripts/fuzz.sh replay TARGET FILE)"
  return 1
}

cmd_minimize() {
  local t=${1:?target} file=${2:?file} name=${3:-} bin=$BIN_DIR/$1
  [ -x "$bin" ] || cmd_build
  local out=$FUZZ/regressions/$t
  mkdir -p "$out" "$FUZZ/logs"
  local dest="$out/${name:-$(basename "$file" | sed 's/^\(crash\|timeout\|oom\|slow-unit\)-/\1-min-/')}"
  log "minimising $file for target $t (60 s)"
  "$bin" -minimize_crash=1 -max_total_time=60 -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" \
    -exact_artifact_path="$dest" "$file" >"$FUZZ/logs/minimize-$t.log" 2>&1
  [ -f "$dest" ] || cp "$file" "$dest"
  log "saved $dest ($(wc -c <"$dest") bytes; was $(wc -c <"$file")); it is replayed by make test-fuzz"
}

cmd_cmin() {
  local t
  for t in ${*:-$TARGETS}; do
    local corpus=$FUZZ/corpus/$t new=$FUZZ/corpus/$t.min
    [ -d "$corpus" ] || continue
    rm -rf "$new"; mkdir -p "$new"
    "$BIN_DIR/$t" -merge=1 -timeout="$TIMEOUT" -rss_limit_mb="$RSS_MB" -max_len="$MAX_LEN" \
      "$new" "$corpus" >"$FUZZ/logs/cmin-$t.log" 2>&1 || die "merge of $t failed"
    log "$t: corpus $(ls "$corpus" | wc -l) -> $(ls "$new" | wc -l) inputs"
    rm -rf "$corpus"; mv "$new" "$corpus"
  done
}

case "${1:-}" in
  build) cmd_build ;;
  seeds) cmd_seeds ;;
  short)
    cmd_build && cmd_seeds
    start=$SECONDS status=0
    cmd_runs short "${2:-12}" || status=1
    log "short run done in $((SECONDS - start)) s"
    cmd_test || status=1
    exit $status ;;
  long)
    [ -n "${FUZZ_NO_BUILD:-}" ] || cmd_build
    cmd_seeds && cmd_runs long "${2:-${FUZZ_SECONDS:-600}}" ;;
  test) cmd_test ;;
  replay) shift; RUST_BACKTRACE=${RUST_BACKTRACE:-1} cargo run -q --manifest-path "$FUZZ/Cargo.toml" --bin replay -- "$@" ;;
  minimize) shift; cmd_minimize "$@" ;;
  cmin) shift; cmd_cmin "$@" ;;
  *) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
