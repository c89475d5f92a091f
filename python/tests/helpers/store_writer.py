"""Test helper: a writer of the PostgreSQL store (``PG*`` environment). argv: ``update KEY N``
(N increments of ``n`` in the json document KEY), ``append LOG N WRITER`` (N hive events
``{"agent": WRITER, "details": {"i": i}}`` with ids ``WRITER-i``), ``inbox KEY N WRITER`` (N
fctry inbox items "WRITER i" added by the table's writer, a compare-and-swap tried without a
lock first: docs/store.md § Updates), or ``hold KEY`` (an update
whose function prints "holding" and then waits forever, inside the row's transaction).
Prints "done" at the end. The twin of npm/test/helpers/store_writer.cjs."""

from __future__ import annotations

import sys
import time

from statecore.store import PostgresStore


def main() -> None:
    mode, key = sys.argv[1], sys.argv[2]
    with PostgresStore() as store:
        if mode == "update":
            for _ in range(int(sys.argv[3])):
                store.update(key, "json", lambda doc: {**doc, "n": doc.get("n", 0) + 1})
        elif mode == "append":
            writer = sys.argv[4]
            for i in range(int(sys.argv[3])):
                event = {
                    "timestamp": "2026-11-25T10:00:00Z",
                    "type": "progress",
                    "agent": writer,
                    "details": {"i": i},
                }
                store.append(key, "hive.event", event, id=f"{writer}-{i}")
        elif mode == "inbox":
            writer = sys.argv[4]
            for i in range(int(sys.argv[3])):
                args = (
                    "evolve",
                    f"{writer} {i}",
                    "2026-11-25T10:00:00Z",
                    f"{writer}{i:0{6 - len(writer)}d}",
                )
                store.change(key, "fctry.inbox", "fctry_inbox_add", args)
        elif mode == "hold":

            def hold(doc: dict[str, object]) -> dict[str, object]:
                print("holding", flush=True)
                time.sleep(3600)
                return {**doc, "held": True}

            store.update(key, "json", hold)
    print("done", flush=True)


if __name__ == "__main__":
    main()
