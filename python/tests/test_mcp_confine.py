"""``statecore mcp``'s confinement without a window (docs/mcp.md § Confined to DIR), in
process: a link swapped in between the server's check of a path and its use (the fault seam
``_mcp.confine.seams.after_check``) never leads a read or a write out of DIR. A directory on the
way swapped for a link to another directory: the write lands in the directory that was
checked, the read reads it; the file itself swapped for a link: a read is refused, a write
replaces the link. The Node twin is npm/test/mcp_confine.test.mjs."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from statecore._mcp import confine as _mcp_confine
from statecore._mcp import server as _mcp
from statecore.errors import StatecoreError

NOW = "2026-11-24T10:00:00Z"
pytestmark = pytest.mark.skipif(
    _mcp_confine.FD_DIR is None, reason="no /proc/self/fd: names are checked with lstat only"
)


@pytest.fixture
def dirs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    root = tmp_path_factory.mktemp("root")
    outside = tmp_path_factory.mktemp("outside")
    (root / "sub").mkdir()
    (root / "sub" / "state.json").write_text('{"mine":1}')
    (outside / "state.json").write_text('{"secret":1}')
    yield root, outside
    _mcp_confine.seams.after_check = None


def _namespace() -> str:
    """This pid namespace's number, as the names hold it (the digits of its link)."""
    try:
        return "".join(c for c in os.readlink("/proc/self/ns/pid") if c.isdigit()) or "0"
    except OSError:
        return "0"


_NS = _namespace()


def _farm_prefix(pid: int) -> str:
    """The start of the name of process ``pid``'s private directories."""
    return f"statecore-mcp-call-{_NS}-{pid}-"


def swap_in(link: Path, target: Path) -> None:
    """The seam: once checked, ``link`` is moved aside and a link to ``target`` put there."""

    def swap(_names: Sequence[str]) -> None:
        _mcp_confine.seams.after_check = None
        link.rename(link.with_name(link.name + "-moved"))
        link.symlink_to(target)

    _mcp_confine.seams.after_check = swap


def call(root: Path, name: str, args: dict[str, Any]) -> Any:
    try:
        return _mcp.call_tool(str(root), name, args)
    except StatecoreError as error:
        return {"refused": error.code}


def test_a_directory_swapped_for_a_link_the_write_lands_in_the_checked_one(
    dirs: tuple[Path, Path],
) -> None:
    root, outside = dirs
    swap_in(root / "sub", outside)
    patch = {"path": "sub/state.json", "kind": "json", "patch": {"written": True}}
    result = call(root, "update", patch)
    assert "refused" not in result, result
    assert (outside / "state.json").read_text() == '{"secret":1}'
    assert json.loads((root / "sub-moved" / "state.json").read_text())["written"] is True
    assert sorted(os.listdir(outside)) == ["state.json"]


def test_a_directory_swapped_for_a_link_show_and_a_resource_read_the_checked_one(
    dirs: tuple[Path, Path],
) -> None:
    root, outside = dirs
    swap_in(root / "sub", outside)
    shown = call(root, "show", {"path": "sub/state.json", "kind": "json"})
    assert shown["document"] == {"mine": 1}
    (root / "hive" / "s1").mkdir(parents=True)
    (root / "hive" / "s1" / "STATE.json").write_text("{}")
    (outside / "STATE.json").write_text('{"secret":2}')
    swap_in(root / "hive" / "s1", outside)
    text = _mcp.read_resource(str(root), "statecore://hive/s1/STATE.json")
    assert "secret" not in text


def test_the_file_swapped_for_a_link_a_read_is_refused_a_write_replaces_the_link(
    dirs: tuple[Path, Path],
) -> None:
    root, outside = dirs
    secret = outside / "state.json"
    file = root / "sub" / "state.json"

    def swap_file() -> None:
        def swap(_names: Sequence[str]) -> None:
            _mcp_confine.seams.after_check = None
            file.unlink()
            file.symlink_to(secret)

        _mcp_confine.seams.after_check = swap

    for tool in ("show", "validate"):
        if file.is_symlink():
            file.unlink()
        file.write_text('{"mine":1}')
        swap_file()
        assert call(root, tool, {"path": "sub/state.json", "kind": "json"}) == {
            "refused": "E_PATH_UNSAFE"
        }
    file.unlink()
    file.write_text('{"mine":1}')
    swap_file()
    call(root, "update", {"path": "sub/state.json", "kind": "json", "patch": {"written": True}})
    assert secret.read_text() == '{"secret":1}'


def test_a_helpers_project_directory_swapped_for_a_link_it_writes_in_the_checked_one(
    dirs: tuple[Path, Path],
) -> None:
    root, outside = dirs
    (root / "proj").mkdir()
    swap_in(root / "proj", outside)
    result = call(root, "fctry_start_command", {"dir": "proj", "command": "init", "now": NOW})
    assert "refused" not in result, result
    assert not (outside / ".fctry").exists()
    assert (root / "proj-moved" / ".fctry" / "state.json").exists()
    shutil.rmtree(root / "proj-moved")


def test_a_helpers_own_folder_swapped_for_a_link_it_writes_and_reads_in_the_checked_one(
    dirs: tuple[Path, Path],
) -> None:
    root, outside = dirs
    call(root, "fctry_start_command", {"command": "init", "now": NOW})
    mine = (root / ".fctry" / "state.json").read_text()
    (outside / "state.json").write_text(mine.replace('"init"', '"secret"'))
    swap_in(root / ".fctry", outside)
    written = call(root, "fctry_start_step", {"step": "spec-writer", "now": NOW})
    assert "refused" not in written, written
    assert "secret" not in json.dumps(written)
    assert '"secret"' in (outside / "state.json").read_text()
    assert sorted(os.listdir(outside)) == ["state.json"]
    moved = json.loads((root / ".fctry-moved" / "state.json").read_text())
    assert moved["workflowStep"] == "spec-writer"
    (root / ".fctry").unlink()
    (root / ".fctry-moved").rename(root / ".fctry")
    swap_in(root / ".fctry", outside)
    assert "secret" not in json.dumps(call(root, "fctry_status_line", {}))


SERVER = """
import json, os, sys, time
from statecore._mcp import server
for _ in range(3):
    server.call_tool(sys.argv[1], "fctry_start_command", {"command": "init", "now": sys.argv[4]})
base = sys.argv[2]
found = [[name, sorted(os.listdir(os.path.join(base, name)))] for name in os.listdir(base)]
print(json.dumps(sorted(found)), flush=True)
if sys.argv[3] == "wait":
    time.sleep(60)
"""


def test_a_helpers_private_directory_is_reused_and_removed_at_exit_or_by_the_next_server(
    dirs: tuple[Path, Path], tmp_path: Path
) -> None:
    """One private directory per process and folder, reused by every call; removed when the
    server exits, and, when it was killed, by the next server's first helper call."""
    import signal
    import subprocess
    import sys

    root, _ = dirs
    env = {**os.environ, "TMPDIR": str(tmp_path)}

    def server(mode: str) -> subprocess.Popen[str]:
        argv = [sys.executable, "-c", SERVER, str(root), str(tmp_path), mode, NOW]
        return subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, text=True)

    done = server("exit")
    out, _ = done.communicate(timeout=60)
    [[name, inside]] = json.loads(out)  # one directory for three calls, holding the link
    assert name.startswith(_farm_prefix(done.pid))
    assert inside == [".fctry"]
    assert os.listdir(tmp_path) == [], "removed at exit"
    killed = server("wait")
    assert killed.stdout is not None
    [[name, _inside]] = json.loads(killed.stdout.readline())
    killed.send_signal(signal.SIGKILL)
    killed.wait(timeout=30)
    killed.stdout.close()
    assert os.listdir(tmp_path) == [name], "a killed server leaves its directory"
    kept = [
        _farm_prefix(os.getpid()) + "alive",  # a live process's
        f"statecore-mcp-call-{_NS}0-{killed.pid}-other",  # another pid namespace's
    ]
    for name in kept:
        (tmp_path / name).mkdir()
    done = server("exit")
    done.communicate(timeout=60)
    assert sorted(os.listdir(tmp_path)) == sorted(kept), "the killed one's removed, no other"


def test_a_private_directory_removed_by_someone_else_is_made_anew(dirs: tuple[Path, Path]) -> None:
    root, _ = dirs
    call(root, "fctry_start_command", {"command": "init", "now": NOW})
    for directory in list(_mcp_confine._FARMS._all):
        shutil.rmtree(directory)
    result = call(root, "fctry_start_step", {"step": "spec-writer", "now": NOW})
    assert "refused" not in result, result
    assert json.loads((root / ".fctry" / "state.json").read_text())["workflowStep"] == "spec-writer"


def test_a_routines_directory_swapped_for_a_link_it_works_in_the_checked_one(
    dirs: tuple[Path, Path],
) -> None:
    """A host routine's tool (here a hive session's creation, then a log's read) is given its
    paths through the pinned directories too: a link put in place of one after the check does
    not lead it out of DIR, and what it answers names the real paths."""
    root, outside = dirs
    (root / "sessions").mkdir()
    swap_in(root / "sessions", outside)
    made = call(
        root,
        "hive_create_session_dir",
        {
            "sessions_dir": "sessions",
            "session_id": "s1",
            "task": "research",
            "now": NOW,
        },
    )
    assert "refused" not in made, made
    assert "/proc/" not in json.dumps(made)
    assert (root / "sessions-moved" / "s1" / "STATE.json").is_file()
    assert sorted(os.listdir(outside)) == ["state.json"]
    (root / "sub" / "log.jsonl").write_text('{"mine":1}\n')
    (outside / "log.jsonl").write_text('{"secret":1}\n')
    swap_in(root / "sub", outside)
    records = call(root, "read_log", {"path": "sub/log.jsonl"})
    assert "secret" not in json.dumps(records), records
    assert "mine" in json.dumps(records), records
