//! statecore: the pure, I/O-free core of the statecore library.
//!
//! Documents are `serde_json::Value`s with preserved key order and exact numbers. Nothing
//! here reads files, clocks or randomness: hosts pass `now` and ids in. Nothing panics: the
//! crate denies `panic`, `unwrap`, `expect`, indexing and unchecked arithmetic.
//!
//! Modules: [`json`] (parse, limits, canonical output), [`merge`] (strategies), [`report`]
//! (validation reports), [`error`] (stable error codes), [`time`], [`machine`] (generic state
//! machines), [`kinds`] (document kinds), [`document`] (the pure half of file updates),
//! [`jsonl`] (append-only logs), protocol modules ([`agency`], [`fctry`], [`hivemind`]),
//! [`check`] (shared field checks), and [`api`], the flat
//! function set every binding exposes.

pub mod agency;
pub mod api;
pub mod check;
pub mod document;
pub mod error;
pub mod fctry;
pub mod hivemind;
pub mod json;
pub mod jsonl;
pub mod kinds;
pub mod machine;
pub mod merge;
pub mod report;
pub mod schema;
pub mod time;

pub use error::{Code, Error, Result};
pub use serde_json::Value;
