//! Python: the package's generated files other than the modules' functions: the exception
//! classes (`statecore/errors.py`), the native module's stub (`statecore/_statecore.pyi`), the
//! host tables and `read_document`/`update_document` (`statecore/_generated/`).

use crate::py::{kind_doc, with_imports};
use crate::py_types::{nullable, HEADER};
use statecore::error::CLASSES;
use statecore::kinds::KINDS;
use statecore::ops;
use statecore_cli::TABLE;
use std::fmt::Write as _;

/// `statecore/errors.py`.
pub fn errors_py() -> String {
    let mut out = String::from(HEADER);
    out.push_str(ERRORS_HEAD);
    for class in CLASSES.iter().skip(1) {
        let codes: Vec<String> = statecore::Code::ALL
            .iter()
            .filter(|c| c.class_name() == class.name)
            .map(|c| format!("{:?}", c.as_str()))
            .collect();
        let mut bases = vec!["StatecoreError".to_owned()];
        bases.extend(class.python_bases.iter().map(|b| (*b).to_owned()));
        let _ = writeln!(
            out,
            "\n\nclass {}({}):\n    \"\"\"{}\"\"\"\n\n    codes = ({},)",
            class.name,
            bases.join(", "),
            wrap(&class.doc.replace('`', "``"), 4),
            codes.join(", ")
        );
        if class.name == "ValidationError" {
            out.push_str(
                "\n    @property\n    def report(self) -> dict[str, Any]:\n        \"\"\"The whole report: ``{valid, errors, warnings}``.\"\"\"\n        return self.details\n",
            );
        }
    }
    let names: Vec<&str> = CLASSES.iter().skip(1).map(|c| c.name).collect();
    let _ = writeln!(
        out,
        "\n\n#: Every code and the class raised for it.\nCLASSES: dict[str, type[StatecoreError]] = {{\n    code: cls\n    for cls in (\n{}    )\n    for code in cls.codes\n}}\n\n\ndef error_class(code: str) -> type[StatecoreError]:\n    \"\"\"The class raised for ``code`` (``StatecoreError`` for a code this version lacks).\"\"\"\n    return CLASSES.get(code, StatecoreError)",
        names.iter().map(|n| format!("        {n},\n")).collect::<String>()
    );
    let mut all: Vec<&str> = vec!["CLASSES", "StatecoreError", "error_class"];
    all.extend(names);
    all.sort_unstable();
    let _ = writeln!(
        out,
        "\n\n__all__ = [\n{}]",
        all.iter()
            .map(|n| format!("    {n:?},\n"))
            .collect::<String>()
    );
    out
}

/// A docstring's text wrapped at 96 columns, its lines after the first indented by `indent`.
fn wrap(text: &str, indent: usize) -> String {
    let mut lines: Vec<String> = vec![String::new()];
    for word in text.split_whitespace() {
        let width = indent + 3 + lines.last().map_or(0, String::len);
        if width + word.len() + 1 > 96 && lines.last().is_some_and(|l| !l.is_empty()) {
            lines.push(String::new());
        }
        if let Some(line) = lines.last_mut() {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines.join(&format!("\n{}", " ".repeat(indent)))
}

const ERRORS_HEAD: &str = "\"\"\"The statecore exception classes (docs/api.md, \"Errors\").

They are defined here, in Python, and the native module raises them by name (the core's
class name of each code), so one abi3 wheel serves every Python version and ``except``
clauses work as usual. Every error has a stable ``code`` (``\"E_PARSE\"``, ...), a JSON-pointer
``path`` (``\"\"`` is the whole document), a one-line ``message`` and structured ``details``.
Classes whose cause is a bad argument also subclass ``ValueError``.
\"\"\"

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar


class StatecoreError(Exception):
    \"\"\"Base class of every statecore error.

    ``StatecoreError(message, code=None, path=\"\", details=None)``; ``code`` defaults to the
    first code of the class (``codes[0]``).
    \"\"\"

    #: The codes this class is raised for, first one the default.
    codes: ClassVar[tuple[str, ...]] = ()

    code: str
    path: str
    message: str
    details: dict[str, Any]

    def __init__(
        self,
        message: str,
        code: str | None = None,
        path: str = \"\",
        details: dict[str, Any] | None = None,
    ) -> None:
        if code is None:
            if not self.codes:
                raise TypeError(f\"{type(self).__name__} needs an error code\")
            code = self.codes[0]
        super().__init__(message)
        self.message = message
        self.code = code
        self.path = path
        self.details = {} if details is None else details

    def __str__(self) -> str:
        where = f\" at {self.path}\" if self.path else \"\"
        return f\"{self.code}{where}: {self.message}\"

    def __repr__(self) -> str:
        return f\"{type(self).__name__}({self.message!r}, code={self.code!r}, path={self.path!r})\"

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message, self.code, self.path, self.details))
";

/// `statecore/_statecore.pyi`.
pub fn native_pyi() -> String {
    let mut out = String::from(HEADER);
    out.push_str(
        "\"\"\"The native module of statecore (PyO3). Use the ``statecore`` package, not this directly:\n\
         its functions name an operation of the core's table and pass its arguments.\"\"\"\n\n\
         from typing import Any, final\n\n\
         __all__ = [\n    \"Document\",\n    \"Job\",\n    \"LogReplay\",\n    \"__version__\",\n    \"call\",\n    \"query\",\n    \"update\",\n    \"update_job\",\n    \"update_logged\",\n]\n\n\
         __version__: str\n\n\
         def call(op: str, args: tuple[object, ...], now: int | None = None) -> Any: ...\n\
         def update(\n    kind: str,\n    op: str,\n    data: str | bytes | None,\n    args: tuple[object, ...],\n    now: object,\n    if_match: str | None = None,\n    reset: bool = False,\n) -> Any: ...\n\
         def update_job(\n    kind: str,\n    op: str,\n    path: str,\n    args: tuple[object, ...],\n    now: object,\n    if_match: str | None,\n    reset: bool,\n    waiter: object,\n    seed: bytes,\n) -> Job: ...\n\
         def query(\n    kind: str, op: str, data: str | bytes | None, args: tuple[object, ...], now: int | None = None\n) -> Any: ...\n\
         def update_logged(\n    kind: str,\n    session_id: str,\n    change_name: str,\n    data: str | bytes | None,\n    log_size: int,\n    args: tuple[object, ...],\n    now: object,\n    event_id: str | None = None,\n) -> Any: ...\n\n\
         @final\n\
         class LogReplay:\n\
         \x20   def __new__(\n        cls, kind: str, session_id: str, data: str | bytes | None, offset: int, corrupt: bool\n    ) -> LogReplay: ...\n\
         \x20   def feed(self, chunk: bytes) -> None: ...\n\
         \x20   def commit(\n        self,\n        change_name: str,\n        args: tuple[object, ...],\n        now: object,\n        event_id: str | None = None,\n    ) -> Any: ...\n\n\
         @final\n\
         class Job:\n\
         \x20   @property\n\
         \x20   def first(self) -> Any: ...\n\
         \x20   def next(self, answer: object, data: bytes | None = None) -> Any: ...\n\n\
         @final\n\
         class Document:\n\
         \x20   def __new__(cls, kind: str, document: object) -> Document: ...\n\
         \x20   @staticmethod\n\
         \x20   def open(kind: str, data: str | bytes | None = None) -> tuple[Document, Any]: ...\n\
         \x20   @property\n\
         \x20   def kind(self) -> str: ...\n\
         \x20   def get(self, pointer: str = \"\") -> Any: ...\n\
         \x20   def text(self) -> str: ...\n\
         \x20   def validate(self) -> Any: ...\n\
         \x20   def change(self, op: str, args: tuple[object, ...], now: int | None = None) -> Any: ...\n\
         \x20   def query(self, op: str, args: tuple[object, ...], now: int | None = None) -> Any: ...\n",
    );
    out
}

/// `statecore/_generated/tables.py`: the hosts' options and constants of the core.
pub fn tables_py() -> String {
    let mut out = String::from(HEADER);
    out.push_str("\"\"\"The core's host options and constants, for the host layer (statecore/_host/documents.py).\"\"\"\n\nfrom __future__ import annotations\n\nfrom types import MappingProxyType\n\nTYPE_CHECKING = False\nif TYPE_CHECKING:\n    from collections.abc import Mapping\n\n");
    out.push_str("#: The keys of each host options set (a misspelt key is E_OPTIONS, from the core).\nHOST_OPTIONS: dict[str, tuple[str, ...]] = {\n");
    for (name, shape) in ops::HOST_OPTIONS {
        let keys: Vec<String> = shape
            .fields
            .iter()
            .map(|f| format!("{:?}", f.name))
            .collect();
        let _ = writeln!(out, "    {name:?}: ({},),", keys.join(", "));
    }
    out.push_str("}\n");
    for c in TABLE.constants() {
        let _ = writeln!(out, "#: {}\n{} = {}", c.doc, c.name.to_uppercase(), c.value);
    }
    out.push_str(
        "#: The hosts' constants by name (``statecore.CONSTANTS``), declared once in the core.\nCONSTANTS: Mapping[str, int] = MappingProxyType({\n",
    );
    for c in TABLE.constants() {
        let _ = writeln!(out, "    {:?}: {},", c.name, c.value);
    }
    out.push_str("})\n");
    let _ = writeln!(
        out,
        "#: {}\nSKIPPED_DIRECTORIES: frozenset[str] = frozenset({{{}}})",
        crate::names::SKIPPED_DOC,
        crate::names::quoted(&statecore::watch::SKIPPED_DIRECTORIES)
    );
    out.push_str(
        "#: The event log kept with each kind's file (its steps append their line to it).\nLOGS: Mapping[str, str] = MappingProxyType({\n",
    );
    for kind in KINDS {
        if let Some(log) = kind.file.as_ref().and_then(|f| f.log) {
            let _ = writeln!(out, "    {:?}: {:?},", kind.name, log.name);
        }
    }
    out.push_str("})\n");
    out
}

/// `statecore/_generated/host.py`: `read_document` and `update_document` with one overload
/// per document kind (the document's type follows the kind literal).
pub fn host_py() -> String {
    let mut out = String::from(HEADER);
    out.push_str(
        "\"\"\"``read_document`` and ``update_document``: a document's type follows its kind.\"\"\"\n\n\
         from __future__ import annotations\n\n\
         {imports}",
    );
    for kind in KINDS {
        let _ = writeln!(out, "@overload\ndef read_document(path: StrPath, kind: Literal[{:?}]) -> LoadResult[{}]: ...", kind.name, kind_doc(kind));
    }
    let _ = write!(
        out,
        "def read_document(path: StrPath, kind: DocumentKind) -> Any:\n    \"\"\"{}\"\"\"\n    return _documents.read(kind, _documents.fspath(path))\n\n",
        routine_doc("read_document")
    );
    for kind in KINDS {
        let doc = kind_doc(kind);
        let _ = writeln!(
            out,
            "@overload\ndef update_document(\n    path: StrPath,\n    kind: Literal[{:?}],\n    patch_or_function: Mapping[str, object] | list[object] | Callable[[{doc}], {}],\n    options: MergeOptions | None = None,\n    **keywords: Unpack[UpdateKeywords],\n) -> FileResult[{doc}, None]: ...",
            kind.name,
            nullable(&doc)
        );
    }
    let _ = write!(
        out,
        "def update_document(\n    path: StrPath,\n    kind: DocumentKind,\n    patch_or_function: Any,\n    options: MergeOptions | None = None,\n    **keywords: Any,\n) -> Any:\n    \"\"\"{}\"\"\"\n    return _documents.update_document(path, kind, patch_or_function, options, keywords)\n\n\n__all__ = [\"read_document\", \"update_document\"]\n",
        routine_doc("update_document")
    );
    with_imports(&out)
}

/// A host routine's doc (the host-routine table) as a docstring's text, in Python's words:
/// ``code``, snake_case, null as None.
fn routine_doc(name: &str) -> String {
    let text = statecore::ops::ROUTINES
        .iter()
        .find(|r| r.name == name)
        .map(|r| r.doc)
        .unwrap_or_default()
        .replace('`', "``")
        .replace(" null", " None");
    format!("{}\n    ", wrap(&text, 4))
}

/// `statecore/_generated/__init__.py`.
pub fn package_init() -> String {
    format!("{HEADER}\"\"\"The parts of statecore generated from the core's operation table (`xtask codegen`).\"\"\"\n")
}
