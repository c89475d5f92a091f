//! statecore: the pure, I/O-free core of the statecore library.
//!
//! Documents are [`Value`]s ([`value`]) with preserved key order and exact numbers. Nothing
//! here reads files, clocks or randomness: hosts pass `now` and ids in. Nothing panics: the
//! crate denies `panic`, `unwrap`, `expect`, indexing and unchecked arithmetic.
//!
//! Modules: [`json`] (parse, limits, canonical output), [`merge`] (strategies), [`report`]
//! (validation reports), [`error`] (stable error codes), [`time`], [`machine`] (generic state
//! machines), [`kinds`] (document kinds), [`document`] (the pure half of file updates),
//! [`edit`] (files people edit),
//! [`jsonl`] (append-only logs), protocol modules ([`agency`], [`fctry`], [`hivemind`]),
//! [`shape`] (the one description of every value: validation's field rules, JSON Schemas,
//! host types), [`schema`], [`options`], and [`ops`]: the operation table every binding
//! dispatches through, from which the hosts' code, types and docs are generated.

pub mod agency;
pub mod checked;
pub mod document;
pub mod edit;
pub mod error;
pub mod fctry;
pub mod file_update;
pub mod hive;
pub mod hivemind;
pub mod job;
pub mod json;
pub mod jsonl;
pub mod kinds;
pub mod lock;
pub mod locked_update;
pub mod machine;
pub mod mcp;
pub mod mcp_arguments;
pub mod mcp_farms;
pub mod merge;
pub mod ops;
pub mod options;
pub mod report;
pub mod schema;
pub mod shape;
pub mod specify;
pub mod store;
pub mod time;
pub mod update_job;
pub mod value;
pub mod watch;

pub use error::{Code, Error, Result};
pub use value::{Map, Number, Str, Value};
