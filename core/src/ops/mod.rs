//! The operation table: every operation statecore exposes, declared once (docs/conventions.md § Layers).
//!
//! An [`Op`] names a core function, its parameters (how a host passes each: a JSON value,
//! file bytes, text, the clock, randomness, options) with their types, its result, its doc
//! comment and, for operations on a protocol's documents, which document kind it reads or
//! writes. From the table come the generic dispatcher [`call`] that every binding uses, the
//! one-crossing file update ([`update`]) and query ([`query`]), and the machine-readable
//! [`manifest`] from which `xtask codegen` writes the JS namespaces, the TypeScript and Python
//! types, the error maps, the conformance dispatchers and `docs/api.md`.
//!
//! Adding an operation: its core function, one entry in a table module below, its corpus
//! cases, then `cargo run -p xtask -- codegen`. A routine a host layer adds around the core
//! (file I/O, watchers) is a row of the host-routine table ([`ROUTINES`], `table_routines.rs`)
//! beside its two implementations: its types and docs are generated the same way.

mod args;
mod bind;
mod file;
mod gate;
pub mod host_api;
mod host_types;
mod logged;
mod manifest;
mod module;
mod out;
mod param;
mod resident;
mod session_log;
mod table_agency;
mod table_core;
mod table_fctry;
mod table_files;
mod table_hive;
mod table_hivemind;
mod table_host;
mod table_routines;
mod table_specify;
mod table_store;
mod table_view;
mod table_watch;
mod types;

pub use args::{Arg, Args};
pub use bind::call;
pub use file::{query, update, update_read, update_unread, Change, Updated};
use gate::refuse;
pub(crate) use gate::{gate, unloaded};
pub use host_types::HOST_TYPES;
pub use logged::{update_logged, LogReplay};
pub use manifest::{manifest, type_roots};
pub use module::Module;
pub use out::Out;
pub use param::{Kind, Param};
pub use resident::Resident;
pub use table_host::{Constant, APPEND_OPTIONS, CONSTANTS, HOST_OPTIONS, UPDATE_OPTIONS};
pub use table_routines::ROUTINES;
pub use types::{Access, Form, Op, Returns, Run, Write};

use crate::error::{Code, Error, Result};

/// Every operation, module by module.
pub fn all() -> impl Iterator<Item = &'static Op> {
    table_core::OPS
        .iter()
        .chain(table_fctry::OPS)
        .chain(table_hivemind::OPS)
        .chain(table_hive::OPS)
        .chain(table_specify::OPS)
        .chain(table_agency::OPS)
        .chain(table_files::OPS)
        .chain(table_host::OPS)
        .chain(table_store::OPS)
        .chain(table_view::OPS)
        .chain(table_watch::OPS)
}

/// The operation called `name`; `E_ARGUMENT` for an unknown one. Every call of every
/// binding looks its operation up by name: an index of the names, made on the first call,
/// finds it without a scan of the table.
pub fn find(name: &str) -> Result<&'static Op> {
    static INDEX: std::sync::OnceLock<std::collections::HashMap<String, &'static Op>> =
        std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index = std::collections::HashMap::new();
        for op in all() {
            index.entry(op.name()).or_insert(op);
        }
        index
    });
    let op = index.get(name).copied().ok_or_else(|| {
        Error::new(
            Code::Argument,
            "",
            format!("unknown operation {name:?}; the operations are listed by manifest()"),
        )
        .with_detail("op", name)
    })?;
    if op.available() {
        Ok(op)
    } else {
        Err(refuse(op))
    }
}

impl<'a> Change<'a> {
    /// The change a host names: `""` replaces the document with the first argument,
    /// `"merge"` merges the first argument with the second (options), `"set_value"` sets the
    /// second at the pointer the first names, any other name is a writer of the table.
    pub fn named(name: &str, args: Args<'a>) -> Result<Change<'a>> {
        let mut args = args;
        match name {
            "" => Ok(Change::Replace(args.take(0))),
            "merge" => Ok(Change::Patch(args.take(0), args.take(1))),
            "set_value" => Ok(Change::Set(args.text(0)?.to_owned(), args.take(1))),
            other => Ok(Change::Op(find(other)?, args)),
        }
    }

    /// The operation whose parameters a host passes for the change `name`, and how many of
    /// its first parameters the file supplies (its document: 1; none for a writer that
    /// replaces the document without reading it). A replacement or a patch takes `merge`'s
    /// (plain JSON values).
    pub fn params_of(name: &str) -> Result<(&'static Op, usize)> {
        let op = find(if name.is_empty() { "merge" } else { name })?;
        let skip = match op.access {
            Access::Writes(write) if !write.takes_document => 0,
            _ => 1,
        };
        Ok((op, skip))
    }
}

/// The change a host names for a logged step: none for a read (`""`), else a step of the
/// table with its arguments after the state.
pub fn logged_change<'a>(name: &str, args: Args<'a>) -> Result<Option<Change<'a>>> {
    if name.is_empty() {
        return Ok(None);
    }
    Ok(Some(Change::Op(find(name)?, args)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_gives_every_operation_by_its_name_and_nothing_else() {
        let mut names = std::collections::HashSet::new();
        for op in all() {
            assert!(
                names.insert(op.name()),
                "two operations named {}",
                op.name()
            );
            let found = find(&op.name());
            if op.available() {
                assert!(found.is_ok_and(|f| std::ptr::eq(f, op)), "{}", op.name());
            } else {
                assert!(
                    found.is_err_and(|e| e.code == Code::Unavailable),
                    "{}",
                    op.name()
                );
            }
            assert!(op.is(&op.name()));
        }
        for name in [
            "",
            "hivemind_",
            "hivemind",
            "fctry_start_stepx",
            "Fctry_start_step",
            "_merge",
        ] {
            let error = find(name).err();
            assert!(
                error.is_some_and(
                    |e| e.code == Code::Argument && e.message.contains("unknown operation")
                ),
                "{name:?}"
            );
        }
    }
}
