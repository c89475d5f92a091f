"""Test helper: ``python specify_editing_helper.py FEATURE_DIR NAME STOP_FILE [unguarded]`` is a
tool updating the index.md a person is editing (tests/test_specify_edit.py): prints "ready",
then adds one gap ("NAME n") at a time until STOP_FILE exists, then adds a last one
("NAME last"), and prints ``{"landed", "raised", "other"}``: the updates that landed (their gap
in the result), those refused with E_CONFLICT (a file the person was saving), and any other
error (none is allowed). ``unguarded`` writes as the host did before issue 35 (read, update,
replace, with no regard for the person): the test's check must then fail.
npm/test/helpers/specify_editing_helper.cjs is its twin."""

from __future__ import annotations

import json
import os
import sys
import time

from statecore import StatecoreError, specify
from statecore._host import atomic as _atomic
from statecore._host import sys as _sys
from statecore._host.routines import update_file

directory, name, stop = sys.argv[1:4]
mode = sys.argv[4] if len(sys.argv) > 4 else ""


def gap(question: str) -> dict[str, object]:
    return {
        "priority": "Important",
        "chk_source": "CHK100",
        "fr_reference": "FR-100",
        "question": question,
    }


def unguarded(question: str) -> dict[str, object]:
    """The update as the host made it before issue 35: the bytes read taken as the document."""
    file = str(specify.index_path(directory))
    data = _atomic.read_document(file)
    result = update_file(
        "specify.index", "specify_add_gaps", data, ([gap(question)],), None, None, True
    )
    _atomic.write_atomic(file, result["text"])
    return dict(result)


counts = {"landed": 0, "raised": 0}
other: list[str] = []
put_back: list[list[float]] = []


#: The guarded replace's system calls when it puts the person's file back (link the old file,
#: stat it, rename ours in, stat the old file, rename it back, unlink the held link), one after
#: another.
PUT_BACK = ["link", "stat", "rename", "stat", "rename", "unlink"]
steps: list[tuple[str, float]] = []


def watch(step: str) -> None:
    """Records a put-back: its window runs from our rename to the unlink of the held link."""
    steps.append((step, time.monotonic() * 1000))
    del steps[: -len(PUT_BACK)]
    if [name for name, _ in steps] == PUT_BACK:
        put_back.append([steps[2][1], steps[-1][1]])


def attempt(question: str) -> None:
    try:
        if mode == "unguarded":
            result = unguarded(question)
        else:
            result = dict(specify.add_gaps(directory, [gap(question)], timeout=60))
        document = result["document"]
        assert isinstance(document, dict)
        if not any(g.get("question") == question for g in document["gap_priority_queue"]):
            raise AssertionError(f"{question} not in the result")
        counts["landed"] += 1
    except StatecoreError as error:
        if error.code == "E_CONFLICT":
            counts["raised"] += 1
        else:
            other.append(f"{question}: {error.code} {error}")
    except Exception as error:  # reported, not raised: the test names it
        other.append(f"{question}: {type(error).__name__} {error}")


_sys.set_fault_injector(watch)
specify.read_index(directory)
print("ready", flush=True)
n = 0
while not os.path.exists(stop):
    attempt(f"{name} {n}")
    n += 1
attempt(f"{name} last")
print(json.dumps({**counts, "other": other, "put_back": put_back}), flush=True)
