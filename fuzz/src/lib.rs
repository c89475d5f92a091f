//! Coverage-guided fuzzing of the statecore core (`docs/fuzzing.md`).
//!
//! Each target is a plain function `fn(&[u8])` in [`targets`] that feeds the input to the
//! core and panics when a law is broken. The same functions run three ways:
//! - under libFuzzer, one binary per target (`fuzz_targets/*.rs`, built on stable Rust with
//!   the sanitizer-coverage flags of `scripts/fuzz.sh`);
//! - under `cargo test` (`tests/replay.rs`), over every committed regression input
//!   (`fuzz/regressions/<target>/`) and every seed made from the conformance corpus;
//! - from the `replay` binary, to reproduce one input with a plain build and a backtrace.

pub mod input;
pub mod known;
pub mod laws;
pub mod seeds;
pub mod targets;

/// A fuzz target: its name (its binary, its corpus and regression directories) and harness.
pub struct Target {
    /// The name (`json`, `merge`, ...).
    pub name: &'static str,
    /// What it exercises, for people.
    pub about: &'static str,
    /// The harness: feeds one input to the core, panics when a law is broken.
    pub run: fn(&[u8]),
}

/// Every target; each has a libFuzzer entry `fuzz_targets/<name>.rs` (checked by a test).
pub static TARGETS: &[Target] = &[
    Target {
        name: "json",
        about: "strict JSON parser and canonical serializer (round trips, serde_json differential)",
        run: targets::json::run,
    },
    Target {
        name: "merge",
        about: "merge strategies, rules and stamps (idempotence, identity, RFC 7396, merge_text)",
        run: targets::merge::run,
    },
    Target {
        name: "kinds",
        about: "every document kind's validation, reader and writer",
        run: targets::kinds::run,
    },
    Target {
        name: "machine",
        about: "state-machine engine: definitions, events, firing, automatic transitions",
        run: targets::machine::run,
    },
    Target {
        name: "jsonl",
        about: "JSONL logs: parse, read, append and torn-tail repair",
        run: targets::jsonl::run,
    },
    Target {
        name: "index_md",
        about: "index.md text: markdown and index round trips, helpers' updates, files people edit",
        run: targets::index_md::run,
    },
    Target {
        name: "hivelog",
        about: "hive session logs: the streaming replay fed in any pieces agrees with the whole; the session repair",
        run: targets::hivelog::run,
    },
    Target {
        name: "ops",
        about: "the operation table through TABLE.call, the wire path and the file routines",
        run: targets::ops::run,
    },
    Target {
        name: "view",
        about: "the viewer's answer to any request: a route or a refusal with a stable code",
        run: targets::view::run,
    },
];

/// The target called `name`.
pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}
