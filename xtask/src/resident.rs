//! Resident documents (docs/api.md § Resident documents): the methods each document kind
//! gets from the table (its writers change the document, its readers read it), as the JS
//! table `RESIDENT`, the TypeScript `DocumentMethods` and the Python classes
//! (`statecore/_generated/documents.py`).

use crate::names::camel;
use crate::py_types::HEADER;
use crate::{py, ts};
use statecore::kinds::{Kind as DocKind, KINDS};
use statecore::ops::{Access, Form, Op};
use statecore_cli::TABLE;
use std::fmt::Write as _;

/// The methods every resident document has, whatever its kind, in camelCase (JS `toJSON`,
/// Python `to_python`); a table method of the same name would hide one, and `methods` refuses
/// it.
const BASE: [&str; 11] = [
    "kind", "get", "toJSON", "toPython", "text", "validate", "merge", "replace", "free", "change",
    "query",
];

/// One method of a kind's resident documents.
pub struct Method {
    /// The operation.
    pub op: &'static Op,
    /// True for a writer (a change), false for a reader.
    pub change: bool,
    /// How many first parameters the document supplies (a writer that replaces it: none).
    pub skip: usize,
}

/// The methods of `kind`'s resident documents, in table order.
pub fn methods(kind: &str) -> Vec<Method> {
    let list: Vec<Method> = TABLE
        .ops()
        .filter_map(|op| match op.access {
            Access::Writes(w) if w.kind == kind => Some(Method {
                op,
                change: true,
                skip: usize::from(w.takes_document),
            }),
            Access::Reads {
                kind: k,
                bytes: false,
                ..
            } if k == kind => Some(Method {
                op,
                change: false,
                skip: 1,
            }),
            _ => None,
        })
        .collect();
    for m in &list {
        assert!(
            !BASE.contains(&camel(m.op.method).as_str()),
            "{} would hide a resident document's own method",
            m.op.name()
        );
    }
    list
}

/// The JS table: `RESIDENT[kind]` = [[JS method, table name, "change" | "query"], ...].
pub fn js_table(out: &mut String) {
    out.push_str(
        "/**\n * The methods of each kind's resident documents (lib/binding/api.mjs, `Document`): [JS name,\n * table name, \"change\" for a writer or \"query\" for a reader].\n */\nexport const RESIDENT = Object.freeze({\n",
    );
    for kind in KINDS {
        let _ = writeln!(out, "  {:?}: [", kind.name);
        for m in methods(kind.name) {
            let mode = if m.change { "change" } else { "query" };
            let _ = writeln!(
                out,
                "    [{:?}, {:?}, {mode:?}],",
                camel(m.op.method),
                m.op.name()
            );
        }
        out.push_str("  ],\n");
    }
    out.push_str("});\n");
}

/// What a writer's method returns, in TypeScript.
fn ts_change(op: &Op) -> String {
    let Access::Writes(w) = op.access else {
        return "DocumentChange".into();
    };
    let mut t = "DocumentChange".to_owned();
    if let Some(field) = w.document_at {
        let _ = write!(t, " & {{ result: Omit<{}, {field:?}> }}", ts::returns(op));
    }
    if let Some((name, _, ty)) = w.extra {
        let _ = write!(t, " & {{ {name}: {} }}", ts::ty(&ty, ts::Side::Out));
    }
    t
}

/// The TypeScript of resident documents (part of `npm/lib/generated/core.d.ts`).
pub fn dts(out: &mut String) {
    out.push_str(DTS_HEAD);
    out.push_str("/** The methods a resident document of each kind has beyond `Document`'s (from the table). */\nexport interface DocumentMethods {\n");
    for kind in KINDS {
        let _ = writeln!(out, "  {:?}: {{", kind.name);
        for m in methods(kind.name) {
            ts::doc(out, "    ", m.op.doc);
            let returns = if m.change {
                ts_change(m.op)
            } else {
                ts::returns(m.op)
            };
            let _ = writeln!(
                out,
                "    {}({}): {returns};",
                camel(m.op.method),
                ts::params(m.op.params, m.skip)
            );
        }
        out.push_str("  };\n");
    }
    out.push_str("}\n\n");
    out.push_str(DTS_TAIL);
}

const DTS_HEAD: &str = "\
/** What a change of a resident document reports. */
export interface DocumentChange {
  /** True when the document changed (its canonical text is not what it was). */
  changed: boolean;
  /** The new document's validation warnings. */
  warnings: Issue[];
}

/**
 * A document kept in wasm memory between calls (docs/api.md § Resident documents): a change
 * or a read crosses with its arguments and its answer only. A change that would make the
 * document invalid throws `ValidationError` and leaves it as it was. `free()` releases its
 * memory at once (else the garbage collector does, later).
 */
export declare class Document<K extends DocumentKind = DocumentKind> {
  private constructor();
  /** Its kind. */
  readonly kind: K;
  /** The value at a JSON pointer (`\"\"`: the whole document; `null` when there is none). */
  get(pointer?: string): Json;
  /** The whole document (a copy). */
  toJSON(): DocumentOf<K>;
  /** Its canonical text (what a file of it holds). */
  text(): string;
  /** Its validation report. */
  validate(): Report;
  /** Merges `patch` (as `merge` does, with `options`), then validates. */
  merge(patch: unknown, options?: MergeOptions | null): DocumentChange;
  /** Replaces the document with `document`, then validates. */
  replace(document: unknown): DocumentChange;
  /** Runs the writer `op` of the table (its table name, e.g. `\"hivemind_on_file\"`) with its arguments after the document. */
  change(op: string, ...args: unknown[]): DocumentChange;
  /** Runs the reader `op` of the table (its table name) with its arguments after the document. */
  query(op: string, ...args: unknown[]): Json;
  /** Releases its memory; the document cannot be used afterwards. */
  free(): void;
}

";

const DTS_TAIL: &str = "\
/** A resident document of kind `K`, with its kind's methods. */
export type ResidentDocument<K extends DocumentKind> = Document<K> & DocumentMethods[K];

/** Reads a file's bytes (null: missing) as a resident document of `kind`, as `loadDocument` does. */
export declare function openDocument<K extends DocumentKind>(kind: K, data?: Bytes | null): LoadResult<ResidentDocument<K>>;
/** A resident document of `kind` holding `document` (checked against the limits, not validated). */
export declare function residentDocument<K extends DocumentKind>(kind: K, document: unknown): ResidentDocument<K>;

";

/// The Python class name of a kind's resident documents: `fctry.state` → `FctryStateDocument`.
pub fn py_class(kind: &DocKind) -> String {
    let mut name: String = kind
        .name
        .split(['.', '_'])
        .map(crate::names::capital)
        .collect();
    name.push_str("Document");
    name
}

/// The Python type of what a writer's method returns: `DocumentChange`, or a subclass named
/// after the method when it also reports a result or an extra field.
fn py_change(op: &Op) -> String {
    match op.access {
        Access::Writes(w) if w.document_at.is_some() || w.extra.is_some() => {
            let name: String = op.method.split('_').map(crate::names::capital).collect();
            format!("{name}Change")
        }
        _ => "DocumentChange".into(),
    }
}

/// `statecore/_generated/documents.py`: a class per kind with its methods, `open_document`
/// and `resident_document` (a document's class follows its kind literal).
pub fn documents_py() -> String {
    let mut out = String::from(HEADER);
    let mut changes = String::new();
    for kind in KINDS {
        for m in methods(kind.name).iter().filter(|m| m.change) {
            let Access::Writes(w) = m.op.access else {
                continue;
            };
            if w.document_at.is_none() && w.extra.is_none() {
                continue;
            }
            let _ = writeln!(
                changes,
                "\n\nclass {}(DocumentChange):\n    \"\"\"What ``{}`` reports.\"\"\"\n",
                py_change(m.op),
                m.op.method
            );
            if w.document_at.is_some() {
                changes.push_str("    result: dict[str, Json]\n    \"\"\"The writer's outcome, without the document (it stays resident).\"\"\"\n");
            }
            if let Some((name, _, ty)) = w.extra {
                let _ = writeln!(
                    changes,
                    "    {name}: {}",
                    crate::py_types::ty(&ty, crate::py_types::Side::Out)
                );
            }
        }
    }
    out.push_str(
        "\"\"\"Resident documents: a class per document kind, with the kind's writers and readers as\nmethods (docs/api.md § Resident documents).\"\"\"\n\nfrom __future__ import annotations\n\nfrom statecore._host.document import Document, DocumentChange\nfrom statecore._statecore import Document as _Native\n{imports}",
    );
    out.push_str(&changes);
    for kind in KINDS {
        let class = py_class(kind);
        let _ = writeln!(out, "\n\nclass {class}(Document):");
        let _ = writeln!(
            out,
            "    \"\"\"A resident ``{}`` document.\"\"\"\n\n    __slots__ = ()",
            kind.name
        );
        for m in methods(kind.name) {
            let (sig, params) = py::signature(m.op.params, m.skip, Some("self".into()));
            let args = py::arg_tuple(&params);
            let (call, returns) = if m.change {
                let returns = py_change(m.op);
                let call = format!("self._change({:?}, {args})", m.op.name());
                if returns == "DocumentChange" {
                    (call, returns)
                } else {
                    (format!("cast({returns:?}, {call})"), returns)
                }
            } else {
                let call = format!("self._query({:?}, {args})", m.op.name());
                let returns = py::result_type(m.op);
                match m.op.returns.form {
                    Form::Nothing => (call, "None".to_owned()),
                    _ => (format!("cast({returns:?}, {call})"), returns),
                }
            };
            let _ = writeln!(out, "\n    def {}({sig}) -> {returns}:", m.op.method);
            let _ = writeln!(
                out,
                "        \"\"\"{}\"\"\"",
                m.op.doc.replace('\\', "\\\\").replace('`', "``")
            );
            let _ = writeln!(out, "        return {call}");
        }
    }
    out.push_str("\n\n_CLASSES: dict[str, type[Document]] = {\n");
    for kind in KINDS {
        let _ = writeln!(out, "    {:?}: {},", kind.name, py_class(kind));
    }
    out.push_str("}\n\n\n");
    for kind in KINDS {
        let _ = writeln!(
            out,
            "@overload\ndef open_document(kind: Literal[{:?}], data: str | bytes | None = None) -> LoadResult[{}]: ...",
            kind.name,
            py_class(kind)
        );
    }
    out.push_str(
        "def open_document(kind: DocumentKind, data: str | bytes | None = None) -> LoadResult[Any]:\n    \"\"\"Reads a file's contents (None: missing) as a resident document of ``kind``, as\n    ``load_document`` does: ``{document, etag, corrupt, valid, errors, warnings}``, the\n    document being the kind's default when the file is missing or unparseable.\"\"\"\n    native, meta = _Native.open(kind, data)\n    return cast(\"LoadResult[Any]\", {\"document\": _CLASSES[native.kind]._wrap(native), **meta})\n\n\n",
    );
    for kind in KINDS {
        let _ = writeln!(
            out,
            "@overload\ndef resident_document(kind: Literal[{:?}], document: object) -> {}: ...",
            kind.name,
            py_class(kind)
        );
    }
    out.push_str(
        "def resident_document(kind: DocumentKind, document: object) -> Document:\n    \"\"\"A resident document of ``kind`` holding ``document`` (checked against the limits, not\n    validated).\"\"\"\n    native = _Native(kind, document)\n    return _CLASSES[native.kind]._wrap(native)\n\n\n",
    );
    let mut names: Vec<String> = KINDS.iter().map(py_class).collect();
    names.sort();
    names.push("open_document".into());
    names.push("resident_document".into());
    let _ = writeln!(
        out,
        "__all__ = [{}]",
        names
            .iter()
            .map(|n| format!("{n:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    // isort's order: `statecore._host` before `statecore._host.document`.
    let rt = "from statecore._host import runtime as _rt\n";
    let text = py::with_imports(&out);
    match text.contains(rt) {
        true => text.replacen(rt, "", 1).replacen(
            "from statecore._host.document",
            &format!("{rt}from statecore._host.document"),
            1,
        ),
        false => text,
    }
}
