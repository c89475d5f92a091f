#!/usr/bin/env bash
# `make wheels`: the abi3 wheel for every Linux the package supports, cross-built with maturin
# and zig (the `ziglang` wheel from PyPI) into dist/wheels-all, each checked with
# `auditwheel show`:
#   x86_64  glibc 2.17+ (manylinux2014)   x86_64  musl 1.2+ (musllinux_1_2, Alpine 3.13+)
#   aarch64 glibc 2.17+ (manylinux2014)   aarch64 musl 1.2+ (musllinux_1_2)
# The glibc x86_64 wheel is the one `make build` installs and `make test` tests; this machine
# has no musl Python and no aarch64, so the other three are built and checked, not run. A musl
# module's libc is renamed to the name musl systems give it (scripts/musl_soname.py).
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

# auditwheel finds a musl module's libc among these: Debian's musl package for each
# architecture (the libc Alpine ships, under the name Alpine gives it), fetched once.
musl_version=1.2.3-1
declare -A musl_sha=(
  [amd64]=4fc1e3d9b579f5c682ca99a4d45aec08d72a2e6b82b4c2e1bbcb7095466ae96d
  [arm64]=6ccf2bf0f479b00411cb8e1eeb048e648718170db5d63bbb4bf4a89350b81468
)
musl_libc() { # $1: Debian arch, $2: musl arch; prints a directory holding libc.musl-$2.so.1
  local dir=target/musl/$1 deb=target/musl/musl_${musl_version}_$1.deb
  if [ ! -f "$dir/libc.musl-$2.so.1" ]; then
    mkdir -p "$dir"
    curl -fsSL -o "$deb" "http://deb.debian.org/debian/pool/main/m/musl/musl_${musl_version}_$1.deb"
    echo "${musl_sha[$1]}  $deb" | sha256sum -c --quiet -
    dpkg-deb -x "$deb" "$dir/root"
    cp "$dir/root/lib/$2-linux-musl/libc.so" "$dir/libc.musl-$2.so.1"
  fi
  echo "$PWD/$dir"
}
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
  ldpaths=()
  case "$target" in
    *-musl)
      arch=${target%%-*}
      .venv/bin/python scripts/musl_soname.py "$wheel" "$arch"
      deb_arch=$([ "$arch" = x86_64 ] && echo amd64 || echo arm64)
      ldpaths=(--ldpaths "$(musl_libc "$deb_arch" "$arch")")
      ;;
  esac
  shown=$(.venv/bin/auditwheel show "${ldpaths[@]}" "$wheel" 2>&1)
  flat=$(tr -s '\n ' '  ' <<<"$shown")
  grep -qF "consistent with the following platform tag: \"$tag\"" <<<"$flat" || {
    echo "build-wheels: auditwheel does not confirm $tag for $wheel:" >&2
    echo "$shown" >&2
    exit 1
  }
  log "ok: $(basename "$wheel") ($tag confirmed by auditwheel)"
done
# The notices of the host build again (the wheel make build installs).
python3 scripts/third_party.py rust statecore-python "$(rustc -vV | sed -n 's/^host: //p')" "$notices"
ls -l "$out"
