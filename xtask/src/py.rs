//! Python: the exception classes (`statecore/errors.py`), the native module's stub
//! (`statecore/_statecore.pyi`), and the functions of every module with their helpers
//! (`statecore/_generated/<module>.py`), from the core's table.

use crate::helpers::{files, helpers, Helper};
use crate::names::modules;
use crate::py_types::{nullable, ty, Side, HEADER};
use statecore::kinds::KINDS;
use statecore::ops::{Form, Kind, Module, Op, Param};
use statecore::shape::Ty;
use statecore_cli::TABLE;
use std::collections::BTreeSet;
use std::fmt::Write as _;

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
pub(crate) fn signature(
    params: &[Param],
    skip: usize,
    first: Option<String>,
) -> (String, Vec<&Param>) {
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
pub(crate) fn arg_tuple(params: &[&Param]) -> String {
    let items: Vec<String> = params
        .iter()
        .map(|p| match p.kind {
            Kind::Options(shape) => {
                let keywords: Vec<String> = shape
                    .fields
                    .iter()
                    .map(|f| format!("{0}={0}", f.name))
                    .collect();
                // The keywords are looked at in Python only when one is given: the common
                // call (no keyword) passes the dict as it is, without a call.
                let unset: Vec<String> = shape
                    .fields
                    .iter()
                    .map(|f| format!("{} is None", f.name))
                    .collect();
                format!(
                    "({1} if {3} else _rt.options({0:?}, {1}, {2}))",
                    p.name,
                    p.name,
                    keywords.join(", "),
                    unset.join(" and ")
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

pub(crate) fn result_type(op: &Op) -> String {
    match op.returns.form {
        Form::Nothing => "None".into(),
        Form::Raises => "NoReturn".into(),
        Form::Text => "str".into(),
        Form::Job => "Job".into(),
        Form::Json | Form::Update | Form::Loaded => ty(&op.returns.ty, Side::Out),
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
        Form::Raises => {
            let _ = writeln!(
                out,
                "    {call}\n    raise AssertionError(\"{} returned\")\n",
                op.name()
            );
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
pub fn kind_doc(kind: &statecore::kinds::Kind) -> String {
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

/// A helper's options keywords: a writer's (a step's, for a file kept with its log).
fn helper_options(h: &Helper) -> &'static str {
    match (h.write, h.file.file.log) {
        (None, _) => ", *, store: Store | None = None",
        (Some(_), Some(_)) => ", **options: Unpack[SessionOptions]",
        (Some(_), None) => ", **options: Unpack[HelperOptions]",
    }
}

/// A helper's result type.
fn helper_result(h: &Helper) -> String {
    let doc_type = kind_doc(h.file.kind);
    let result = if h.file.file.log.is_some() {
        "LoggedResult"
    } else {
        "FileResult"
    };
    match h.write {
        Some(write) if write.document_at.is_some() => {
            format!("{result}[{doc_type}, {}]", ty(&h.op.returns.ty, Side::Out))
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
    let options = helper_options(h);
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
        ", *, store: Any = None"
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
            "; `store`: the document in a store instead, the directory a key prefix"
        }
    )));
    let args = arg_tuple(&params);
    let path_test = if h.write.is_some() {
        format!("_rt.is_path({first})")
    } else {
        format!("store is not None or _rt.is_path({first})")
    };
    let _ = writeln!(out, "    if {path_test}:");
    match h.write {
        Some(_) => {
            let _ = writeln!(
                out,
                "        return _documents.write_at({:?}, {first}, {}, {:?}, {args}, options)",
                h.file.kind.name,
                parts(h),
                op.name()
            );
            let _ = writeln!(out, "    _rt.no_options(options)");
        }
        None => {
            let _ = writeln!(
                out,
                "        return _documents.query_at({:?}, {first}, {}, {:?}, {args}, store)",
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
    let options = helper_options(h);
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
            let _ = writeln!(
                out,
                "    return cast({:?}, _documents.write_at({:?}, {base}, {}, {:?}, {args}, options))\n",
                helper_result(h),
                h.file.kind.name,
                parts(h),
                h.op.name()
            );
        }
        (None, _) => {
            let _ = writeln!(
                out,
                "    return cast({:?}, _documents.query_at({:?}, {base}, {}, {:?}, {args}, store))\n",
                helper_result(h),
                h.file.kind.name,
                parts(h),
                h.op.name()
            );
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
    for op in TABLE.ops().filter(|op| op.module == module) {
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
            "def {name}_path({base}: StrPath) -> str:\n    \"\"\"``<{base}>/{joined}``.\"\"\"\n    return _documents.path({base}, ({path},))\n",
            joined = f.file.path.join("/"),
            path = path.join(", "),
        );
        all.insert(format!("{name}_path"));
        all.insert(format!("read_{name}"));
        if let Some(log) = f.file.log {
            // Kept with its log: read with recovery; written by its steps only.
            let _ = writeln!(
                out,
                "def read_{name}({base}: StrPath, **options: Unpack[SessionOptions]) -> LoggedResult[{doc_type}, None]:\n    \"\"\"Reads ``{joined}``; when it is missing, unreadable or behind ``{log}``, rebuilds it\n    from the log under the lock (keeping a ``.corrupt-`` copy) and writes it.\"\"\"\n    return cast(\"LoggedResult[{doc_type}, None]\", _documents.read_logged_at({kind:?}, {base}, ({path},), options))\n",
                joined = f.file.path.join("/"),
                kind = f.kind.name,
                path = path.join(", "),
            );
            continue;
        }
        let _ = writeln!(
            out,
            "def read_{name}({base}: StrPath, *, store: Store | None = None) -> LoadResult[{doc_type}]:\n    \"\"\"Reads ``{joined}`` (a missing file reads as the kind's default; never writes);\n    ``store``: its document in a store instead, ``{base}`` a key prefix (docs/store.md).\"\"\"\n    return cast(\"LoadResult[{doc_type}]\", _documents.read_at({kind:?}, {base}, ({path},), store))\n\n\
             def write_{name}(\n    {base}: StrPath, document: Mapping[str, object] | Sequence[object] | None, **options: Unpack[HelperOptions]\n) -> FileResult[{doc_type}, None]:\n    \"\"\"Replaces ``{joined}``'s document (validated; locked, atomic).\"\"\"\n    return cast(\"FileResult[{doc_type}, None]\", _documents.write_at({kind:?}, {base}, ({path},), \"\", (document,), options))\n\n\
             def update_{name}(\n    {base}: StrPath,\n    patch_or_function: object,\n    now: Now | None = None,\n    **options: Unpack[HelperOptions],\n) -> FileResult[{doc_type}, None]:\n    \"\"\"A patch merged into ``{joined}`` (its protocol's merge), or a function of its document\n    that returns the new one (or changes it and returns ``None``); locked, atomic.\"\"\"\n    return cast(\"FileResult[{doc_type}, None]\", _documents.patch_at({kind:?}, {base}, ({path},), patch_or_function, {patch}, now, options))\n",
            joined = f.file.path.join("/"),
            kind = f.kind.name,
            path = path.join(", "),
            patch = f.file.patch.map_or("None".to_owned(), |p| p.replace("null", "None").replace("true", "True").replace("false", "False")),
        );
        all.insert(format!("write_{name}"));
        all.insert(format!("update_{name}"));
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

/// `text` with its `{imports}` marker replaced by the imports of what the code after it uses
/// (its docstrings, one line each, left out):
/// the host modules, and for type checkers only `typing` and the types. `typing` is slow to
/// import, so at run time `cast` and `overload` are the stand-ins of `statecore._host.runtime`
/// (`if not TYPE_CHECKING` comes first so that linters, like type checkers, see `typing`'s).
pub fn with_imports(text: &str) -> String {
    let (head, body) = text.split_once("{imports}").unwrap_or((text, ""));
    // The code's words, not its docstrings' (a doc naming "§ Store URLs" imports nothing).
    let words: BTreeSet<&str> = body
        .lines()
        .filter(|line| !line.trim_start().starts_with("\"\"\""))
        .flat_map(|line| line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| !w.is_empty())
        .collect();
    let uses = |name: &str| words.contains(name);
    let pick = |names: &[&'static str]| -> Vec<&'static str> {
        names.iter().copied().filter(|n| uses(n)).collect()
    };
    let mut out = String::new();
    let mut runtime = Vec::new();
    if body.contains("_documents.") {
        runtime.push("from statecore._host import documents as _documents".to_owned());
    }
    if body.contains("_rt.") {
        runtime.push("from statecore._host import runtime as _rt".to_owned());
    }
    if body.contains("_call(") {
        runtime.push("from statecore._statecore import call as _call".to_owned());
    }
    for line in &runtime {
        let _ = writeln!(out, "{line}");
    }
    out.push_str("\nTYPE_CHECKING = False\n");
    let shims = pick(&["cast", "overload"]);
    if shims.is_empty() {
        out.push_str("if TYPE_CHECKING:\n");
    } else {
        let _ = writeln!(
            out,
            "if not TYPE_CHECKING:\n    from statecore._host.runtime import {}\nelse:",
            shims.join(", ")
        );
    }
    let mut stdlib = Vec::new();
    let abc = pick(&["Callable", "Mapping", "Sequence"]);
    if !abc.is_empty() {
        stdlib.push(format!("from collections.abc import {}", abc.join(", ")));
    }
    let typing = pick(&["Any", "Literal", "NoReturn", "cast", "overload"]);
    if !typing.is_empty() {
        stdlib.push(format!("from typing import {}", typing.join(", ")));
    }
    let mut third_party = Vec::new();
    if uses("Unpack") {
        third_party.push("from typing_extensions import Unpack".to_owned());
    }
    let mut first_party = Vec::new();
    let mut host_types: Vec<&str> = statecore::ops::HOST_TYPES
        .iter()
        .map(|h| h.py_name)
        .filter(|n| uses(n))
        .collect();
    host_types.sort_unstable_by_key(|t| t.to_lowercase());
    if !host_types.is_empty() {
        first_party.push(format!(
            "from statecore._generated.host_types import {}",
            host_types.join(", ")
        ));
    }
    let files = pick(&["Store", "StrPath"]);
    if !files.is_empty() {
        first_party.push(format!(
            "from statecore._host.documents import {}",
            files.join(", ")
        ));
    }
    if uses("Job") {
        first_party.push("from statecore._statecore import Job".to_owned());
    }
    let types = crate::names::type_names_used(|n| uses(n));
    if !types.is_empty() {
        first_party.push(format!(
            "from statecore.types import (\n{}    )",
            types
                .iter()
                .map(|t| format!("        {t},\n"))
                .collect::<String>()
        ));
    }
    // isort's sections, a blank line between them.
    let blocks: Vec<String> = [stdlib, third_party, first_party]
        .iter()
        .filter(|g| !g.is_empty())
        .map(|g| g.iter().map(|line| format!("    {line}\n")).collect())
        .collect();
    out.push_str(&blocks.join("\n"));
    out.push('\n');
    format!("{head}{out}{body}")
}

/// The generated modules of the package.
pub fn module_names() -> Vec<(Module, String)> {
    let mut out = vec![(Module::Root, "root".to_owned())];
    out.extend(modules().map(|m| (m, m.name().to_owned())));
    out
}
