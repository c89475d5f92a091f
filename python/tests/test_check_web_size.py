"""The size check of the browser's wasm modules (scripts/check_web_size.py, run on the packed
npm tarball by scripts/test-packaging.sh): a module over either limit fails it, every protocol
the package's table names must have its module, and it reads the modules from where the
tarball holds them."""

from __future__ import annotations

import io
import os
import tarfile
from pathlib import Path

from repo_scripts import load_script

ws = load_script("check_web_size")

TABLE = 'export const OPS = [];\nexport const PROTOCOLS = Object.freeze(["fctry", "agency"]);\n'


def tarball(path: Path, members: dict[str, bytes]) -> Path:
    with tarfile.open(path, "w:gz") as archive:
        for member, data in members.items():
            info = tarfile.TarInfo(member)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def package(path: Path) -> Path:
    """A tarball with the table, the combined module and each protocol's, small."""
    members = {
        ws.TABLE: TABLE.encode(),
        ws.MEMBER: b"\0asm" + bytes(1000),
        ws.PROTOCOL_MEMBER.format("fctry"): b"\0asm" + bytes(100),
        ws.PROTOCOL_MEMBER.format("agency"): b"\0asm" + bytes(100),
    }
    return tarball(path, members)


def test_the_limits_are_no_looser_than_the_target_allows_and_ordered() -> None:
    # each module's limits: raw >= gzipped, never below the target (reaching it is the goal)
    assert ws.TARGET == (350_000, 130_000)
    assert "web" in ws.LIMITS
    for name, (raw, gzipped) in ws.LIMITS.items():
        assert raw >= gzipped, name
        assert raw >= ws.TARGET[0], name
        assert gzipped >= ws.TARGET[1], name


def test_a_module_over_either_limit_fails(tmp_path: Path) -> None:
    assert ws.problems(100, 50, (100, 50)) == []
    assert ws.problems(100, 50, (99, 50))
    raw = ws.problems(101, 50, (100, 50), "m.wasm")
    assert len(raw) == 1
    assert "m.wasm is 101 bytes raw" in raw[0]
    assert "limit of 100" in raw[0]
    zipped = ws.problems(100, 51, (100, 50))
    assert len(zipped) == 1
    assert "51 bytes gzipped" in zipped[0]
    # a protocol's module of random bytes (which gzip cannot shrink) over the target
    members = {
        ws.TABLE: TABLE.encode(),
        ws.MEMBER: b"\0asm",
        ws.PROTOCOL_MEMBER.format("fctry"): b"\0asm",
        ws.PROTOCOL_MEMBER.format("agency"): os.urandom(ws.LIMITS["web-agency"][0] + 1),
    }
    assert ws.main(["check_web_size.py", str(tarball(tmp_path / "big.tgz", members))]) == 1
    members[ws.PROTOCOL_MEMBER.format("agency")] = b"\0asm"
    members[ws.MEMBER] = os.urandom(ws.LIMITS["web"][0] + 1)
    assert ws.main(["check_web_size.py", str(tarball(tmp_path / "big2.tgz", members))]) == 1


def test_modules_within_the_limits_pass_and_a_missing_one_fails(tmp_path: Path) -> None:
    assert ws.sizes(b"\0asm" + bytes(1000))[0] == 1004
    assert ws.main(["check_web_size.py", str(package(tmp_path / "ok.tgz"))]) == 0
    assert ws.protocols_of(TABLE) == ["fctry", "agency"]
    # a protocol the table names without a limit here fails too
    unknown = TABLE.replace('"agency"', '"agency", "newproto"')
    members = {
        ws.TABLE: unknown.encode(),
        ws.MEMBER: b"\0asm",
        ws.PROTOCOL_MEMBER.format("fctry"): b"\0asm",
        ws.PROTOCOL_MEMBER.format("agency"): b"\0asm",
        ws.PROTOCOL_MEMBER.format("newproto"): b"\0asm",
    }
    path = tarball(tmp_path / "unknown.tgz", members)
    assert ws.main(["check_web_size.py", str(path)]) == 1
    for missing in (ws.MEMBER, ws.PROTOCOL_MEMBER.format("agency"), ws.TABLE):
        members = {
            ws.TABLE: TABLE.encode(),
            ws.MEMBER: b"\0asm",
            ws.PROTOCOL_MEMBER.format("fctry"): b"\0asm",
            ws.PROTOCOL_MEMBER.format("agency"): b"\0asm",
        }
        del members[missing]
        path = tarball(tmp_path / "missing.tgz", members)
        assert ws.main(["check_web_size.py", str(path)]) == 1, missing
