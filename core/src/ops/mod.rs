//! The operation table: every operation statecore exposes, declared once (docs/conventions.md § Layers).
//!
//! An [`Op`] names a core function, its parameters (how a host passes each: a JSON value,
//! file bytes, text, the clock, randomness, options) with their types, its result, its doc
//! comment and, for operations on a protocol's documents, which document kind it reads or
//! writes. The core's rows are in the parts of [`parts`]; a crate built over the core adds its
//! own and composes the whole [`Table`] (`statecore_cli::TABLE`, the command line's and the
//! viewer's rows with these), which the core never names. From a table come the dispatcher
//! every binding uses ([`Table::find`], [`Table::call`]), the one-crossing file update
//! ([`update`]) and query ([`query`]), and the machine-readable manifest
//! ([`Table::manifest`]) from which `xtask codegen` writes the JS namespaces, the TypeScript
//! and Python types, the error maps, the conformance dispatchers and `docs/api.md`.
//!
//! Adding an operation: its core function, one entry in a table module below (or in the
//! command line's or the viewer's table, `cli/src/table_*.rs`), its corpus cases, then
//! `cargo run -p xtask -- codegen`. A routine a host layer adds around the core (file I/O,
//! watchers) is a row of the host-routine table ([`ROUTINES`], `table_routines.rs`) beside its
//! two implementations: its types and docs are generated the same way.

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
mod table;
mod table_agency;
mod table_core;
mod table_documents;
mod table_fctry;
mod table_files;
mod table_hive;
mod table_hivemind;
mod table_host;
mod table_jobs;
mod table_lock;
mod table_routines;
mod table_specify;
mod table_store;
mod table_store_api;
mod table_watch;
mod types;

pub use args::{Arg, Args, Described};
pub use bind::call;
pub use file::{query, update, update_read, update_unread, Change, Updated};
pub use gate::gate;
pub(crate) use gate::unloaded;
pub use host_types::HOST_TYPES;
pub use logged::{update_logged, LogReplay};
pub use module::Module;
pub use out::Out;
pub use param::{Kind, Param};
pub use resident::Resident;
pub use table::{parts, Table, CORE};
pub use table_host::{Constant, APPEND_OPTIONS, HOST_OPTIONS, UPDATE_OPTIONS};
pub use table_routines::ROUTINES;
pub use table_store_api::STORE_CLASSES;
pub use types::{Access, Form, Op, Returns, Run, Write};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Code;

    #[test]
    fn find_gives_every_operation_by_its_name_and_nothing_else() {
        let mut names = std::collections::HashSet::new();
        for op in CORE.ops() {
            assert!(
                names.insert(op.name()),
                "two operations named {}",
                op.name()
            );
            let found = CORE.find(&op.name());
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
            let error = CORE.find(name).err();
            assert!(
                error.is_some_and(
                    |e| e.code == Code::Argument && e.message.contains("unknown operation")
                ),
                "{name:?}"
            );
        }
    }
}
