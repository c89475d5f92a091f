"""The size check of the browser's wasm module (scripts/check_web_size.py, run on the packed
npm tarball by scripts/test-packaging.sh): a module over either limit fails it, and it reads
the module from where the tarball holds it."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

from repo_scripts import load_script

ws = load_script("check_web_size")


def tarball(path: Path, member: str, data: bytes) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        info = tarfile.TarInfo(member)
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return path


def test_the_limits_are_no_looser_than_the_target_allows_and_ordered() -> None:
    # the limits are raw >= gzipped, and never below the target (reaching it is the goal)
    assert ws.LIMITS[0] >= ws.LIMITS[1]
    assert ws.LIMITS[0] >= ws.TARGET[0]
    assert ws.LIMITS[1] >= ws.TARGET[1]
    assert ws.TARGET == (350_000, 130_000)


def test_a_module_over_either_limit_fails(tmp_path: Path) -> None:
    assert ws.problems(100, 50, (100, 50)) == []
    raw = ws.problems(101, 50, (100, 50))
    assert len(raw) == 1
    assert "101 bytes raw" in raw[0]
    assert "limit of 100" in raw[0]
    zipped = ws.problems(100, 51, (100, 50))
    assert len(zipped) == 1
    assert "51 bytes gzipped" in zipped[0]
    # a module of random bytes (which gzip cannot shrink) over the raw limit, in a tarball
    big = tarball(tmp_path / "big.tgz", ws.MEMBER, os.urandom(ws.LIMITS[0] + 1))
    assert ws.main(["check_web_size.py", str(big)]) == 1


def test_a_module_within_the_limits_passes_and_a_missing_one_fails(tmp_path: Path) -> None:
    small = tarball(tmp_path / "small.tgz", ws.MEMBER, b"\0asm" + bytes(1000))
    assert ws.sizes(b"\0asm" + bytes(1000))[0] == 1004
    assert ws.main(["check_web_size.py", str(small)]) == 0
    other = tarball(tmp_path / "other.tgz", "package/dist/node/statecore_bg.wasm", b"\0asm")
    assert ws.main(["check_web_size.py", str(other)]) == 1
