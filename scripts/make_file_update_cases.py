"""Writes tests/conformance/host/file_update_jobs.json (a maintainer's tool, not run by the
tests): the file update job (docs/locking.md § The update as a job) run over a host's answers
given in advance. Each case's steps are written out here from the rules of docs/locking.md §
Files people edit (the waits, the restarts, the copy of an unparseable file), not taken from
the core: the corpus checks the core against them on every surface.

    python3 scripts/make_file_update_cases.py
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "conformance" / "host" / "file_update_jobs.json"

FILE = "/d/.fctry/state.json"
INDEX = "/d/specs/index.md"
NOW = 1764417600000  # 2025-11-29T12:00:00.000Z
SUFFIX = ".corrupt-20251129T120000000Z"
QUIET = 250
# A finished index.md (a heading, a table, its last line ended) and one a person is still saving.
FINISHED = "# Spec\n\n| id | title |\n|----|-------|\n| G1 | one |\n"
UNTERMINATED = "# Spec\n\n| id | title |\n|----|-------|\n| G1 | one |"


def setup(
    path: str = FILE, kind: str = "fctry.state", **more: object
) -> dict[str, object]:
    return {"kind": kind, "path": path, "now_ms": NOW, **more}


def load(path: str = FILE, edited: bool = False) -> dict[str, object]:
    return (
        {"do": "load", "path": path, "bytes": True}
        if edited
        else {"do": "load", "path": path}
    )


APPLY = {"do": "apply"}


def write(edited: bool = False) -> dict[str, object]:
    return (
        {"do": "write", "edited": True, "backdate_ms": QUIET}
        if edited
        else {"do": "write"}
    )


def done(copy: str | None = None) -> dict[str, object]:
    if copy is None:
        return {"do": "done"}
    warning = {
        "code": "W_CORRUPT_COPY",
        "path": "",
        "message": f"the unparseable file was kept as {copy} before being replaced",
    }
    return {"do": "done", "corrupt_copy": copy, "warning": warning}


def expecting(
    step: dict[str, object], expect: dict[str, object] | None
) -> dict[str, object]:
    return step if expect is None else {**step, "expect": expect}


APPLIED = {"changed": True, "corrupt": False}
WRITTEN = {"written": True}


def rest(edited: bool = False) -> list[dict[str, object]]:
    """The plan after a reading judged fit: apply, write, done."""
    return [expecting(APPLY, APPLIED), expecting(write(edited), WRITTEN), done()]


def whole() -> dict[str, object]:
    """A JSON kind's first plan: load (any answer), apply, write, done."""
    return {"do": "all", "steps": [load(), *rest()]}


def plan(steps: list[dict[str, object]]) -> dict[str, object]:
    return {"do": "all", "steps": steps}


def case(
    name: str, answers: list[dict[str, object]], expect: object, **given: object
) -> dict:
    return {
        "name": name,
        "op": "file_update_script",
        "args": [given.get("setup", setup()), answers],
        "expect": expect,
    }


def error(
    name: str, given: dict[str, object], answers: list, code: str, path: str
) -> dict:
    return {
        "name": name,
        "op": "file_update_script",
        "args": [given, answers],
        "error": {"code": code, "path": path},
    }


def failure(
    name: str, code: str, at: str, message: str, details: dict | None = None
) -> dict:
    """An error as a script gives it."""
    return {
        "name": name,
        "code": code,
        "path": at,
        "message": message,
        "details": details or {},
    }


def changing() -> dict:
    """A file people edit that changes again before every reading: waited on a poll at a
    time, then E_CONFLICT once the next wait would pass 5000 ms (20 polls of 250 ms)."""
    answers: list[dict[str, object]] = []
    expect: list[dict[str, object]] = [load(INDEX, True)]
    for _ in range(20):
        answers += [{"missing": False, "age_ms": 0, "data": FINISHED}, {}]
        expect += [{"do": "pause", "ms": QUIET}, load(INDEX, True)]
    answers.append({"missing": False, "age_ms": 0, "data": FINISHED})
    message = (
        "the file kept changing for 5000 ms (a person or another program is writing it); "
        "nothing was written: try again when it is left alone"
    )
    details = {"reason": "changing", "waited_ms": 5000.0}
    expect.append(
        {
            "do": "error",
            "error": failure("ConflictError", "E_CONFLICT", "", message, details),
        }
    )
    return {"answers": answers, "expect": expect}


def cases() -> list[dict]:
    index = setup(INDEX, "specify.index")
    busy = changing()
    out = [
        case(
            "the common path: read, changed, written, in the job's first step",
            [{"answers": [{"missing": False, "age_ms": 9000}, APPLIED, WRITTEN]}],
            [whole(), done()],
        ),
        case(
            "a new file: the same plan (nothing to wait on, nothing to keep)",
            [{"answers": [{"missing": True}, APPLIED, WRITTEN]}],
            [whole(), done()],
        ),
        case(
            "an update that changes nothing writes nothing",
            [
                {
                    "answers": [
                        {"missing": False, "age_ms": 1},
                        {"changed": False, "corrupt": False},
                    ]
                }
            ],
            [whole(), done()],
        ),
        case(
            "an unparseable file is copied before it is replaced, the copy named in a warning",
            [
                {
                    "answers": [
                        {"missing": False, "age_ms": 1},
                        {"changed": True, "corrupt": True},
                    ]
                },
                {"path": FILE + SUFFIX},
                WRITTEN,
            ],
            [
                whole(),
                {"do": "copy", "to": FILE + SUFFIX},
                write(),
                done(FILE + SUFFIX),
            ],
        ),
        case(
            "the copy's name is the one the host made (the first was taken)",
            [
                {
                    "answers": [
                        {"missing": False, "age_ms": 1},
                        {"changed": True, "corrupt": True},
                    ]
                },
                {"path": FILE + SUFFIX + "-1"},
                WRITTEN,
            ],
            [
                whole(),
                {"do": "copy", "to": FILE + SUFFIX},
                write(),
                done(FILE + SUFFIX + "-1"),
            ],
        ),
        case(
            "a missing file that is corrupt (a bad change of nothing) is not copied",
            [
                {"answers": [{"missing": True}, {"changed": True, "corrupt": True}]},
                WRITTEN,
            ],
            [whole(), write(), done()],
        ),
        case(
            "the file changed under the writer: read again (alone), then apply and write anew",
            [
                {
                    "answers": [
                        {"missing": False, "age_ms": 1},
                        APPLIED,
                        {"written": False},
                    ]
                },
                {"missing": False, "age_ms": 3},
                {"answers": [APPLIED, WRITTEN]},
            ],
            [whole(), load(), plan(rest()), done()],
        ),
        case(
            "the host failed to apply the change (the core refused it): raised",
            [{"answers": [{"missing": False, "age_ms": 1}, {"failed": 0}]}],
            [whole(), {"do": "raise", "failed": 0}],
        ),
        case(
            "the host failed to read: raised",
            [{"answers": [{"failed": 0}]}],
            [whole(), {"do": "raise", "failed": 0}],
        ),
        case(
            "the host failed to copy: raised, nothing written",
            [
                {
                    "answers": [
                        {"missing": False, "age_ms": 1},
                        {"changed": True, "corrupt": True},
                    ]
                },
                {"failed": 1},
            ],
            [
                whole(),
                {"do": "copy", "to": FILE + SUFFIX},
                {"do": "raise", "failed": 1},
            ],
        ),
        case(
            "a file people edit, left alone long enough: read with its bytes, then one plan",
            [
                {"missing": False, "age_ms": 5000, "data": FINISHED},
                {"answers": [APPLIED, WRITTEN]},
            ],
            [load(INDEX, True), plan(rest(True)), done()],
            setup=index,
        ),
        case(
            "a file people edit that changed 50 ms ago: waited on until it is 250 ms old",
            [
                {"missing": False, "age_ms": 50, "data": FINISHED},
                {},
                {"missing": False, "age_ms": 251, "data": FINISHED},
                {"answers": [APPLIED, WRITTEN]},
            ],
            [
                load(INDEX, True),
                {"do": "pause", "ms": 200},
                load(INDEX, True),
                plan(rest(True)),
                done(),
            ],
            setup=index,
        ),
        case(
            "a file people edit whose last line has no line break: judged only after 1000 ms, a poll at a time",
            [
                {"missing": False, "age_ms": 600, "data": UNTERMINATED},
                {},
                {"missing": False, "age_ms": 850, "data": UNTERMINATED},
                {},
                {"missing": False, "age_ms": 1001, "data": UNTERMINATED},
                {"answers": [APPLIED, WRITTEN]},
            ],
            [
                load(INDEX, True),
                {"do": "pause", "ms": QUIET},
                load(INDEX, True),
                {"do": "pause", "ms": 150},
                load(INDEX, True),
                plan(rest(True)),
                done(),
            ],
            setup=index,
        ),
        case(
            "a file people edit that is missing: nothing to wait on",
            [{"missing": True}, {"answers": [APPLIED, WRITTEN]}],
            [load(INDEX, True), plan(rest(True)), done()],
            setup=index,
        ),
        case(
            "a file people edit whose mtime is far ahead: its clock cannot be judged, not waited on",
            [
                {"missing": False, "age_ms": -60000, "data": FINISHED},
                {"answers": [APPLIED, WRITTEN]},
            ],
            [load(INDEX, True), plan(rest(True)), done()],
            setup=index,
        ),
        case(
            "a file people edit that keeps changing: E_CONFLICT once the wait would pass 5000 ms",
            busy["answers"],
            busy["expect"],
            setup=index,
        ),
        case(
            "a host that went on with the plan after a failure is refused",
            [{"answers": [{"failed": 0}, APPLIED]}],
            [
                whole(),
                {
                    "do": "error",
                    "error": failure(
                        "UsageError",
                        "E_ARGUMENT",
                        "/answer/answers/1",
                        "the host went on with a plan after answer 0, which failed: a driver "
                        "stops at the first answer that fails or is not what its step `expect`s "
                        "(docs/locking.md § Plans)",
                    ),
                },
            ],
        ),
    ]
    restarts: list[dict[str, object]] = [
        {"answers": [{"missing": False, "age_ms": 1}, APPLIED, {"written": False}]}
    ]
    expect: list[dict[str, object]] = [whole()]
    for _ in range(50):
        restarts += [
            {"missing": False, "age_ms": 1},
            {"answers": [APPLIED, {"written": False}]},
        ]
        expect += [load(), plan(rest())]
    restarts.append({"missing": False, "age_ms": 1})
    message = (
        "the file changed under the writer 51 times in a row (another program keeps writing it "
        "without the lock); nothing was written: try again when it is left alone"
    )
    details = {"reason": "changed", "restarts": 51}
    conflict = failure("ConflictError", "E_CONFLICT", "", message, details)
    expect += [load(), {"do": "error", "error": conflict}]
    out.append(
        case(
            "a file another program keeps writing without the lock: E_CONFLICT after 50 restarts",
            restarts,
            expect,
        )
    )
    out += [
        error("an unknown kind", setup(kind="fctry.nope"), [], "E_KIND", ""),
        error(
            "a misspelt field of the setup",
            {"kind": "fctry.state", "pth": FILE},
            [],
            "E_ARGUMENT",
            "/pth",
        ),
        error(
            "a setup without its path",
            {"kind": "fctry.state"},
            [],
            "E_ARGUMENT",
            "/path",
        ),
    ]
    return out


def main() -> None:
    doc = {
        "description": (
            "A document's file updated under its lock, as a job (docs/locking.md § The update "
            "as a job): the steps the core asks a host's driver for (`load`, `pause`, `apply`, "
            "`copy`, `write`, `done`, `raise`), given the answers a host gave on one path; an "
            "answer's `data` is the bytes read with it. Written by "
            "scripts/make_file_update_cases.py from the rules of docs/locking.md § Files people "
            "edit. Every surface must ask for the same steps, byte for byte."
        ),
        "cases": cases(),
    }
    OUT.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
