"""Resident documents (docs/api.md § Resident documents): the base class of the per-kind
classes of ``statecore._generated.documents``, over the native ``Document``."""

from __future__ import annotations

from statecore._host import runtime as _rt

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, TypedDict, cast

    from typing_extensions import Self

    from statecore._statecore import Document as _Native
    from statecore.types import Issue, Json, MergeOptions, Report

    class DocumentChange(TypedDict):
        """What a change of a resident document reports."""

        changed: bool
        """True when the document changed (its canonical text is not what it was)."""
        warnings: list[Issue]
        """The new document's validation warnings."""

else:
    from statecore._host.runtime import cast

    # At run time the reports are plain dicts (``typing`` is slow to import).
    DocumentChange = dict


class Document:
    """A document kept by the core between calls: a change or a read crosses with its
    arguments and its answer only. A change that would make the document invalid raises
    ``ValidationError`` and leaves it as it was. ``open_document`` and ``resident_document``
    make them, of the class of their kind."""

    __slots__ = ("_native",)

    _native: _Native

    @classmethod
    def _wrap(cls, native: _Native) -> Self:
        document = object.__new__(cls)
        document._native = native
        return document

    def __init__(self) -> None:
        raise TypeError("use open_document(kind, data) or resident_document(kind, document)")

    @property
    def kind(self) -> str:
        """Its kind."""
        return self._native.kind

    def get(self, pointer: str = "") -> Json:
        """The value at a JSON pointer (``""``: the whole document; None when there is none)."""
        return cast("Json", self._native.get(pointer))

    def to_python(self) -> Json:
        """The whole document (a copy, as dicts and lists)."""
        return cast("Json", self._native.get(""))

    def text(self) -> str:
        """Its canonical text (what a file of it holds)."""
        return self._native.text()

    def validate(self) -> Report:
        """Its validation report."""
        return cast("Report", self._native.validate())

    def merge(
        self,
        patch: Mapping[str, object] | list[object] | None,
        options: MergeOptions | None = None,
        **keywords: Any,
    ) -> DocumentChange:
        """Merges ``patch`` (as ``merge`` does, with ``options`` or the keywords ``strategy``,
        ``rules``, ``stamp``), then validates."""
        return self._change("merge", (patch, _rt.options("options", options, **keywords)))

    def replace(self, document: object) -> DocumentChange:
        """Replaces the document with ``document``, then validates."""
        return self._change("", (document,))

    def change(self, op: str, *args: object) -> DocumentChange:
        """Runs the writer ``op`` of the table (its table name, e.g. ``"hivemind_on_file"``)
        with its arguments after the document."""
        return self._change(op, args)

    def query(self, op: str, *args: object) -> Json:
        """Runs the reader ``op`` of the table (its table name) with its arguments after the
        document."""
        return cast("Json", self._query(op, args))

    def _change(self, op: str, args: tuple[object, ...]) -> DocumentChange:
        return cast("DocumentChange", self._native.change(op, args, _rt.clock()))

    def _query(self, op: str, args: tuple[object, ...]) -> Any:
        return self._native.query(op, args, _rt.clock())

    def __repr__(self) -> str:
        return f"<statecore resident {self.kind} document>"
