//! The agency runner status contract and watchdog (seed 001): the kind
//! `agency.runner_status` (`.agency/state/runner_status.json`), the stall watchdog, the
//! 12-level run status, `ls` / `show` rendering and the runner protocol document (`CLAUDE.md`).
//! `docs/agency.md` lists every rule and every choice made where the seed is silent.

mod args;
mod derive;
mod files;
mod meta;
mod render;
pub mod shapes;
mod snapshot;
mod status;
mod watchdog;

pub use derive::{derive, derive_all, Derived, SNAPSHOT_FIELDS};
pub use files::{derive_files, FILE_RUN_FIELDS};
pub use meta::{check_meta, meta_broken};
pub use render::{
    format_ago, format_stall, render_ls, render_show, truncate_summary, RUN_FIELDS, SUMMARY_WIDTH,
};
pub use shapes::{DERIVED_STATUSES, STATUSES};
pub use snapshot::{build_snapshot, FACT_FIELDS};
pub use status::{
    age, initial_runner_status, parse_runner_status, update_runner_status, validate_runner_status,
    KIND,
};
pub use watchdog::{check_stall, Stall, DEFAULT_STALL_THRESHOLD_MS, SIGNAL_FIELDS};

/// The runner protocol document the seed's `init` writes as `CLAUDE.md` at the repository
/// root (only when absent: the host helper reports `created` or `exists`).
pub const PROTOCOL_DOCUMENT: &str = include_str!("protocol.md");
