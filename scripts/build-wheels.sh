#!/usr/bin/env bash
# `make wheels`: the abi3 wheel for every platform the package supports, cross-built here with
# maturin and zig (the `ziglang` wheel from PyPI) into dist/wheels-all, each checked:
#   Linux x86_64  glibc 2.17+ (manylinux2014)   x86_64  musl 1.2+ (musllinux_1_2, Alpine 3.13+)
#   Linux aarch64 glibc 2.17+ (manylinux2014)   aarch64 musl 1.2+ (musllinux_1_2)
#     checked with `auditwheel show`;
#   macOS x86_64 10.12+ (macosx_10_12_x86_64)   macOS arm64 11.0+ (macosx_11_0_arm64)
#   Windows x86_64 CPython 3.10+ (cp310-abi3-win_amd64; x86_64-pc-windows-gnu, linked by
#     MinGW-w64's gcc from apt: needs no MSVC runtime)
#     checked by scripts/check_wheel.py: the tag, the binary's CPU and minimum OS version,
#     the exported PyInit__statecore, only system libraries (and python3.dll) loaded.
# The glibc x86_64 wheel is the one `make build` installs and `make test` tests; this machine
# has no musl Python, no aarch64, no macOS and no Windows, so the others are built and checked,
# not run (docs/architecture.md § Packages and wheels). A musl module's libc is renamed to the
# name musl systems give it (scripts/musl_soname.py). `make test` does not run this script:
# each wheel is a full release build (minutes each on a loaded 2-core machine); each wheel's
# time is logged. STATECORE_WHEELS="TRIPLE ..." builds only those targets.
set -euo pipefail
cd "$(dirname "$0")/.."
log() { printf '[build-wheels] %s\n' "$*"; }

[ -x .venv/bin/maturin ] || bash scripts/build-python.sh
export CARGO_TARGET_DIR="${STATECORE_MATURIN_TARGET:-$PWD/target/maturin}"
out=dist/wheels-all
rm -rf "$out"
mkdir -p "$out"

# target triple, maturin --compatibility (- : none), the wheel's tag that auditwheel (Linux,
# its platform part) or scripts/check_wheel.py (macOS, Windows) must confirm
builds=(
  "x86_64-unknown-linux-gnu manylinux2014 cp39-abi3-manylinux_2_17_x86_64"
  "x86_64-unknown-linux-musl musllinux_1_2 cp39-abi3-musllinux_1_2_x86_64"
  "aarch64-unknown-linux-gnu manylinux2014 cp39-abi3-manylinux_2_17_aarch64"
  "aarch64-unknown-linux-musl musllinux_1_2 cp39-abi3-musllinux_1_2_aarch64"
  "x86_64-apple-darwin - cp39-abi3-macosx_10_12_x86_64"
  "aarch64-apple-darwin - cp39-abi3-macosx_11_0_arm64"
  "x86_64-pc-windows-gnu - cp310-abi3-win_amd64"
)
only=${STATECORE_WHEELS:-}  # e.g. STATECORE_WHEELS="x86_64-apple-darwin": those targets only
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
  if [ -n "$only" ] && ! grep -qw -- "$target" <<<"$only"; then continue; fi
  started=$(date +%s)
  if ! grep -qx "$target" <<<"$installed"; then
    log "rustup target add $target"
    rustup target add "$target" >/dev/null
  fi
  python3 scripts/third_party.py rust statecore-python "$target" "$notices"
  args=(--zig)
  [ "$compat" = - ] || args+=(--compatibility "$compat")
  case "$target" in
    # Windows: linked by MinGW-w64's gcc (Debian's gcc-mingw-w64-x86-64; maturin gives zig's
    # linker a wrong export list for a module inside a package), for CPython 3.10+ (the
    # crate's abi3-py310 feature): the module calls PyUnicode_AsUTF8AndSize, which Windows'
    # python3.dll exports only from 3.10 (Linux and macOS take it from the interpreter
    # itself, so they keep 3.9).
    *-windows-gnu)
      if ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
        log "installing gcc-mingw-w64-x86-64 (apt): the Windows linker"
        sudo=$([ "$(id -u)" -eq 0 ] || echo sudo)
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq gcc-mingw-w64-x86-64 >/dev/null
      fi
      args=(--no-default-features --features abi3-py310)
      ;;
  esac
  log "maturin build --target $target ${args[*]}"
  (cd python && PATH="$PWD/../.venv/bin:$PATH" ../.venv/bin/maturin build --profile python-release \
    --target "$target" "${args[@]}" --quiet -o "../$out")
  wheel=$(ls "$out"/statecore-*-"${tag%%-abi3-*}"-abi3-*"${tag#*-abi3-}"*.whl 2>/dev/null | head -1 || true)
  [ -n "$wheel" ] || { echo "build-wheels: no $tag wheel for $target in $out" >&2; exit 1; }
  case "$target" in
    *-apple-darwin | *-windows-*)
      .venv/bin/python scripts/check_wheel.py "$wheel" "$tag"
      log "ok: $(basename "$wheel") ($tag confirmed by check_wheel.py, $(($(date +%s) - started)) s)"
      continue
      ;;
  esac
  tag=${tag#cp39-abi3-}
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
  log "ok: $(basename "$wheel") ($tag confirmed by auditwheel, $(($(date +%s) - started)) s)"
done
# The notices of the host build again (the wheel make build installs).
python3 scripts/third_party.py rust statecore-python "$(rustc -vV | sed -n 's/^host: //p')" "$notices"
# No placeholder address in any wheel's metadata (project-address.toml).
.venv/bin/python scripts/project_address.py artifacts "$out"/*.whl
ls -l "$out"
