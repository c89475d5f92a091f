//! A file checked as its kind, for a reader that shows where each problem is (`statecore
//! validate` and `show`, the viewer, `watch`): a document read as its kind, or a log read
//! record by record (`EVENTS.jsonl`), each problem placed at its line and column in the file.

mod file;
mod log;
pub mod places;
mod read;

pub use file::{issue_of, place_of, Checked, Placed, Target};
pub(crate) use log::torn_tail;
pub use log::LogCheck;
