"""A person's save is never lost (issue 35, docs/locking.md § Files people edit): index.md is a
file people edit, and editors save in place (truncate, then write, sometimes in pieces). A tool
never rewrites it from a reading the person did not finish: an empty, structureless or
half-written index.md is refused (``ConflictError``) and left as it is, a file still changing
is waited on, and a file written under the writer is put back and the update started over.
The editor simulator saves 1,000 times while a Python and a Node helper update the file; a lost
save fails the test unless the documented limits (a stall mid-save, a read during a put-back)
are seen to explain it.
npm/test/specify_edit.test.mjs is its twin.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from statecore import errors, specify
from statecore._generated.tables import EDIT_QUIET_MS
from statecore._host import sys as _sys

NOW = "2026-11-24T12:00:00Z"
GAP = {
    "priority": "Critical",
    "chk_source": "CHK015",
    "fr_reference": "FR-003",
    "question": "Auth failure?",
}
REPO = Path(__file__).resolve().parents[2]
HELPERS = {
    "python": [
        sys.executable,
        str(Path(__file__).parent / "helpers" / "specify_editing_helper.py"),
    ],
    "node": ["node", str(REPO / "npm" / "test" / "helpers" / "specify_editing_helper.cjs")],
}


def feature(tmp_path: Path) -> tuple[Path, Path]:
    """A feature directory with a started index.md and a person's notes."""
    directory = tmp_path / "specs" / "005-user-auth"
    directory.mkdir(parents=True)
    specify.start(directory, NOW)
    file = Path(specify.index_path(directory))
    file.write_text(file.read_text() + "\n## Notes\n\nWritten by hand.\n")
    return directory, file


def settled(file: Path, text: str) -> None:
    """Writes ``text`` to ``file`` in place and dates it 10 s back: a save finished long ago."""
    file.write_text(text)
    then = time.time() - 10
    os.utime(file, (then, then))


UNFINISHED = {
    "empty": (lambda whole: "", "empty"),
    "white space": (lambda whole: "\n  \n", "empty"),
    "half a save, cut in a row": (
        lambda whole: whole[: whole.index("| Critical | G-001") + 20],
        "torn_row",
    ),
    "no structure": (lambda whole: "a person's notes, not an index yet\n", "no_structure"),
}


@pytest.mark.parametrize("name", list(UNFINISHED))
def test_an_unfinished_index_is_refused_and_left_as_it_is(tmp_path: Path, name: str) -> None:
    directory, file = feature(tmp_path)
    specify.add_gaps(directory, [GAP], NOW)
    make, reason = UNFINISHED[name]
    text = make(file.read_text())
    settled(file, text)
    before = file.stat()
    with pytest.raises(errors.ConflictError) as caught:
        specify.add_gaps(directory, [{**GAP, "question": "New?"}], NOW)
    assert caught.value.code == "E_CONFLICT"
    assert caught.value.details["reason"] == reason
    assert "left unchanged" in str(caught.value)
    assert file.read_text() == text, "the bytes untouched"
    after = file.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert os.listdir(file.parent) == ["index.md"], "no copy, no temp file"


def test_the_issues_reproduction_an_emptied_index_stays_empty(tmp_path: Path) -> None:
    directory, file = feature(tmp_path)
    file.write_text("")  # fresh: the writer waits for it to settle, then refuses it
    with pytest.raises(errors.ConflictError):
        specify.add_gaps(directory, [GAP], NOW)
    assert file.read_text() == ""


def test_a_missing_index_is_absent_not_unfinished(tmp_path: Path) -> None:
    directory, file = feature(tmp_path)
    file.unlink()
    assert specify.add_gaps(directory, [GAP], NOW)["changed"] is True
    assert "| G-001 |" in file.read_text()


def test_reset_writes_over_an_unfinished_index_on_purpose(tmp_path: Path) -> None:
    directory, file = feature(tmp_path)
    settled(file, "")
    patch = {"priority_loop_state": {"loop_status": "not_started", "current_iteration": 0}}
    specify.update_index(directory, patch, reset=True)
    assert "Loop Status" in file.read_text()


def person_writes(file: Path, line: str) -> None:
    file.write_text(file.read_text().replace("Written by hand.\n", f"Written by hand.\n{line}\n"))


@pytest.mark.parametrize(
    ("step", "nth", "renames"), [("fsync", 0, 1), ("link", 1, 1), ("rename", 0, 3)]
)
def test_adversarial_a_person_saves_during_the_update(
    tmp_path: Path, step: str, nth: int, renames: int
) -> None:
    """``fsync``: before the check (the writer starts over); ``link`` (the second: the first is
    the lock's): while the old file is linked (seen before the rename: nothing replaced, the
    writer starts over); ``rename``: between the check and the rename (the person's file is put
    back, then the writer starts over). ``renames``: the writer's renames in all, 1 its own
    after starting over, 3 its own, the put-back and its own again."""
    directory, file = feature(tmp_path)
    settled(file, file.read_text())
    saved: list[str] = []
    seen_steps: list[str] = []

    def inject(seen: str) -> None:
        seen_steps.append(seen)
        if seen == step and seen_steps.count(step) == nth + 1 and not saved:
            saved.append(seen)
            person_writes(file, "A line saved during the update.")

    _sys.set_fault_injector(inject)
    try:
        specify.add_gaps(directory, [GAP], NOW)
    finally:
        _sys.set_fault_injector(None)
    assert saved, f"the person saved at {step}"
    assert seen_steps.count("rename") == renames, "the writer's renames"
    text = file.read_text()
    assert "A line saved during the update.\n" in text, "the person's save survives"
    assert "| Critical | G-001 | CHK015 | FR-003 | Auth failure? | pending |" in text, (
        "the update lands"
    )
    assert os.listdir(file.parent) == ["index.md"], "no temp file or held link left"


def test_adversarial_a_file_that_keeps_changing_raises(tmp_path: Path) -> None:
    directory, file = feature(tmp_path)
    settled(file, file.read_text())
    text = file.read_text()
    count = [0]

    def inject(seen: str) -> None:
        if seen == "fsync":
            count[0] += 1
            # A save long finished by its mtime (so the writer does not wait), different each time.
            file.write_text(text.replace("Written by hand.", f"Written by hand {count[0]}."))
            then = time.time() - 10 - count[0]
            os.utime(file, (then, then))

    _sys.set_fault_injector(inject)
    try:
        with pytest.raises(errors.ConflictError) as caught:
            specify.add_gaps(directory, [GAP], NOW)
    finally:
        _sys.set_fault_injector(None)
    assert caught.value.details["reason"] == "changed"
    assert "G-001" not in file.read_text(), "nothing written"


def test_adversarial_a_fifo_or_directory_is_refused_at_once(tmp_path: Path) -> None:
    directory, file = feature(tmp_path)
    file.unlink()
    os.mkfifo(file)
    with pytest.raises(errors.FileTypeError):
        specify.add_gaps(directory, [GAP], NOW)
    file.unlink()
    file.mkdir()
    with pytest.raises(errors.FileTypeError):
        specify.add_gaps(directory, [GAP], NOW)


def test_adversarial_an_index_dated_ahead_is_not_waited_on(tmp_path: Path) -> None:
    directory, file = feature(tmp_path)
    ahead = time.time() + 3600
    os.utime(file, (ahead, ahead))
    assert specify.add_gaps(directory, [GAP], NOW)["changed"] is True
    assert "Written by hand.\n" in file.read_text()


def test_a_tools_own_write_is_stamped_in_the_past(tmp_path: Path) -> None:
    directory, file = feature(tmp_path)
    specify.add_gaps(directory, [GAP], NOW)
    age_ms = (time.time_ns() - file.stat().st_mtime_ns) / 1e6
    assert age_ms >= EDIT_QUIET_MS - 1


SAVES = 1000


class Save:
    """One save of the simulated editor: when it read the file (ms on the system's monotonic
    clock, as the helpers' ``put_back`` windows) and whether it stalled in the middle, for
    longer than the quiet period, with part of its text written."""

    __slots__ = ("read", "stalled")

    def __init__(self, read: tuple[float, float], stalled: bool) -> None:
        self.read = read
        self.stalled = stalled


def clock() -> float:
    return time.monotonic() * 1000


def save(file: Path, marker: str, rng: random.Random) -> Save:
    """One save of a person's editor: the file read (the editor shows what is on disk), a line
    typed into the notes, saved in place: truncated, then written in 1-3 pieces with 0-5 ms
    pauses, as editors that save in place do."""
    start = clock()
    text = file.read_text()
    read = (start, clock())
    if "Written by hand.\n" in text:
        typed = text.replace("Written by hand.\n", f"Written by hand.\n{marker}\n")
    else:
        typed = f"{text}\n## Notes\n\nWritten by hand.\n{marker}\n"
    data = typed.encode()
    cuts = sorted([rng.randrange(len(data)), rng.randrange(len(data))][: rng.randrange(3)])
    stalled = False
    fd = os.open(file, os.O_WRONLY | os.O_TRUNC)  # the save in place starts
    try:
        at = 0
        written = clock()
        for cut in [*cuts, len(data)]:
            time.sleep(rng.randrange(6) / 1000)
            os.write(fd, data[at:cut])
            stalled = stalled or (at > 0 and clock() - written > EDIT_QUIET_MS)
            at, written = cut, clock()
    finally:
        os.close(fd)
    return Save(read, stalled)


def unexplained(lost: list[int], saves: list[Save], windows: list[list[float]]) -> list[int]:
    """The lost saves that neither limit of docs/locking.md § Files people edit explains:
    the editor stalled in the middle of save ``i``, longer than the quiet period; or save ``i``
    or ``i + 1`` read the file while a tool's own version stood at the path before the tool
    put the person's file back (the editor then saved on top of a version that was taken
    back). Any other loss is a bug."""

    def read_retracted(j: int) -> bool:
        if j >= len(saves):
            return False
        start, end = saves[j].read
        return any(start <= w_end and w_start <= end for w_start, w_end in windows)

    return [i for i in lost if not (saves[i].stalled or read_retracted(i) or read_retracted(i + 1))]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_an_editor_saving_in_place_while_tools_update_loses_no_save(tmp_path: Path) -> None:
    directory, file = feature(tmp_path)
    stop = directory.parent / "stop"
    mode = ["unguarded"] if os.environ.get("SPECIFY_EDIT_UNGUARDED") else []
    helpers = {
        name: subprocess.Popen(
            [*command, str(directory), name, str(stop), *mode],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, command in HELPERS.items()
    }
    try:
        for helper in helpers.values():
            assert helper.stdout is not None
            assert helper.stdout.readline().strip() == "ready"
        rng = random.Random()
        markers = []
        saves = []
        for i in range(SAVES):
            marker = f"- note {i} typed by the person"
            saves.append(save(file, marker, rng))
            markers.append(marker)
            # A person pauses between saves: mostly briefly, now and then long enough for a tool
            # (the quiet period, 250 ms), which then writes while the next save may start.
            time.sleep((260 + rng.randrange(50) if i % 25 == 24 else rng.randrange(6)) / 1000)
        stop.write_text("")
        results = {}
        for name, helper in helpers.items():
            out, err = helper.communicate(timeout=120)
            assert helper.returncode == 0, err
            results[name] = json.loads(out.strip().splitlines()[-1])
    finally:
        for helper in helpers.values():
            if helper.poll() is None:
                helper.kill()
                helper.wait()
    text = file.read_text()
    lost = [i for i, m in enumerate(markers) if f"{m}\n" not in text]
    windows = [w for result in results.values() for w in result["put_back"]]
    bad = unexplained(lost, saves, windows)
    assert bad[:5] == [], (
        f"{len(bad)} of {SAVES} saves lost (the first shown), no limit explains it"
    )
    print(f"{len(lost)} saves lost to the documented limits, {len(windows)} put-backs")
    for name, result in results.items():
        assert result["other"] == [], "every update lands or raises ConflictError"
        assert result["landed"] >= 1, f"{name}: its last update lands"
    questions = [gap["question"] for gap in specify.parse_index(text)["gap_priority_queue"]]
    assert "node last" in questions
    assert "python last" in questions
    assert os.listdir(file.parent) == ["index.md"], "no temp file or held link left"
