//! Python: the exception classes (`statecore/errors.py`), the native module's stub
//! (`statecore/_statecore.pyi`), and the functions of every module with their helpers
//! (`statecore/_generated/<module>.py`), from the core's table.

use crate::helpers::{files, helpers, Helper};
use crate::names::modules;
use crate::py_types::{nullable, ty, Side, HEADER};
use statecore::error::CLASSES;
use statecore::kinds::KINDS;
use statecore::ops::{self, Form, Kind, Module, Op, Param};
use statecore::shape::Ty;
use std::collections::BTreeSet;
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
         from typing import Any\n\n\
         __all__ = [\"__version__\", \"call\", \"query\", \"update\"]\n\n\
         __version__: str\n\n\
         def call(op: str, args: tuple[object, ...], now: int | None = None) -> Any: ...\n\
         def update(\n    kind: str,\n    op: str,\n    data: str | bytes | None,\n    args: tuple[object, ...],\n    now: object,\n    if_match: str | None = None,\n) -> Any: ...\n\
         def query(\n    kind: str, op: str, data: str | bytes | None, args: tuple[object, ...], now: int | None = None\n) -> Any: ...\n",
    );
    out
}

/// A parameter in a Python signature.
fn param_type(p: &Param) -> String {
    match p.kind {
        Kind::Bytes | Kind::Random => "str | bytes".into(),
        Kind::Now => "Now".into(),
        Kind::Options(shape) => shape.name.into(),
        _ => ty(&p.ty, Side::In),
    }
}

/// The parameter list (from the `skip`-th on); defaults only on trailing optional ones;
/// options parameters also as keyword arguments after `*`.
fn signature(params: &[Param], skip: usize, first: Option<String>) -> (String, Vec<&Param>) {
    let list = params.get(skip..).unwrap_or_default();
    let mut out: Vec<String> = first.into_iter().collect();
    let mut keywords = Vec::new();
    for (i, p) in list.iter().enumerate() {
        let trailing = list.iter().skip(i).all(|q| q.optional);
        let mut t = param_type(p);
        if p.optional {
            t = nullable(&t);
        }
        let default = if trailing && p.optional {
            " = None"
        } else {
            ""
        };
        out.push(format!("{}: {t}{default}", p.name));
        if let Kind::Options(shape) = p.kind {
            for f in shape.fields {
                keywords.push(format!(
                    "{}: {} = None",
                    f.name,
                    nullable(&ty(&f.ty, Side::In))
                ));
            }
        }
    }
    if !keywords.is_empty() {
        out.push("*".into());
        out.extend(keywords);
    }
    (out.join(", "), list.iter().collect())
}

/// The call's argument tuple (options built from their keywords).
fn arg_tuple(params: &[&Param]) -> String {
    let items: Vec<String> = params
        .iter()
        .map(|p| match p.kind {
            Kind::Options(shape) => {
                let keywords: Vec<String> = shape
                    .fields
                    .iter()
                    .map(|f| format!("{0}={0}", f.name))
                    .collect();
                format!(
                    "_rt.options({:?}, {}, {})",
                    p.name,
                    p.name,
                    keywords.join(", ")
                )
            }
            Kind::Random => format!("_rt.random({})", p.name),
            _ => p.name.to_owned(),
        })
        .collect();
    match items.len() {
        0 => "()".into(),
        1 => format!("({},)", items.join("")),
        _ => format!("({})", items.join(", ")),
    }
}

fn result_type(op: &Op) -> String {
    match op.returns.form {
        Form::Nothing => "None".into(),
        Form::Text => "str".into(),
        Form::Json => ty(&op.returns.ty, Side::Out),
    }
}

fn now_arg(op: &Op) -> &'static str {
    if op.params.iter().any(|p| matches!(p.kind, Kind::Now)) {
        ", _rt.clock()"
    } else {
        ""
    }
}

fn docstring(text: &str) -> String {
    format!(
        "    \"\"\"{}\"\"\"\n",
        text.replace('\\', "\\\\").replace('`', "``")
    )
}

/// A pure function, with one overload per kind when it takes a document kind.
fn pure(out: &mut String, op: &Op) {
    let (sig, params) = signature(op.params, 0, None);
    let mut result = result_type(op);
    let call = format!(
        "_call({:?}, {}{})",
        op.name(),
        arg_tuple(&params),
        now_arg(op)
    );
    let by_kind = matches!(op.returns.ty, Ty::KindDoc | Ty::Apply(_, Ty::KindDoc));
    if by_kind {
        for kind in KINDS {
            let doc_type = kind_doc(kind);
            let sig_k = sig.replacen(
                "kind: DocumentKind",
                &format!("kind: Literal[{:?}]", kind.name),
                1,
            );
            let _ = writeln!(
                out,
                "@overload\ndef {}({sig_k}) -> {}: ...",
                op.method,
                result.replace("Json", &doc_type)
            );
        }
        result = "Any".into();
    }
    let _ = writeln!(out, "def {}({sig}) -> {result}:", op.method);
    out.push_str(&docstring(op.doc));
    match op.returns.form {
        Form::Nothing => {
            let _ = writeln!(out, "    {call}\n");
        }
        _ if by_kind => {
            let _ = writeln!(out, "    return {call}\n");
        }
        _ => {
            let _ = writeln!(out, "    return cast({result:?}, {call})\n");
        }
    }
}

/// The Python type of a kind's documents.
fn kind_doc(kind: &statecore::kinds::Kind) -> String {
    let t = ty(&kind.root, Side::Out);
    if (kind.default)().is_null() {
        nullable(&t)
    } else {
        t
    }
}

/// The path components of a helper's file, as a Python tuple.
fn parts(h: &Helper) -> String {
    let items: Vec<String> = h.file.file.path.iter().map(|p| format!("{p:?}")).collect();
    format!("({},)", items.join(", "))
}

/// A helper's result type.
fn helper_result(h: &Helper) -> String {
    let doc_type = kind_doc(h.file.kind);
    match h.write {
        Some(write) if write.document_at.is_some() => {
            format!(
                "FileResult[{doc_type}, {}]",
                ty(&h.op.returns.ty, Side::Out)
            )
        }
        Some(_) => format!("FileResult[{doc_type}, None]"),
        None => result_type(h.op),
    }
}

/// A function that is a pure operation on a document or, given a directory, its helper on
/// the directory's file (the choice is made on the first argument's type only).
fn dual(out: &mut String, op: &Op, h: &Helper) {
    let (sig, params) = signature(op.params, 1, None);
    let first = op.params.first().map_or("state", |p| p.name);
    let doc_in = op
        .params
        .first()
        .map_or("object".into(), |p| nullable(&ty(&p.ty, Side::In)));
    let rest = if sig.is_empty() {
        String::new()
    } else {
        format!(", {sig}")
    };
    let options = if h.write.is_some() {
        ", **options: Unpack[HelperOptions]"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "@overload\ndef {}({first}: StrPath{rest}{options}) -> {}: ...",
        op.method,
        helper_result(h)
    );
    let _ = writeln!(
        out,
        "@overload\ndef {}({first}: {doc_in}{rest}) -> {}: ...",
        op.method,
        result_type(op)
    );
    let any_options = if h.write.is_some() {
        ", **options: Any"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "def {}({first}: Any{rest}{any_options}) -> Any:",
        op.method
    );
    out.push_str(&docstring(&format!(
        "{} Given a directory (`str` or `os.PathLike`): the same on its `{}` file{}.",
        op.doc,
        h.file.file.path.join("/"),
        if h.write.is_some() {
            ", locked and atomic; `if_match` and `timeout` are its options"
        } else {
            ""
        }
    )));
    let args = arg_tuple(&params);
    let _ = writeln!(out, "    if _rt.is_path({first}):");
    match h.write {
        Some(_) => {
            let _ = writeln!(out, "        return _files.write({:?}, _files.path({first}, {}), {:?}, {args}, options)", h.file.kind.name, parts(h), op.name());
            let _ = writeln!(out, "    _rt.no_options(options)");
        }
        None => {
            let _ = writeln!(
                out,
                "        return _files.query({:?}, _files.path({first}, {}), {:?}, {args})",
                h.file.kind.name,
                parts(h),
                op.name()
            );
        }
    }
    let full = arg_tuple(&op.params.iter().collect::<Vec<_>>());
    let _ = writeln!(
        out,
        "    return _call({:?}, {full}{})\n",
        op.name(),
        now_arg(op)
    );
}

/// A helper with its own name (the operation is also a function of its own).
fn named_helper(out: &mut String, h: &Helper) {
    let base = h.file.file.base;
    let skip = usize::from(h.write.is_none_or(|w| w.takes_document));
    let (sig, params) = signature(h.op.params, skip, Some(format!("{base}: StrPath")));
    let options = if h.write.is_some() {
        ", **options: Unpack[HelperOptions]"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "def {}({sig}{options}) -> {}:",
        h.name,
        helper_result(h)
    );
    out.push_str(&docstring(&format!(
        "{} On the `{}` file of a {base}.",
        h.op.doc,
        h.file.file.path.join("/")
    )));
    let args = arg_tuple(&params);
    match (h.write, h.bytes) {
        (Some(_), _) => {
            let _ = writeln!(out, "    return cast({:?}, _files.write({:?}, _files.path({base}, {}), {:?}, {args}, options))\n", helper_result(h), h.file.kind.name, parts(h), h.op.name());
        }
        (None, _) => {
            let _ = writeln!(out, "    return cast({:?}, _files.query({:?}, _files.path({base}, {}), {:?}, {args}))\n", helper_result(h), h.file.kind.name, parts(h), h.op.name());
        }
    }
}

/// `statecore/_generated/<module>.py`.
pub fn module_py(module: Module) -> String {
    let mut out = String::from(HEADER);
    let title = if module == Module::Root {
        "statecore".to_owned()
    } else {
        format!("statecore.{}", module.name())
    };
    let _ = writeln!(
        out,
        "\"\"\"The functions of ``{title}``, one per operation of the core's table (docs/api.md).\"\"\"\n\n\
         from __future__ import annotations\n\n\
         {{imports}}"
    );
    let mut all: BTreeSet<String> = BTreeSet::new();
    let list = helpers(module);
    for op in ops::all().filter(|op| op.module == module) {
        match list
            .iter()
            .find(|h| h.op.name() == op.name() && h.name == op.method)
        {
            Some(h) => dual(&mut out, op, h),
            None => pure(&mut out, op),
        }
        all.insert(op.method.to_owned());
    }
    for h in list.iter().filter(|h| h.name != h.op.method) {
        named_helper(&mut out, h);
        all.insert(h.name.clone());
    }
    for f in files(module) {
        let name = f.file.name;
        let base = f.file.base;
        let doc_type = kind_doc(f.kind);
        let path: Vec<String> = f.file.path.iter().map(|p| format!("{p:?}")).collect();
        let _ = writeln!(
            out,
            "def {name}_path({base}: StrPath) -> str:\n    \"\"\"``<{base}>/{joined}``.\"\"\"\n    return _files.path({base}, ({path},))\n\n\
             def read_{name}({base}: StrPath) -> LoadResult[{doc_type}]:\n    \"\"\"Reads ``{joined}`` (a missing file reads as the kind's default; never writes).\"\"\"\n    return cast(\"LoadResult[{doc_type}]\", _files.read({kind:?}, {name}_path({base})))\n\n\
             def write_{name}(\n    {base}: StrPath, document: Mapping[str, object] | Sequence[object] | None, **options: Unpack[HelperOptions]\n) -> FileResult[{doc_type}, None]:\n    \"\"\"Replaces ``{joined}``'s document (validated; locked, atomic).\"\"\"\n    return cast(\"FileResult[{doc_type}, None]\", _files.write({kind:?}, {name}_path({base}), \"\", (document,), options))\n\n\
             def update_{name}(\n    {base}: StrPath,\n    patch_or_function: object,\n    now: Now | None = None,\n    **options: Unpack[HelperOptions],\n) -> FileResult[{doc_type}, None]:\n    \"\"\"A patch merged into ``{joined}`` (its protocol's merge), or a function of its document\n    that returns the new one (or changes it and returns ``None``); locked, atomic.\"\"\"\n    return cast(\"FileResult[{doc_type}, None]\", _files.patch({kind:?}, {name}_path({base}), patch_or_function, {patch}, now, options))\n",
            joined = f.file.path.join("/"),
            path = path.join(", "),
            kind = f.kind.name,
            patch = f.file.patch.map_or("None".to_owned(), |p| p.replace("null", "None").replace("true", "True").replace("false", "False")),
        );
        for verb in ["path", "read", "write", "update"] {
            all.insert(if verb == "path" {
                format!("{name}_path")
            } else {
                format!("{verb}_{name}")
            });
        }
    }
    let _ = writeln!(
        out,
        "\n__all__ = [\n{}]",
        all.iter()
            .map(|n| format!("    {n:?},\n"))
            .collect::<String>()
    );
    with_imports(&out)
}

/// `statecore/_generated/tables.py`: the hosts' options and constants of the core.
pub fn tables_py() -> String {
    let mut out = String::from(HEADER);
    out.push_str("\"\"\"The core's host options and constants, for the host layer (statecore/_files.py).\"\"\"\n\n");
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
    let _ = writeln!(
        out,
        "#: How many random bytes the core draws an id suffix from.\nRANDOM_BYTES = {}\n#: The agency watchdog's default stall threshold, in ms.\nSTALL_THRESHOLD_MS = {}",
        statecore::fctry::RANDOM_BYTES,
        statecore::agency::DEFAULT_STALL_THRESHOLD_MS
    );
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
    out.push_str(
        "def read_document(path: StrPath, kind: DocumentKind) -> Any:\n    \"\"\"Reads a document: the core's ``load_document`` over the file's bytes.\n\n    A missing file gives the kind's default (``etag`` None); an unparseable one the default and\n    a ``W_UNPARSEABLE`` warning. Readers never write.\n    \"\"\"\n    return _files.read(kind, _files.fspath(path))\n\n",
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
    out.push_str(
        "def update_document(\n    path: StrPath,\n    kind: DocumentKind,\n    patch_or_function: Any,\n    options: MergeOptions | None = None,\n    **keywords: Any,\n) -> Any:\n    \"\"\"Locked read-merge-validate-write of ``path``: one crossing into the core for a patch.\n\n    ``patch_or_function`` is a patch (merged with ``options``, or the keywords ``strategy``,\n    ``rules``, ``stamp``) or a function given the current document that returns the new one, or\n    changes it and returns None. Host keywords: ``if_match`` (compare-and-swap), ``now`` (for\n    stamps), ``timeout`` (seconds). Unparseable old bytes are first copied to\n    ``<path>.corrupt-<timestamp>``. Raises ``ValidationError`` (file untouched),\n    ``ConflictError``, ``LockTimeoutError``; a misspelt keyword is ``UsageError`` ``E_OPTIONS``.\n    \"\"\"\n    return _files.update_document(path, kind, patch_or_function, options, keywords)\n\n\n__all__ = [\"read_document\", \"update_document\"]\n",
    );
    with_imports(&out)
}

/// `text` with its `{imports}` marker replaced by the imports of what the code after it uses:
/// `typing` names, the host modules, and (for type checkers only) the types.
fn with_imports(text: &str) -> String {
    let (head, body) = text.split_once("{imports}").unwrap_or((text, ""));
    let words: BTreeSet<&str> = body
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .collect();
    let uses = |name: &str| words.contains(name);
    let pick = |names: &[&'static str]| -> Vec<&'static str> {
        names.iter().copied().filter(|n| uses(n)).collect()
    };
    let mut out = String::new();
    let mut typing = pick(&["Any", "Literal", "cast", "overload"]);
    typing.insert(0, "TYPE_CHECKING");
    let _ = writeln!(out, "from typing import {}\n", typing.join(", "));
    let mut runtime = Vec::new();
    if body.contains("_files.") {
        runtime.push("from statecore import _files".to_owned());
    }
    if body.contains("_rt.") {
        runtime.push("from statecore import _runtime as _rt".to_owned());
    }
    if body.contains("_call(") {
        runtime.push("from statecore._statecore import call as _call".to_owned());
    }
    for line in &runtime {
        let _ = writeln!(out, "{line}");
    }
    out.push_str("\nif TYPE_CHECKING:\n");
    let abc = pick(&["Callable", "Mapping", "Sequence"]);
    if !abc.is_empty() {
        let _ = writeln!(out, "    from collections.abc import {}\n", abc.join(", "));
    }
    if uses("Unpack") {
        out.push_str("    from typing_extensions import Unpack\n\n");
    }
    let files = pick(&["FileResult", "HelperOptions", "StrPath", "UpdateKeywords"]);
    if !files.is_empty() {
        let _ = writeln!(out, "    from statecore._files import {}", files.join(", "));
    }
    let named = crate::names::named();
    let mut types: Vec<&str> = named
        .shapes
        .iter()
        .map(|s| s.name)
        .chain(named.enums.iter().map(|e| e.name))
        .chain(named.aliases.iter().map(|a| a.name))
        .chain(["DocumentKind", "Json"])
        .filter(|n| uses(n))
        .collect();
    types.sort_unstable_by_key(|t| t.to_lowercase());
    types.dedup();
    if !types.is_empty() {
        let _ = writeln!(
            out,
            "    from statecore.types import (\n{}    )",
            types
                .iter()
                .map(|t| format!("        {t},\n"))
                .collect::<String>()
        );
    }
    out.push('\n');
    format!("{head}{out}{body}")
}

/// `statecore/_generated/__init__.py`.
pub fn package_init() -> String {
    format!("{HEADER}\"\"\"The parts of statecore generated from the core's operation table (`xtask codegen`).\"\"\"\n")
}

/// The generated modules of the package.
pub fn module_names() -> Vec<(Module, String)> {
    let mut out = vec![(Module::Root, "root".to_owned())];
    out.extend(modules().map(|m| (m, m.name().to_owned())));
    out
}
