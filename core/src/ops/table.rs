//! A whole operation table as the crate that embeds the core composes it: the core's rows
//! ([`CORE`], its parts in [`parts`]) and the rows of the crates built over the core (the
//! command line and the viewer, crate `statecore-cli`), in one order. The bindings, the
//! manifest (`xtask codegen`) and the dispatcher all go through one [`Table`], so the core
//! need not know which client crates exist.

use super::args::Described;
use super::gate::refuse;
use super::table_host::Constant;
use super::{Access, Args, Change, Op, Out};
use crate::error::{Code, Error, Result};
use crate::shape::Ty;
use crate::Value;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The core's table parts, in the order the core's own table ([`CORE`]) lists them: a
/// client crate composes its whole table from these and its own parts.
pub mod parts {
    pub use super::super::table_agency::OPS as AGENCY;
    pub use super::super::table_core::OPS as VALUES;
    pub use super::super::table_documents::OPS as DOCUMENTS;
    pub use super::super::table_fctry::OPS as FCTRY;
    pub use super::super::table_files::OPS as FILES;
    pub use super::super::table_hive::OPS as HIVE;
    pub use super::super::table_hivemind::OPS as HIVEMIND;
    pub use super::super::table_host::OPS as HOST;
    pub use super::super::table_host::{HOST_CONSTANTS, STORE_CONSTANTS, TOKEN_CONSTANTS};
    pub use super::super::table_jobs::OPS as JOBS;
    pub use super::super::table_lock::OPS as LOCK;
    pub use super::super::table_specify::OPS as SPECIFY;
    pub use super::super::table_store::OPS as STORE;
    pub use super::super::table_watch::OPS as WATCH;
}

/// The core's own rows, without any client crate's: what the core's tests dispatch through.
/// A binding uses the whole table of the crate that composes it (`statecore_cli::TABLE`).
pub static CORE: Table = Table::new(
    &[
        parts::VALUES,
        parts::DOCUMENTS,
        parts::FCTRY,
        parts::HIVEMIND,
        parts::HIVE,
        parts::SPECIFY,
        parts::AGENCY,
        parts::FILES,
        parts::HOST,
        parts::LOCK,
        parts::JOBS,
        parts::STORE,
        parts::WATCH,
    ],
    &[
        parts::HOST_CONSTANTS,
        parts::STORE_CONSTANTS,
        parts::TOKEN_CONSTANTS,
    ],
);

/// An operation table: its rows and the hosts' constants, each a list of parts in order, and
/// an index of the rows' names made on the first look-up.
pub struct Table {
    ops: &'static [&'static [Op]],
    constants: &'static [&'static [Constant]],
    index: OnceLock<HashMap<String, &'static Op>>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("ops", &self.ops().count())
            .field("constants", &self.constants().count())
            .finish()
    }
}

impl Table {
    /// The table of these rows and constants, each part after the one before. Without the
    /// `full` feature (the browser's modules, which have no manifest) it keeps no constants,
    /// as [`super::gate`] keeps no doc comments: only the manifest reads them.
    pub const fn new(
        ops: &'static [&'static [Op]],
        constants: &'static [&'static [Constant]],
    ) -> Table {
        #[cfg(not(feature = "full"))]
        let constants: &'static [&'static [Constant]] = {
            let _ = constants;
            &[]
        };
        Table {
            ops,
            constants,
            index: OnceLock::new(),
        }
    }

    /// Every operation, part by part.
    pub fn ops(&self) -> impl Iterator<Item = &'static Op> {
        self.ops.iter().flat_map(|part| part.iter())
    }

    /// Every host constant, part by part.
    pub fn constants(&self) -> impl Iterator<Item = &'static Constant> {
        self.constants.iter().flat_map(|part| part.iter())
    }

    /// The operation called `name`; `E_ARGUMENT` for an unknown one, `E_UNAVAILABLE` for one
    /// this build has not got. Every call of every binding looks its operation up by name: an
    /// index of the names, made on the first call, finds it without a scan of the table.
    pub fn find(&self, name: &str) -> Result<&'static Op> {
        let index = self.index.get_or_init(|| {
            let mut index = HashMap::new();
            for op in self.ops() {
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

    /// Runs `op` (found in this table) on its arguments: [`super::call`], with the table
    /// at hand for the operations that describe it (`manifest`).
    pub fn call(&'static self, op: &Op, args: Args<'_>) -> Result<Out> {
        // Only the full build has the operations that describe their table (`manifest`): the
        // browser's modules, without it, keep no way to the manifest's code.
        #[cfg(feature = "full")]
        let args = Args {
            table: Some(self),
            ..args
        };
        super::call(op, args)
    }

    /// The change a host names: `""` replaces the document with the first argument,
    /// `"merge"` merges the first argument with the second (options), `"set_value"` sets the
    /// second at the pointer the first names, any other name is a writer of this table.
    pub fn change<'a>(&self, name: &str, args: Args<'a>) -> Result<Change<'a>> {
        let mut args = args;
        match name {
            "" => Ok(Change::Replace(args.take(0))),
            "merge" => Ok(Change::Patch(args.take(0), args.take(1))),
            "set_value" => Ok(Change::Set(args.text(0)?.to_owned(), args.take(1))),
            other => Ok(Change::Op(self.find(other)?, args)),
        }
    }

    /// The operation whose parameters a host passes for the change `name`, and how many of
    /// its first parameters the file supplies (its document: 1; none for a writer that
    /// replaces the document without reading it). A replacement or a patch takes `merge`'s
    /// (plain JSON values).
    pub fn params_of(&self, name: &str) -> Result<(&'static Op, usize)> {
        let op = self.find(if name.is_empty() { "merge" } else { name })?;
        let skip = match op.access {
            Access::Writes(write) if !write.takes_document => 0,
            _ => 1,
        };
        Ok((op, skip))
    }

    /// The change a host names for a logged step: none for a read (`""`), else a step of
    /// this table with its arguments after the state.
    pub fn logged_change<'a>(&self, name: &str, args: Args<'a>) -> Result<Option<Change<'a>>> {
        if name.is_empty() {
            return Ok(None);
        }
        Ok(Some(Change::Op(self.find(name)?, args)))
    }

    /// Every type the hosts name: the operations' parameters and results (and options
    /// shapes), the kinds' documents, the hosts' options and the file update's result.
    pub fn type_roots(&self) -> Vec<Ty> {
        super::manifest::type_roots(&self.ops().collect::<Vec<_>>())
    }

    /// The manifest of this table: `{version, ops, kinds, types, errors, classes, host}`.
    pub fn manifest(&self) -> Value {
        let ops: Vec<&Op> = self.ops().collect();
        let constants: Vec<&Constant> = self.constants().collect();
        super::manifest::manifest(&ops, &constants)
    }
}

impl Described for Table {
    fn manifest(&self) -> Value {
        Table::manifest(self)
    }
}
