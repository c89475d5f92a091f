//! Documentation and data from the table: the API table of `docs/api.md` (between its
//! markers), `docs/manifest.json`, and the JSON Schema files both packages ship.

use crate::helpers::helpers;
use crate::names::{camel, modules};
use statecore::kinds::KINDS;
use statecore::ops::{Form, Module, Op};
use statecore_cli::TABLE;
use std::fmt::Write as _;

/// The start marker of the generated section `name` of a document.
fn begin(name: &str) -> String {
    format!("<!-- BEGIN GENERATED: {name} (cargo run -p xtask -- codegen) -->")
}

/// Its end marker.
fn end(name: &str) -> String {
    format!("<!-- END GENERATED: {name} -->")
}

fn js_name(op: &Op) -> String {
    match op.module {
        Module::Root => camel(op.method),
        m => format!("{}.{}", m.name(), camel(op.method)),
    }
}

fn py_name(op: &Op) -> String {
    match op.module {
        Module::Root => format!("statecore.{}", op.method),
        m => format!("statecore.{}.{}", m.name(), op.method),
    }
}

fn args(op: &Op, case: fn(&str) -> String) -> String {
    op.params
        .iter()
        .map(|p| {
            let name = case(p.name);
            if p.optional {
                format!("{name}?")
            } else {
                name
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What an operation returns, as the API reference says it.
fn returns(op: &Op) -> String {
    match op.returns.form {
        Form::Nothing => "nothing".to_owned(),
        Form::Raises => "never (raises)".to_owned(),
        Form::Text => "text".to_owned(),
        Form::Job => "a job (`Job`: `first`, `next`)".to_owned(),
        Form::Json | Form::Update | Form::Loaded => {
            format!("`{}`", crate::ts::ty(&op.returns.ty, crate::ts::Side::Out))
        }
    }
}

/// The generated part of `docs/api.md`: a section per module, an entry per operation (its
/// name in Rust and the corpus, JS and Python, what it returns, what it does).
fn api_table() -> String {
    let mut out = String::new();
    for module in Module::ALL {
        let module_ops: Vec<&Op> = TABLE.ops().filter(|op| op.module == module).collect();
        if module_ops.is_empty() {
            continue;
        }
        let title = match module {
            Module::Root => "`statecore`".to_owned(),
            m => format!("`{}`", m.name()),
        };
        let _ = writeln!(out, "\n## Operations: {title}\n");
        for op in module_ops {
            let _ = writeln!(
                out,
                "### `{}`\n\n- Rust and the corpus: `{}({})`\n- JS: `{}({})`{}\n- Python: \
                 `{}({})`\n- Returns: {}\n\n{}\n",
                op.name(),
                op.name(),
                args(op, str::to_owned),
                js_name(op),
                args(op, camel),
                if op.web {
                    ""
                } else {
                    " (not in the browser's module)"
                },
                py_name(op),
                args(op, str::to_owned),
                returns(op),
                op.doc.replace('\n', " ")
            );
        }
    }
    out.push_str("\n## Protocol helpers on a directory's files\n\n");
    out.push_str(
        "Each writer is one locked read-modify-write of the file in one crossing of the boundary \
         (docs/architecture.md); JS has `name` (a Promise) and `nameSync` in `statecore-js/<module>` \
         with `{now, random, ifMatch, timeout}` in a trailing options object; Python takes the \
         directory in place of the document (`statecore.<module>.<name>`) with `if_match` and \
         `timeout` as keywords.\n\n| module | helper | operation | file |\n|---|---|---|---|\n",
    );
    for module in modules() {
        for h in helpers(module) {
            let _ = writeln!(
                out,
                "| {} | `{}` / `{}` | `{}` | `{}` ({}) |",
                module.name(),
                camel(&h.name),
                h.name,
                h.op.name(),
                h.file.file.path.join("/"),
                if h.write.is_some() { "writes" } else { "reads" }
            );
        }
        for kind in KINDS
            .iter()
            .filter(|k| k.file.as_ref().is_some_and(|f| f.module == module.name()))
        {
            if let Some(file) = &kind.file {
                let _ = writeln!(
                    out,
                    "| {} | `{n}Path`, `read{c}`, `write{c}`, `update{c}` / `{n}_path`, `read_{n}`, `write_{n}`, `update_{n}` | (file) | `{}` |",
                    module.name(),
                    file.path.join("/"),
                    n = file.name,
                    c = crate::names::capital(file.name),
                );
            }
        }
    }
    out.push('\n');
    out
}

/// The error classes with their codes and Python bases (`error::CLASSES`, `Code::ALL`).
fn errors_table() -> String {
    let mut out = String::from(
        "\n| class | codes | Python also subclasses | what it means |\n|---|---|---|---|\n",
    );
    for class in statecore::error::CLASSES {
        let codes: Vec<String> = statecore::Code::ALL
            .iter()
            .filter(|c| c.class_name() == class.name)
            .map(|c| format!("`{}`", c.as_str()))
            .collect();
        let bases: Vec<&str> = class
            .python_bases
            .iter()
            .copied()
            .filter(|b| *b != "Exception")
            .collect();
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} |",
            class.name,
            codes.join(", "),
            bases.join(", "),
            class.doc.replace('|', "\\|")
        );
    }
    out.push('\n');
    out
}

/// The hosts' constants (`ops::CONSTANTS`).
fn constants_table() -> String {
    let mut out = String::from(
        "\n| JS `CONSTANTS.` | Python `CONSTANTS[...]` | value | what it is |\n|---|---|---|---|\n",
    );
    for c in TABLE.constants() {
        let _ = writeln!(
            out,
            "| `{}` | `{:?}` | {} | {} |",
            camel(c.name),
            c.name,
            c.value,
            c.doc
        );
    }
    out.push('\n');
    out
}

/// A generated section of a document: its marker name and what writes it.
type Section = (&'static str, fn() -> String);

/// `docs/api.md` with each generated section (between its markers) replaced.
pub fn api_md(current: &str) -> Result<String, String> {
    let mut text = current.to_owned();
    let sections: [Section; 4] = [
        ("operations", api_table),
        ("host routines", crate::host_api::routines_md),
        ("errors", errors_table),
        ("constants", constants_table),
    ];
    for (name, make) in sections {
        text = splice(&text, "docs/api.md", name, &make())?;
    }
    Ok(text)
}

/// `text` (the file `file`) with `content` between the markers of its generated section `name`.
pub(crate) fn splice(text: &str, file: &str, name: &str, content: &str) -> Result<String, String> {
    let (open, close) = (begin(name), end(name));
    let start = text
        .find(&open)
        .ok_or_else(|| format!("{file} has no {open} marker"))?;
    let stop = text
        .find(&close)
        .ok_or_else(|| format!("{file} has no {close} marker"))?;
    let head = text.get(..start + open.len()).unwrap_or_default();
    let tail = text.get(stop..).unwrap_or_default();
    Ok(format!("{head}\n{content}{tail}"))
}

/// The JSON Schema files: `(kind, text)`.
pub fn schemas() -> Vec<(&'static str, String)> {
    KINDS
        .iter()
        .filter_map(|kind| {
            statecore::schema::schema(kind.name)
                .ok()
                .map(|schema| (kind.name, statecore::json::serialize(&schema)))
        })
        .collect()
}
