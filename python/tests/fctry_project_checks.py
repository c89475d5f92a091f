"""What the fctry project-directory tests share: fixed times, the plan, the files, and the
checks that a helper on a directory does exactly what the core function does to the file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Union

import statecore

Project = Union[str, Path]


def at(second: int) -> str:
    """A fixed RFC 3339 time, one per milestone, so a dropped ``now`` cannot go unnoticed."""
    return f"2026-01-02T03:04:{second:02d}.678Z"


NOW = at(5)

PLAN: dict[str, Any] = {
    "chunks": [
        {"id": 1, "name": "core", "sections": ["#core"], "dependsOn": []},
        {"id": 2, "name": "flow", "sections": ["#flow"], "dependsOn": []},
        {"id": 3, "name": "polish", "sections": ["#polish"], "dependsOn": [1, 2]},
    ],
    "specVersion": "1.0",
}


def state_file(project: Path) -> Path:
    return project / ".fctry" / "state.json"


def inbox_file(project: Path) -> Path:
    return project / ".fctry" / "inbox.json"


def on_disk(file: Path) -> Any:
    """The document in ``file`` (which must be there and parse)."""
    return statecore.parse(file.read_bytes())


def check_write(
    file: Path, call: Callable[[], dict[str, Any]], reference: Callable[[Any], Any]
) -> dict[str, Any]:
    """Runs ``call`` (a helper on the project directory) and checks that ``file`` then holds
    exactly ``reference`` (the core function) applied to its previous contents, in canonical
    bytes, and that the result reports it."""
    before = on_disk(file) if file.exists() else None
    default: Any = [] if file.name == "inbox.json" else {}
    expected = reference(default if before is None else before)
    result = call()
    assert result["document"] == expected
    assert file.read_text(encoding="utf-8") == statecore.serialize(expected)
    assert result["etag"] == statecore.etag(file.read_bytes())
    assert result["changed"] is (before != expected)
    assert result["warnings"] == []
    assert result["corrupt_copy"] is None
    return result


def check_read(file: Path, call: Callable[[], Any], reference: Callable[[Any], Any]) -> Any:
    """Runs ``call`` (a reader on the project directory): it returns what ``reference`` gives
    for the file's contents and leaves the file's bytes alone."""
    before = file.read_bytes()
    returned = call()
    assert returned == reference(statecore.parse(before))
    assert file.read_bytes() == before
    return returned
