"""Checks the size of the browser's wasm modules as users download them: each
``statecore_bg.wasm`` under ``package/dist/web*/`` of the packed npm tarball (``npm pack``),
raw and gzipped (level 9), against its limits (docs/performance.md § wasm size). A module over
a limit, or a protocol without its module, fails the build (scripts/test-packaging.sh runs this
on the tarball it packs).

The figures live here and nowhere else:

- ``TARGET``: what a browser module is meant to weigh (350 KB raw, 130 KB gzipped, KB = 1,000
  bytes), printed beside each measurement with the distance left;
- ``LIMITS``: what each module may weigh, by its directory: ``web`` the combined module (every
  protocol, for a page showing several), ``web-<protocol>`` each protocol's (the generic base
  plus one protocol). Each figure of a limit is the target's once the module is within it;
  until then the module's present size with a margin of 2 %, so that any growth fails the
  build.

The protocols are read from the tarball's ``lib/generated/generated.mjs`` (``PROTOCOLS``, generated from
the core's table), so that a protocol added to the core needs its module and its limit here.

Usage: python scripts/check_web_size.py TARBALL
Exit 1 naming each limit exceeded and each module missing.
"""

from __future__ import annotations

import gzip
import re
import sys
import tarfile
from pathlib import Path

#: The combined module inside the tarball.
MEMBER = "package/dist/web/statecore_bg.wasm"
#: Each protocol's module inside the tarball.
PROTOCOL_MEMBER = "package/dist/web-{}/statecore_bg.wasm"
#: The generated table that names the protocols.
TABLE = "package/lib/generated/generated.mjs"
#: What a browser module is meant to weigh: (raw bytes, gzipped bytes).
TARGET = (350_000, 130_000)
#: The most each module may weigh, by its directory under dist/: (raw bytes, gzipped bytes).
LIMITS = {
    "web": (497_000, 214_500),
    "web-fctry": (350_000, 130_000),
    "web-hivemind": (350_000, 130_000),
    "web-agency": (350_000, 130_000),
    "web-hive": (350_000, 130_000),
    "web-specify": (350_000, 130_000),
}


def sizes(data: bytes) -> tuple[int, int]:
    """The raw and gzipped (level 9, as the docs' size claims measure) sizes of ``data``."""
    return len(data), len(gzip.compress(data, compresslevel=9, mtime=0))


def protocols_of(table: str) -> list[str]:
    """The protocols ``lib/generated/generated.mjs`` names (``export const PROTOCOLS = ...``)."""
    found = re.search(r"export const PROTOCOLS = Object\.freeze\(\[(.*?)\]\)", table)
    if found is None:
        raise KeyError(f"{TABLE}: no PROTOCOLS")
    return re.findall(r'"([a-z]+)"', found.group(1))


def modules_of(tarball: Path) -> dict[str, tuple[bytes, tuple[int, int]]]:
    """Each browser module in the npm tarball ``tarball``: its member name, bytes and limits
    (KeyError: the table, a module or a module's limit is not there)."""

    def read(archive: tarfile.TarFile, member: str) -> bytes:
        file = archive.extractfile(member)
        if file is None:
            raise KeyError(member)
        return file.read()

    with tarfile.open(tarball, "r:gz") as archive:
        protocols = protocols_of(read(archive, TABLE).decode())
        found = {}
        for name in ["web", *(f"web-{protocol}" for protocol in protocols)]:
            if name not in LIMITS:
                raise KeyError(
                    f"no limit for dist/{name} in scripts/check_web_size.py LIMITS"
                )
            member = MEMBER if name == "web" else PROTOCOL_MEMBER.format(name[4:])
            found[member] = (read(archive, member), LIMITS[name])
        return found


def problems(
    raw: int, gzipped: int, limits: tuple[int, int], member: str = MEMBER
) -> list[str]:
    """Each limit the module's sizes exceed, as a sentence (none: within them)."""
    found = []
    for what, size, limit in (("raw", raw, limits[0]), ("gzipped", gzipped, limits[1])):
        if size > limit:
            found.append(
                f"{member} is {size:,} bytes {what}, over its limit of {limit:,} "
                f"(docs/performance.md § wasm size): find what grew it"
            )
    return found


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python scripts/check_web_size.py TARBALL", file=sys.stderr)
        return 2
    try:
        modules = modules_of(Path(argv[1]))
    except (OSError, KeyError, tarfile.TarError) as error:
        print(
            f"web size: cannot read the browser's modules from {argv[1]}: {error}",
            file=sys.stderr,
        )
        return 1
    found = []
    for member, (data, limits) in modules.items():
        raw, gzipped = sizes(data)
        print(
            f"web size: {member} is {raw:,} bytes, {gzipped:,} gzipped "
            f"(limits {limits[0]:,} / {limits[1]:,}; target {TARGET[0]:,} / {TARGET[1]:,})"
        )
        found += problems(raw, gzipped, limits, member)
    for problem in found:
        print(f"web size: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
