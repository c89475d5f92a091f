"""The file store (docs/store.md): documents and logs as files under a directory, behind the
interface ``PostgresStore`` also has (``statecore.store`` exports both)."""

from __future__ import annotations

import os

from statecore._generated.host import read_document, update_document
from statecore._generated.root import store_key, validate
from statecore._generated.tables import LOGS
from statecore._host import documents as _documents
from statecore._host import runtime as _runtime
from statecore._host import sessions as _sessions
from statecore._host.logs import append_line, read_log
from statecore.errors import ValidationError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    from statecore._generated.host_types import AppendResult, FileResult
    from statecore.types import DocumentKind, Json, LoadResult, Now


class FileStore:
    """Documents and logs as files under ``root``: a key is a path below it (today's behaviour:
    locked, atomic, ``.corrupt-`` copies; docs/locking.md)."""

    def __init__(self, root: str | os.PathLike[str] = ".") -> None:
        self.root = os.path.abspath(os.fspath(root))

    def path(self, key: str) -> str:
        """The file of ``key`` (checked: ``E_PATH_UNSAFE``)."""
        return os.path.join(self.root, *store_key(key).split("/"))

    def read(
        self, key: str, kind: DocumentKind, *, timeout: float | None = None
    ) -> LoadResult[Any]:
        """The document at ``key`` with its etag (the default document when there is none); a
        hive session's state as ``read_state`` reads it, rebuilt from its log when behind
        (``timeout``: seconds to wait for its lock then; other reads take no lock)."""
        if kind in LOGS:
            options = {} if timeout is None else {"timeout": timeout}
            result: LoadResult[Any] = _documents.read_logged(kind, self.path(key), options)
            return result
        loaded: LoadResult[Any] = read_document(self.path(key), kind)
        return loaded

    def query(self, key: str, kind: DocumentKind, op: str, args: tuple[object, ...] = ()) -> Any:
        """A reader of the table (``"fctry_context_health"``) on the document at ``key``, its
        ``args`` after the document."""
        return _documents.query(kind, self.path(key), op, args)

    def update(
        self,
        key: str,
        kind: DocumentKind,
        patch_or_function: object,
        merge: Mapping[str, object] | None = None,
        **options: Any,
    ) -> FileResult[Any, None]:
        """A locked read-merge-validate-write of the file (``update_document``)."""
        path = self.path(key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        update: Any = update_document
        result: FileResult[Any, None] = update(path, kind, patch_or_function, merge, **options)
        return result

    def change(
        self,
        key: str,
        kind: DocumentKind,
        change: str,
        args: tuple[object, ...] = (),
        *,
        now: Now | None = None,
        **options: Any,
    ) -> FileResult[Any, Any]:
        """A change the core names applied to the file under its lock (as
        :meth:`PostgresStore.change`); ``if_match``, ``timeout``, ``reset`` as for updates."""
        path = self.path(key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if kind in LOGS:
            timeout = _runtime.timeout_seconds(
                _runtime.check_options("logged", options).get("timeout")
            )
            stepped: FileResult[Any, Any] = _sessions.step(
                kind, path, LOGS[kind], change, args, now, timeout
            )
            return stepped
        result: FileResult[Any, Any] = _documents.update(
            kind, path, change, args, now, _documents._Host(options)
        )
        return result

    def append(
        self, log: str, kind: DocumentKind, value: Json, *, timeout: float | None = None
    ) -> AppendResult:
        """Validates ``value`` as ``kind`` and appends it to the log's file in one write, under
        its lock (``timeout``: seconds to wait for it; no ``id``: exactly once is
        ``PostgresStore``'s)."""
        _check_record(kind, value)
        path = self.path(log)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        return append_line(path, value, timeout=timeout)

    def read_log(self, log: str) -> list[Json]:
        """The log's records, in order (a torn last line is left out)."""
        return read_log(self.path(log))["records"]

    def close(self) -> None:
        """Nothing to release (files are opened per call): as ``PostgresStore.close``, so
        that code written for one store runs on the other."""


def _check_record(kind: DocumentKind, value: object) -> None:
    """Refuses a record its kind's rules refuse (``E_INVALID``), before anything is written."""
    report = validate(kind, value)
    if not report["valid"]:
        first = report["errors"][0]
        raise ValidationError(
            f"refused to append an invalid {kind} record: {first['code']} at "
            f"{first['path']!r}: {first['message']}; nothing was written",
            "E_INVALID",
            first["path"],
            dict(report),
        )
