"""Writes tests/conformance/store/update_jobs.json (a maintainer's tool, not run by the tests):
each case a store's update job (docs/store.md § The update as a job) given the answers a
PostgreSQL store would give on one path, and the steps the core's `store_job_script` asks for
over them as the expectation, reviewed by hand before they were kept. Needs the built package:

    .venv/bin/python scripts/make_store_job_cases.py
"""

import json
import pathlib

import statecore

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "conformance" / "store" / "update_jobs.json"


def setup(known=None, function=False, timeout_ms=None):
    s = {"key": "docs/a.json", "kind": "fctry.state"}
    if function:
        s["function"] = True
    if timeout_ms is not None:
        s["timeout_ms"] = timeout_ms
    if known is not None:
        s["known"] = {"etag": known[0], "trusted": known[1]}
    return s


def applied(changed=True, corrupt=False, etag="e-new"):
    return {"changed": changed, "corrupt": corrupt, "etag": etag}


def row(etag):
    """A statement's answer that found the row (etag `etag`)."""
    return {"count": 1, "etag": etag}


NONE = {"count": 0}
OK = {}
WRITTEN = {"count": 1}
MISSED = {"count": 0}


def failed(n, sqlstate=None, connection=False, message="the driver's message"):
    return {
        "failed": n,
        "sqlstate": sqlstate,
        "connection": connection,
        "message": message,
    }


def plan(*answers):
    return {"answers": list(answers)}


LOST_RACE = [
    OK,
    NONE,
    applied(),
    MISSED,
    OK,
]  # begin, read_for_update, apply, insert, rollback

CASES = [
    (
        "a hit: the kept text trusted, the change applied to it and swapped in one step",
        setup(("e1", True)),
        [plan(applied(), {"count": 1, "written": True, "etag": None})],
    ),
    (
        (
            "the swap missed (another writer changed the row): the row it gave back applied to "
            "and written on its etag, not trusted"
        ),
        setup(("e1", True)),
        [
            plan(applied(), {"count": 1, "written": False, "etag": "e9"}),
            plan(applied(), WRITTEN),
        ],
    ),
    (
        "the swap found no row (removed since): the change applied to none and inserted",
        setup(("e1", True)),
        [plan(applied(), {"count": 0}), plan(applied(), WRITTEN)],
    ),
    (
        "the kept text not trusted: the row read first, trusted again when it is the one kept",
        setup(("e1", False)),
        [row("e1"), plan(applied(), WRITTEN)],
    ),
    (
        "no kept text, no row: the document inserted, trusted",
        setup(),
        [NONE, plan(applied(), WRITTEN)],
    ),
    (
        "unchanged: nothing written, the row kept (not trusted: no text was kept before)",
        setup(),
        [row("e1"), plan(applied(changed=False))],
    ),
    (
        "unchanged and no row: nothing written, nothing kept",
        setup(),
        [NONE, plan(applied(changed=False))],
    ),
    (
        "the kept text unchanged by the change: the row read and the change applied to it",
        setup(("e1", True)),
        [plan(applied(changed=False)), row("e1"), plan(applied(changed=False))],
    ),
    (
        (
            "the core refused the change on the kept text (it may be stale): the row read, "
            "the change applied to it"
        ),
        setup(("e1", True)),
        [plan({"failed": 0, "refused": True}), row("e5"), plan(applied(), WRITTEN)],
    ),
    (
        "the host's own error applying to the kept text (not the core's): raised",
        setup(("e1", True)),
        [plan({"failed": 0})],
    ),
    (
        "an insert that lost the race to create the row: the locked transaction",
        setup(),
        [NONE, plan(applied(), MISSED), OK, row("e7"), applied(), WRITTEN, OK],
    ),
    (
        "an update of a row removed since it was read: the locked transaction inserts it",
        setup(),
        [row("e1"), plan(applied(), MISSED), OK, NONE, applied(), WRITTEN, OK],
    ),
    (
        "an unreadable row: its text kept, then written, in the transaction",
        setup(),
        [
            row("e3"),
            plan(applied(corrupt=True)),
            OK,
            row("e3"),
            applied(corrupt=True),
            OK,
            WRITTEN,
            OK,
        ],
    ),
    (
        (
            "a timeout: the transaction at once (no swap), lock_timeout in whole ms, at least 1; "
            "unchanged: the kept text left as it was"
        ),
        setup(("e1", True), timeout_ms=1500.4),
        [OK, OK, row("e1"), applied(changed=False), OK],
    ),
    (
        "a timeout under 1 ms waits 1 ms",
        setup(timeout_ms=0.2),
        [OK, OK, NONE, applied(), WRITTEN, OK],
    ),
    (
        "a row held past the timeout: rolled back, E_LOCK_TIMEOUT",
        setup(timeout_ms=50),
        [
            OK,
            OK,
            failed(0, "55P03", message="canceling statement due to lock timeout"),
            OK,
        ],
    ),
    (
        "a function's update: no compare-and-swap, the row locked",
        setup(("e1", True), function=True),
        [OK, NONE, applied(), WRITTEN, OK],
    ),
    (
        "the function raised: rolled back, its error raised",
        setup(function=True),
        [OK, row("e1"), {"failed": 0}, OK],
    ),
    (
        "every run lost the race to create the row: E_STORE after eight",
        setup(function=True),
        LOST_RACE * 8,
    ),
    (
        "the connection lost during the swap: dropped, E_STORE (retryable)",
        setup(("e1", True)),
        [
            plan(
                applied(),
                failed(
                    0, connection=True, message="Connection terminated unexpectedly"
                ),
            ),
            OK,
        ],
    ),
    (
        "a lost connection with its SQLSTATE (57P01: the server shut down): dropped, E_STORE",
        setup(),
        [
            failed(
                0,
                "57P01",
                message="terminating connection due to administrator command",
            ),
            OK,
        ],
    ),
    (
        "a partial schema: E_STORE that says what to do",
        setup(),
        [failed(0, "42P01", message='relation "statecore_documents" does not exist')],
    ),
    (
        "a statement's own error: raised as the driver gave it",
        setup(),
        [failed(0, "22P02", message="invalid input syntax")],
    ),
    (
        "a statement's own error in the transaction: rolled back, raised",
        setup(function=True),
        [OK, failed(0, "22P02", message="invalid input syntax"), OK],
    ),
    (
        "a rollback that fails: the connection dropped, E_STORE",
        setup(function=True),
        [
            OK,
            failed(0, "22P02", message="invalid input syntax"),
            failed(1, connection=True, message="Connection terminated"),
            OK,
        ],
    ),
    (
        "a COMMIT the connection lost: dropped (no rollback), E_STORE",
        setup(function=True),
        [
            OK,
            NONE,
            applied(),
            WRITTEN,
            failed(0, "08006", message="connection failure"),
            OK,
        ],
    ),
]


def main() -> None:
    cases = []
    for name, s, answers in CASES:
        steps = statecore.store_job_script("update", s, answers)
        cases.append(
            {
                "name": name,
                "op": "store_job_script",
                "args": ["update", s, answers],
                "expect": steps,
            }
        )
    cases.append(
        {
            "name": "a misspelt field of the setup: E_ARGUMENT at it, never ignored",
            "op": "store_job_script",
            "args": ["update", {"key": "k", "kind": "fctry.state", "timeout": 5}, []],
            "error": {"code": "E_ARGUMENT", "path": "/setup/timeout"},
        }
    )
    cases.append(
        {
            "name": "a setup without its key: E_ARGUMENT",
            "op": "store_job_script",
            "args": ["update", {"kind": "fctry.state"}, []],
            "error": {"code": "E_ARGUMENT", "path": "/setup/key"},
        }
    )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "description": (
            "A PostgreSQL store's update as a job (docs/store.md § The update as a job): the "
            "steps the core asks a store's driver for, given the answers a store gives on one "
            "path. Written by scripts/make_store_job_cases.py, reviewed by hand."
        ),
        "cases": cases,
    }
    OUT.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {len(cases)} cases to {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
