"""The command line's facts from a store (docs/store.md § Store URLs): a path the core asks
about that is a store URL (``postgresql://host/database/KEY``) is read, listed and written in
that PostgreSQL store instead of the file system, with the same facts a file would give: a
document's text, a log's text as a file of its lines (pages by byte offset, as a file's), a
key with keys below it a directory. Each store is connected once per process. The npm twin is
``npm/lib/cli/store.cjs``."""

from __future__ import annotations

from statecore._cli.run import name_wanted
from statecore._generated.root import cli_store_read, store_url
from statecore.errors import StatecoreError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any

    from statecore.store import PostgresStore
    from statecore.types import CliDir, CliFile, CliNeed, CliWrite

#: The stores connected so far, by connection string.
_STORES: dict[str, PostgresStore] = {}


def is_store(path: str) -> bool:
    """Whether ``path`` is a store URL (a cheap test: the core's ``store_url`` decides)."""
    return path.startswith(("postgresql://", "postgres://"))


def _open(path: str) -> tuple[PostgresStore, str, str]:
    """The store of a URL (connected once), its key and its connection string."""
    split = store_url(path)
    assert split is not None  # is_store(path)
    conninfo = split["conninfo"]
    store = _STORES.get(conninfo)
    if store is None:
        from statecore.store import PostgresStore

        store = _STORES[conninfo] = PostgresStore(conninfo)
    return store, split["key"], conninfo


def read_fact(path: str, limit: int | None, offset: int | None) -> CliFile:
    """What a file at ``path`` would be: a document's text, a log's (or a page of it), a
    directory when keys are below it, or missing. The core decides from the store's rows
    (``cli_store_read``); a log's lines are read when it asks for them."""
    try:
        store, key, _ = _open(path)
        with store._guard("read", key):
            found = store._run("cli_read", key, key + "/" if key else "").fetchone()
        columns = ("text", "mtime", "log_bytes", "log_mtime", "directory")
        row: Any = dict(zip(columns, found))
        read = cli_store_read(row, offset, limit)
        if "fact" in read:
            return read["fact"]
        page = read["log_page"]
        with store._guard("read", key):
            lines = store._run("read_log_page", key, page["from"], page["bytes"]).fetchall()
        log: Any = [{"text": text, "end_offset": end} for text, end in lines]
        return cli_store_read(row, offset, limit, log)["fact"]
    except StatecoreError as error:
        return {"error": "unreadable", "message": f"{error.code}: {error.message}"}


def list_fact(path: str, names: Sequence[str] | None) -> CliDir:
    """The keys below ``path`` named one of ``names`` (every one when None), as store URLs."""
    try:
        store, key, conninfo = _open(path)
        prefix = key + "/" if key else ""
        wanted = None if names is None else set(names)
        found = [
            f"{conninfo}/{k}"
            for k in store._keys(prefix)
            if name_wanted(wanted, k.rsplit("/", 1)[-1])
        ]
        return {"files": found}
    except StatecoreError as error:
        return {"message": f"{error.code}: {error.message}"}


def look_fact(path: str, names: Sequence[str] | None) -> dict[str, str]:
    """The records of what a watched store URL names now (``_cli_follow.look``): the key
    itself, or the keys below it named one of ``names`` (every one when None), by URL: a
    document's etag, a log's length. Nothing when nothing is there or the store cannot be
    read (the path is then watched as missing)."""
    try:
        store, key, conninfo = _open(path)
        with store._guard("read", key):
            rows = store._run("cli_look", key, key + "/" if key else "").fetchall()
    except StatecoreError:
        return {}
    wanted = None if names is None else set(names)
    return {
        f"{conninfo}/{found}": record
        for found, record in rows
        if found == key or name_wanted(wanted, found.rsplit("/", 1)[-1])
    }


def write_fact(need: CliNeed) -> CliWrite:
    """Carries out a write the core asked for on the store and gives its result or its error:
    an update, or an append as the kind the core names (it asks for nothing else on a store
    URL)."""
    timeout_ms = need.get("timeout_ms")
    try:
        store, key, _ = _open(need["path"])
        if need["op"] == "append":
            store.append(key, need["kind"], need.get("record"))
            return {"warnings": [], "corrupt_copy": None}
        result: Any = store.change(
            key,
            need["kind"],
            need.get("change", ""),
            tuple(need.get("args", [])),
            now=need.get("now"),
            if_match=need.get("if_match"),
            timeout=None if timeout_ms is None else timeout_ms / 1000,
        )
        fact: CliWrite = {
            "etag": result["etag"],
            "changed": result["changed"],
            "warnings": result["warnings"],
            "corrupt_copy": None,
        }
        for extra in ("item", "result"):
            if extra in result:
                fact[extra] = result[extra]
        return fact
    except StatecoreError as error:
        return {"error": {"code": error.code, "path": error.path, "message": error.message}}
