"""statecore.fctry over a project directory, continued: refused operations leave the file
alone, and the inbox (``<project>/.fctry/inbox.json``). The reference for each call is the
native core function applied to the file's previous contents (fctry_project_checks.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fctry_project_checks import (
    NOW,
    PLAN,
    Project,
    check_write,
    inbox_file,
    on_disk,
    state_file,
)

import statecore
from statecore import _statecore as core
from statecore import fctry

# --- refused operations leave the file alone -------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "code"),
    [
        (lambda p: fctry.start_step(p, "cook", NOW), statecore.UsageError, "E_ARGUMENT"),
        (lambda p: fctry.start_command(p, "deploy", NOW), statecore.UsageError, "E_ARGUMENT"),
        (
            lambda p: fctry.complete_step(p, "interviewer", "done", NOW),
            statecore.UsageError,
            "E_ARGUMENT",
        ),
        (lambda p: fctry.chunk_event(p, 1, "start", NOW), statecore.TransitionError, None),
        (lambda p: fctry.chunk_event(p, 2, "complete", NOW), statecore.TransitionError, None),
        (lambda p: fctry.chunk_event(p, 9, "start", NOW), statecore.UsageError, "E_ARGUMENT"),
        (lambda p: fctry.resume_build_run(p, NOW), statecore.TransitionError, None),
        (lambda p: fctry.finish_build_run(p, NOW), statecore.UsageError, "E_ARGUMENT"),
        (lambda p: fctry.start_step(p, "interviewer", "yesterday"), statecore.TimestampError, None),
    ],
)
def test_refused_operations_leave_the_file_unchanged(
    tmp_path: Path, call: Callable[[Project], Any], error: type[Exception], code: str | None
) -> None:
    state = core.call(
        "fctry_create_build_run",
        (
            core.call(
                "fctry_start_command",
                (
                    {},
                    "execute",
                    NOW,
                ),
            ),
            PLAN,
            NOW,
        ),
    )
    state = core.call(
        "fctry_chunk_event",
        (
            state,
            1,
            "start",
            NOW,
        ),
    )
    fctry.update_state(tmp_path, lambda _: state)
    file = state_file(tmp_path)
    before = file.read_bytes()
    for project in (tmp_path, str(tmp_path)):
        with pytest.raises(error) as raised:
            call(project)
        assert isinstance(raised.value, statecore.StatecoreError)
        if code is not None:
            assert raised.value.code == code
        if error is statecore.TransitionError:
            assert raised.value.code == "E_TRANSITION"
        assert file.read_bytes() == before
    assert [entry.name for entry in file.parent.iterdir()] == ["state.json"]


# --- the inbox -------------------------------------------------------------------------------


def test_inbox_on_a_project_directory(tmp_path: Path) -> None:
    file = inbox_file(tmp_path)
    ms = statecore.parse_timestamp(NOW)
    first = check_write(
        file,
        lambda: fctry.inbox_add(tmp_path, "feature", "dark mode", NOW, "abc123"),
        lambda i: core.call(
            "fctry_inbox_add",
            (
                i,
                "feature",
                "dark mode",
                NOW,
                "abc123",
            ),
        ),
    )
    assert first["document"] == [
        {
            "id": f"inbox-{ms}-abc123",
            "type": "feature",
            "content": "dark mode",
            "timestamp": NOW,
            "status": "pending",
        }
    ]
    assert not state_file(tmp_path).exists()
    check_write(
        file,
        lambda: fctry.inbox_add(str(tmp_path), "reference", "https://example.org/", ms, "zzzzzz"),
        lambda i: core.call(
            "fctry_inbox_add",
            (
                i,
                "reference",
                "https://example.org/",
                ms,
                "zzzzzz",
            ),
        ),
    )
    assert [item["id"] for item in fctry.read_inbox(tmp_path)["document"]] == [
        f"inbox-{ms}-zzzzzz",
        f"inbox-{ms}-abc123",
    ]
    check_write(
        file,
        lambda: fctry.inbox_batch(tmp_path, "start"),
        lambda i: core.call(
            "fctry_inbox_batch",
            (
                i,
                "start",
            ),
        ),
    )
    check_write(
        file,
        lambda: fctry.inbox_transition(str(tmp_path), f"inbox-{ms}-abc123", "complete"),
        lambda i: core.call(
            "fctry_inbox_transition",
            (
                i,
                f"inbox-{ms}-abc123",
                "complete",
            ),
        ),
    )
    assert [item["status"] for item in on_disk(file)] == ["processing", "processed"]

    before = file.read_bytes()
    with pytest.raises(statecore.TransitionError) as raised:
        fctry.inbox_transition(tmp_path, f"inbox-{ms}-abc123", "retry")
    assert raised.value.code == "E_TRANSITION"
    with pytest.raises(statecore.UsageError) as raised_usage:
        fctry.inbox_add(tmp_path, "feature", "again", NOW, "abc123")
    assert raised_usage.value.path == "/id"
    assert file.read_bytes() == before

    check_write(
        file,
        lambda: fctry.inbox_dismiss(tmp_path, f"inbox-{ms}-zzzzzz"),
        lambda i: core.call(
            "fctry_inbox_dismiss",
            (
                i,
                f"inbox-{ms}-zzzzzz",
            ),
        ),
    )
    gone = check_write(
        file,
        lambda: fctry.inbox_dismiss(str(tmp_path), f"inbox-{ms}-zzzzzz"),
        lambda i: core.call(
            "fctry_inbox_dismiss",
            (
                i,
                f"inbox-{ms}-zzzzzz",
            ),
        ),
    )
    assert gone["changed"] is False
    read = fctry.read_inbox(tmp_path)
    assert read["document"] == on_disk(file)
    assert read["etag"] == gone["etag"]
    assert [entry.name for entry in file.parent.iterdir()] == ["inbox.json"]
