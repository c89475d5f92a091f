"""The command line on store URLs (docs/store.md § Store URLs), both commands as processes:
``python -m statecore`` and the npm package's ``statecore``. A path operand that is
``postgresql://host:port/database/KEY`` is read, listed and written in that store, with the
same output, byte for byte, from both; ``watch`` reports a row's change."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from statecore import hive
from statecore.store import PostgresStore

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from pg_server import sql  # noqa: E402

NODE_CLI = HERE.parents[1] / "npm" / "bin" / "statecore.cjs"
NOW = "2026-11-25T10:05:00Z"


def url(db: dict[str, str], key: str = "") -> str:
    """The store URL of ``key`` in the test's database."""
    base = f"postgresql://{db['PGUSER']}@{db['PGHOST']}:{db['PGPORT']}/{db['PGDATABASE']}"
    return f"{base}/{key}" if key else base


def both(*argv: str, base: str = "") -> tuple[str, str, int]:
    """Runs the command with Python and with Node: their output, which must be the same. With
    ``base`` (a store URL), each language works below a key of its own: ``{base}`` in ``argv``
    is ``base/py`` for Python and ``base/js`` for Node, and their outputs are compared with it
    put back."""
    env = {**os.environ, "STATECORE_NOW": NOW, "TZ": "UTC", "NO_COLOR": "1"}
    runs = []
    for lang, command in (
        ("py", [sys.executable, "-m", "statecore"]),
        ("js", ["node", str(NODE_CLI)]),
    ):
        mine = f"{base}/{lang}"
        args = [a.replace("{base}", mine) for a in argv]
        done = subprocess.run(
            [*command, *args], capture_output=True, text=True, env=env, timeout=120
        )
        out, err = done.stdout, done.stderr
        if base:
            out, err = out.replace(mine, "{base}"), err.replace(mine, "{base}")
        runs.append((out, err, done.returncode))
    assert runs[0] == runs[1], f"Python and Node differ: {runs}"
    return runs[0]


def test_validate_update_and_logs_on_a_store_url(db: dict[str, str]) -> None:
    base = url(db)
    out, err, code = both(
        "update", "{base}/.fctry/state.json", "--merge", '{"currentCommand": "evolve"}', base=base
    )
    assert code == 0, err
    assert out.startswith("{base}/.fctry/state.json: updated (fctry.state), etag ")
    keys = sql("SELECT key FROM statecore_documents ORDER BY key")
    assert keys == [("js/.fctry/state.json",), ("py/.fctry/state.json",)]
    out, err, code = both("validate", "{base}", base=base)
    assert (out, code) == ("{base}/.fctry/state.json: valid (fctry.state)\n", 0), err
    event = (
        '{"timestamp": "2026-11-25T10:00:00Z", "type": "worker_heartbeat", "agent": "w", '
        '"details": {}}'
    )
    assert both("log", "append", "{base}/s1/EVENTS.jsonl", event, base=base)[2] == 0
    out, _err, code = both("log", "read", "{base}/s1/EVENTS.jsonl", base=base)
    assert code == 0
    assert out.count('"worker_heartbeat"') == 1
    assert sql("SELECT count(*) FROM statecore_log_lines") == [(2,)]
    # A log whose key names no kind is appended as json (the core names the kind).
    assert both("log", "append", "{base}/notes/x.jsonl", '{"n": 1}', base=base)[2] == 0
    assert sql("SELECT count(*) FROM statecore_log_lines") == [(4,)]
    # A store's log has no torn line: nothing to repair, and nothing written.
    out, err, code = both("log", "repair", "{base}/s1/EVENTS.jsonl", base=base)
    assert (out, code) == ("{base}/s1/EVENTS.jsonl: nothing to repair (no torn last line)\n", 0)
    assert sql("SELECT count(*) FROM statecore_log_lines") == [(4,)]
    assert both("validate", url(db, "nothing/state.json"))[2] == 2  # missing: exit 2
    _out, err, code = both("validate", url(db, "py") + "?sslmode=disable")
    assert code == 2
    assert "PG*" in err


def test_hive_status_on_a_store_url(db: dict[str, str]) -> None:
    with PostgresStore() as pg:
        hive.create_session_dir("sessions", "s1", "research", "2026-11-25T10:00:00Z", store=pg)
        workers = [{"name": "alpha", "task": "read"}]
        hive.plan_workers("sessions/s1", workers, "one", "2026-11-25T10:01:00Z", store=pg)
        hive.spawn_worker("sessions/s1", "alpha", "2026-11-25T10:02:00Z", store=pg)
    out, err, code = both("hive", "status", url(db, "sessions/s1"))
    assert code == 0, err
    assert "session s1: " in out
    assert "alpha" in out
    out, err, code = both("hive", "sessions", url(db, "sessions"))
    assert out.startswith("s1  "), out + err


def test_watch_reports_a_rows_change(db: dict[str, str]) -> None:
    """``watch`` on a row's URL: its verdict, then the verdict after each committed change
    (the store refuses an invalid document, so the change is a valid one)."""
    key = "proj/.fctry/state.json"
    env: Any = {**os.environ, "STATECORE_NOW": NOW, "TZ": "UTC", "NO_COLOR": "1"}
    with PostgresStore() as pg:
        pg.update(key, "fctry.state", {"specVersion": "0"})
        for n, command in enumerate(([sys.executable, "-m", "statecore"], ["node", str(NODE_CLI)])):
            proc = subprocess.Popen(
                [*command, "watch", url(db, key), "--count", "1"],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=env,
            )
            try:
                assert proc.stdout is not None
                assert proc.stdout.readline() == f"{url(db, key)}: valid (fctry.state)\n"
                pg.update(key, "fctry.state", {"specVersion": str(n + 1)})
                out, err = proc.communicate(timeout=30)
            finally:
                proc.kill()
            assert (out, proc.returncode) == (
                f"10:05:00 {url(db, key)}: valid (fctry.state)\n",
                0,
            ), err


def test_an_unreachable_store_is_an_unreadable_path() -> None:
    """A store that cannot be reached: the path cannot be read (exit 2), saying why; the
    driver's own words differ between the languages, the rest is the core's."""
    bad = "postgresql://127.0.0.1:1/nowhere/a/state.json"
    env = {**os.environ, "STATECORE_NOW": NOW, "TZ": "UTC", "NO_COLOR": "1"}
    for command in ([sys.executable, "-m", "statecore"], ["node", str(NODE_CLI)]):
        done = subprocess.run(
            [*command, "validate", bad], capture_output=True, text=True, env=env, timeout=120
        )
        assert (done.stdout, done.returncode) == ("", 2)
        start = f'statecore: {bad}: cannot be read (E_STORE: the store could not connect to "'
        assert done.stderr.startswith(start + 'postgresql://127.0.0.1:1/nowhere" ('), done.stderr
