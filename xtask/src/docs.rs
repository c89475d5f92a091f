//! Documentation and data from the table: the API table of `docs/api.md` (between its
//! markers), `docs/manifest.json`, and the JSON Schema files both packages ship.

use crate::helpers::helpers;
use crate::names::{camel, modules};
use statecore::kinds::KINDS;
use statecore::ops::{self, Form, Module, Op};
use std::fmt::Write as _;

/// The markers around the generated table in `docs/api.md`.
pub const BEGIN: &str = "<!-- BEGIN GENERATED: operations (cargo run -p xtask -- codegen) -->";
/// The end marker.
pub const END: &str = "<!-- END GENERATED: operations -->";

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

/// The generated part of `docs/api.md`.
pub fn api_table() -> String {
    let mut out = String::from(BEGIN);
    out.push_str(
        "\n\n| operation (Rust `statecore::ops`, the corpus) | JS (`statecore`) | Python | returns | what it does |\n|---|---|---|---|---|\n",
    );
    for op in ops::all() {
        let returns = match op.returns.form {
            Form::Nothing => "nothing".to_owned(),
            Form::Raises => "never (raises)".to_owned(),
            Form::Text => "text".to_owned(),
            Form::Json => format!("`{}`", crate::ts::ty(&op.returns.ty, crate::ts::Side::Out)),
        };
        let _ = writeln!(
            out,
            "| `{}({})` | `{}({})` | `{}({})` | {} | {} |",
            op.name(),
            args(op, str::to_owned),
            js_name(op),
            args(op, camel),
            py_name(op),
            args(op, str::to_owned),
            returns.replace('|', "\\|"),
            op.doc.replace('|', "\\|").replace('\n', " ")
        );
    }
    out.push_str("\n### Protocol helpers on a directory's files\n\n");
    out.push_str(
        "Each writer is one locked read-modify-write of the file in one crossing of the boundary \
         (docs/architecture.md); JS has `name` (a Promise) and `nameSync` in `statecore/<module>` \
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
    out.push_str(END);
    out
}

/// `docs/api.md` with its generated part replaced.
pub fn api_md(current: &str) -> Result<String, String> {
    let start = current
        .find(BEGIN)
        .ok_or("docs/api.md has no BEGIN GENERATED marker")?;
    let end = current
        .find(END)
        .ok_or("docs/api.md has no END GENERATED marker")?;
    let tail = current.get(end + END.len()..).unwrap_or_default();
    let head = current.get(..start).unwrap_or_default();
    Ok(format!("{head}{}{tail}", api_table()))
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
