#!/usr/bin/env bash
# `make wheels`: the abi3 wheel for every Linux the package supports, cross-built with maturin
# and zig (the `ziglang` wheel from PyPI) into dist/wheels-all, each checked with
# `auditwheel show`:
#   x86_64  glibc 2.17+ (manylinux2014)   x86_64  musl 1.2+ (musllinux_1_2, Alpine 3.13+)
#   aarch64 glibc 2.17+ (manylinux2014)   aarch64 musl 1.2+ (musllinux_1_2)
# The glibc x86_64 wheel is the one `make build` installs and `make test` tests; this machine
# has no musl Python and no aarch64, so the other three are built and checked, not run.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '[build-wheels] %s\n' "$*"; }

[ -x .venv/bin/maturin ] || bash scripts/build-python.sh
export CARGO_TARGET_DIR="${STATECORE_MATURIN_TARGET:-$PWD/target/maturin}"
out=dist/wheels-all
rm -rf "$out"
mkdir -p "$out"

# target triple, maturin --compatibility, the tag auditwheel must confirm
builds=(
  "x86_64-unknown-linux-gnu manylinux2014 manylinux_2_17_x86_64"
  "x86_64-unknown-linux-musl musllinux_1_2 musllinux_1_2_x86_64"
  "aarch64-unknown-linux-gnu manylinux2014 manylinux_2_17_aarch64"
  "aarch64-unknown-linux-musl musllinux_1_2 musllinux_1_2_aarch64"
)
installed=$(rustup target list --installed)
notices=python/statecore/THIRD-PARTY-NOTICES.txt
for build in "${builds[@]}"; do
  read -r target compat tag <<<"$build"
  if ! grep -qx "$target" <<<"$installed"; then
    log "rustup target add $target"
    rustup target add "$target" >/dev/null
  fi
  python3 scripts/third_party.py rust statecore-python "$target" "$notices"
  log "maturin build --target $target --compatibility $compat"
  (cd python && PATH="$PWD/../.venv/bin:$PATH" ../.venv/bin/maturin build --profile python-release \
    --zig --target "$target" --compatibility "$compat" --quiet -o "../$out")
  wheel=$(ls "$out"/statecore-*-cp39-abi3-*"$tag"*.whl 2>/dev/null | head -1 || true)
  [ -n "$wheel" ] || { echo "build-wheels: no $compat wheel for $target in $out" >&2; exit 1; }
  shown=$(.venv/bin/auditwheel show "$wheel")
  { grep -q 'consistent with the following platform tag' <<<"$shown" && grep -q "\"$tag\"" <<<"$shown"; } || {
    echo "build-wheels: auditwheel does not confirm $tag for $wheel:" >&2
    echo "$shown" >&2
    exit 1
  }
  log "ok: $(basename "$wheel") ($tag confirmed by auditwheel)"
done
# The notices of the host build again (the wheel make build installs).
python3 scripts/third_party.py rust statecore-python "$(rustc -vV | sed -n 's/^host: //p')" "$notices"
ls -l "$out"
