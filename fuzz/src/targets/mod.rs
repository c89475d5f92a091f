//! The harnesses, one module per fuzz target. Each has `run(&[u8])` (the harness) and
//! `seeds(&Case, &mut Vec<Vec<u8>>)` (its inputs made from a conformance case); the input
//! format is documented at the top of each module, next to the code that decodes it.

pub mod hivelog;
pub mod index_md;
pub mod json;
pub mod jsonl;
pub mod kinds;
pub mod machine;
pub mod merge;
pub mod ops;
pub mod view;
