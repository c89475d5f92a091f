"""The PostgreSQL store against a hand-written read-modify-write (issue 16): the same fctry
state (bench/fixtures) updated with the same patch (a new counter each time, so every update
writes), one row, the same server and run. statecore:
``PostgresStore.update`` (one core crossing: parse, merge, validation, canonical text, etag;
the row's text kept from the last write, so an uncontended update is one statement:
docs/store.md § Updates), and two stores taking turns (the kept text stale each time). Hand-written: psycopg, ``SELECT ... FOR UPDATE``,
``json.loads``, a dict merge, ``json.dumps(indent=2)``, ``UPDATE`` (no validation, no etag). A
throwaway server comes from scripts/pg-server.sh (or ``STATECORE_PG_ENV``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import psycopg
from pylib import Case, compare, log, same_json, table
from statecore.store import PostgresStore

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def deep_merge(doc: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """The hand-written merge: objects merged recursively, anything else replaced."""
    out = dict(doc)
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def watch_latency(store: PostgresStore, count: int) -> str:
    """Commit-to-callback latency of ``store.watch``: ``count`` updates of one row, each
    awaited by its callback; the markdown of its medians and 95th percentiles."""
    import queue
    import time

    seen: queue.Queue[float] = queue.Queue()
    from_commit: list[float] = []
    from_call: list[float] = []
    key = "lat/.fctry/state.json"
    with store.watch(
        "lat/", None, lambda _c: seen.put(time.perf_counter()), initial=False
    ) as w:
        w.wait_ready(30)
        for i in range(count):
            start = time.perf_counter()
            store.update(key, "fctry.state", {"progress": {"done": i}})
            committed = time.perf_counter()
            called = seen.get(timeout=30)
            from_commit.append(max(0.0, called - committed))
            from_call.append(called - start)

    def cell(values: list[float]) -> str:
        ordered = sorted(values)
        mid, p95 = ordered[len(ordered) // 2], ordered[int(len(ordered) * 0.95)]
        return f"{mid * 1e6:.0f} µs | {p95 * 1e6:.0f} µs"

    return "\n".join(
        [
            "### Python store watch latency",
            "",
            (
                f"{count} updates of one row, each awaited by its `store.watch` callback "
                "(LISTEN/NOTIFY on the watcher's thread, then the row read and checked as its "
                "kind)."
            ),
            "",
            "| measured | median | p95 |",
            "|---|---|---|",
            f"| commit returned → callback | {cell(from_commit)} |",
            f"| update called → callback | {cell(from_call)} |",
            "",
        ]
    )


def taking_turns(
    store: PostgresStore,
    conn: Any,
    next_patch: Callable[[], dict[str, Any]],
    hand_written_on: Callable[[Any], object],
) -> list[Any]:
    """Two writers taking turns on one row: two stores, and two hand-written connections."""
    turn = [0]
    with PostgresStore() as other, psycopg.connect() as conn2:
        stores, conns = (store, other), (conn, conn2)

        def statecore_turns() -> object:
            turn[0] += 1
            return stores[turn[0] % 2].update(
                "bench/.fctry/state.json", "fctry.state", next_patch()
            )

        def hand_turns() -> object:
            turn[0] += 1
            return hand_written_on(conns[turn[0] % 2])

        log("store: two writers taking turns on one row")
        return compare(
            [
                Case(
                    "PostgresStore.update, 2 stores taking turns (statecore)",
                    statecore_turns,
                    statecore=True,
                ),
                Case("psycopg FOR UPDATE + json + dict merge, 2 connections", hand_turns),
            ]
        )


def main() -> None:
    given = os.environ.get("STATECORE_PG_ENV")
    work = tempfile.mkdtemp(prefix="statecore-bench-pg-")
    if not given:
        script = ROOT / "scripts" / "pg-server.sh"
        subprocess.run(
            ["bash", str(script), "start", f"{work}/pg", str(os.getpid())],
            check=True,
            stdout=2,
        )
        given = f"{work}/pg/env"
    env = dict(
        w.split("=", 1) for w in Path(given).read_text().replace("export ", "").split()
    )
    os.environ.update(env)
    try:
        state = json.loads((FIXTURES / "fctry_state.json").read_text())
        patch = json.loads((FIXTURES / "patch.json").read_text())
        with PostgresStore() as store, psycopg.connect() as conn:
            conn.execute(
                "CREATE TABLE IF NOT EXISTS bench_docs (key text PRIMARY KEY, text text NOT NULL)"
            )
            conn.execute(
                "INSERT INTO bench_docs VALUES ('s', %s) ON CONFLICT (key) DO UPDATE "
                "SET text = EXCLUDED.text",
                (json.dumps(state, indent=2) + "\n",),
            )
            conn.commit()
            store.update("bench/.fctry/state.json", "fctry.state", state)

            count = [0]

            def next_patch() -> dict[str, Any]:
                """The patch with a new counter: every update changes the row (and is written)."""
                count[0] += 1
                return deep_merge(patch, {"progress": {"done": count[0]}})

            def statecore_update() -> object:
                return store.update(
                    "bench/.fctry/state.json", "fctry.state", next_patch()
                )

            def hand_written_on(on: Any) -> object:
                with on.transaction():
                    row = on.execute(
                        "SELECT text FROM bench_docs WHERE key = 's' FOR UPDATE"
                    ).fetchone()
                    doc = deep_merge(json.loads(row[0]), next_patch())
                    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
                    on.execute("UPDATE bench_docs SET text = %s WHERE key = 's'", (text,))
                return doc

            def hand_written() -> object:
                return hand_written_on(conn)

            got = statecore_update()
            count[0] -= 1  # the same patch for the check
            same_json("store update", got["document"], hand_written())  # type: ignore[index]
            log("store: PostgresStore.update vs psycopg SELECT ... FOR UPDATE")
            cases = compare(
                [
                    Case(
                        "PostgresStore.update (statecore)",
                        statecore_update,
                        statecore=True,
                    ),
                    Case("psycopg FOR UPDATE + json + dict merge", hand_written),
                ]
            )
            turns = taking_turns(store, conn, next_patch, hand_written_on)
            latency = watch_latency(store, 50 if "--quick" in sys.argv else 300)
        print(
            table(
                "Python PostgreSQL update (a fctry state, one row)",
                "One update of the same row in one transaction, the server on this machine "
                "(127.0.0.1, fsync on). statecore also validates the document and computes its "
                "etag; the hand-written one does neither.",
                cases,
            )
        )
        print(
            table(
                "Python PostgreSQL update, two writers taking turns (one row)",
                "As above, but two stores (two connections) update the row in turn, so each "
                "finds it changed since its own last write: the text a store keeps is stale "
                "every time and its compare-and-swap returns the row instead (docs/store.md § "
                "Updates).",
                turns,
            )
        )
        print(latency)
    finally:
        if Path(f"{work}/pg").exists():
            subprocess.run(
                ["bash", str(ROOT / "scripts" / "pg-server.sh"), "stop", f"{work}/pg"],
                check=True,
            )
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
