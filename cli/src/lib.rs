//! statecore-cli: the command line's rules ([`cli`], docs/cli.md) and the live viewer's
//! ([`view`], docs/viewer.md), pure like the core and built over its public API only, and the
//! whole operation table ([`TABLE`]): the core's rows and these crates' own, composed here in
//! one place. The bindings (the npm package's Node, browser and status-line modules, the
//! Python package), `xtask codegen` and the tests all dispatch through [`TABLE`], so that the
//! npm and Python command lines and viewers run one implementation, and the core does not
//! know this crate exists.

pub mod cli;
mod table_cli;
mod table_view;
pub mod view;

use statecore::ops::{parts, Constant, Op, Table};

/// The command line's rows (`cli_run`).
pub static CLI_OPS: &[Op] = table_cli::OPS;

/// The viewer's rows (`view_*`).
pub static VIEW_OPS: &[Op] = table_view::OPS;

/// The viewer's host constants (`view_*_bytes`).
pub static VIEW_CONSTANTS: &[Constant] = table_view::CONSTANTS;

/// The command line's host constants (`stdin_*`).
pub static CLI_CONSTANTS: &[Constant] = table_cli::CONSTANTS;

/// Every operation and host constant, in the order the manifest, the generated code and the
/// docs list them: the one table every binding, `xtask codegen` and the tests use.
pub static TABLE: Table = Table::new(
    &[
        parts::VALUES,
        CLI_OPS,
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
        VIEW_OPS,
        parts::WATCH,
    ],
    &[
        parts::HOST_CONSTANTS,
        VIEW_CONSTANTS,
        parts::STORE_CONSTANTS,
        CLI_CONSTANTS,
        parts::TOKEN_CONSTANTS,
    ],
);
