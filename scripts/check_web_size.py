"""Checks the size of the browser's wasm module as users download it: the file
``package/dist/web/statecore_bg.wasm`` of the packed npm tarball (``npm pack``), raw and
gzipped (level 9), against its limits (docs/performance.md § wasm size). A module over a
limit fails the build (scripts/test-packaging.sh runs this on the tarball it packs).

Two pairs of figures live here and nowhere else:

- ``LIMITS``: what the module may weigh; over either number, the check fails;
- ``TARGET``: the size the browser's module is meant to reach (350 KB raw, 130 KB gzipped,
  KB = 1,000 bytes), printed beside the measurement with the distance left. ``LIMITS`` equals
  ``TARGET`` once the module is within it; until then it is the module's present size with
  a margin of 2 %, so that any growth fails the build while the target is not yet met.

Usage: python scripts/check_web_size.py TARBALL
Exit 1 naming each limit exceeded.
"""

from __future__ import annotations

import gzip
import sys
import tarfile
from pathlib import Path

#: The browser's module inside the tarball.
MEMBER = "package/dist/web/statecore_bg.wasm"
#: The size the browser's module is meant to reach: (raw bytes, gzipped bytes).
TARGET = (350_000, 130_000)
#: The most the browser's module may weigh: (raw bytes, gzipped bytes).
LIMITS = (577_000, 253_000)


def sizes(data: bytes) -> tuple[int, int]:
    """The raw and gzipped (level 9, as the docs' size claims measure) sizes of ``data``."""
    return len(data), len(gzip.compress(data, compresslevel=9, mtime=0))


def module_of(tarball: Path) -> bytes:
    """The browser's module's bytes in the npm tarball ``tarball`` (KeyError: not there)."""
    with tarfile.open(tarball, "r:gz") as archive:
        member = archive.extractfile(MEMBER)
        if member is None:
            raise KeyError(MEMBER)
        return member.read()


def problems(raw: int, gzipped: int, limits: tuple[int, int] = LIMITS) -> list[str]:
    """Each limit the module's sizes exceed, as a sentence (none: within them)."""
    found = []
    for what, size, limit in (("raw", raw, limits[0]), ("gzipped", gzipped, limits[1])):
        if size > limit:
            found.append(
                f"the browser's module is {size:,} bytes {what}, over its limit of {limit:,} "
                f"(docs/performance.md § wasm size): find what grew it, or split it"
            )
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python scripts/check_web_size.py TARBALL", file=sys.stderr)
        return 2
    try:
        raw, gzipped = sizes(module_of(Path(argv[1])))
    except (OSError, KeyError, tarfile.TarError) as error:
        print(
            f"web size: cannot read {MEMBER} from {argv[1]}: {error}", file=sys.stderr
        )
        return 1
    print(
        f"web size: {MEMBER} is {raw:,} bytes, {gzipped:,} gzipped "
        f"(limits {LIMITS[0]:,} / {LIMITS[1]:,}; target {TARGET[0]:,} / {TARGET[1]:,})"
    )
    found = problems(raw, gzipped)
    for problem in found:
        print(f"web size: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
