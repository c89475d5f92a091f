"""statecore: JSON state documents with a Rust core.

Every operation is declared once, in the core's operation table, and generated here
(``statecore._generated``): the pure functions (``parse``, ``merge``, ``validate``, ...),
``statecore.machine`` (state machines), ``statecore.hive`` (hive sessions), ``statecore.specify``
(the specify workflow's index.md), and the protocols
``statecore.fctry``, ``statecore.hivemind`` and ``statecore.agency``, whose functions also run
on a directory's files (locked, atomic, one crossing into the core per update). The host functions
(``read_document``, ``update_document``, ``append_line``, ``repair_log``, ``read_log``) do
safe file I/O.
Documents are plain ``dict``/``list``/``str``/``int``/``float``/``bool``/``None`` values; the
API is the same as in every other language (docs/api.md); ``statecore.types`` names the
documents' types for annotations.
"""

from __future__ import annotations

from statecore import _statecore, agency, fctry, hive, hivemind, lock, machine, specify
from statecore._generated.documents import *  # noqa: F403 (a class per kind, open_document, ...)
from statecore._generated.documents import __all__ as _documents
from statecore._generated.root import *  # noqa: F403
from statecore._generated.root import __all__ as _operations
from statecore._generated.tables import CONSTANTS
from statecore._host.document import Document
from statecore._host.routines import query_file, update_file
from statecore.errors import *  # noqa: F403 (the exception classes, generated)
from statecore.errors import __all__ as _errors
from statecore.host import (
    Watcher,
    append_line,
    read_document,
    read_log,
    repair_log,
    update_document,
    watch,
)

__version__: str = _statecore.__version__

__all__ = [
    *_operations,
    *_documents,
    *(name for name in _errors if name.endswith("Error")),
    "CONSTANTS",
    "Document",
    "__version__",
    "agency",
    "append_line",
    "fctry",
    "hive",
    "hivemind",
    "lock",
    "machine",
    "query_file",
    "read_document",
    "read_log",
    "repair_log",
    "specify",
    "update_document",
    "update_file",
    "watch",
    "Watcher",
]
