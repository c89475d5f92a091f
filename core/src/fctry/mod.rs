//! The fctry Status State Protocol (seed 000): the document kinds `fctry.state`
//! (`.fctry/state.json`), `fctry.inbox` (`.fctry/inbox.json`) and `fctry.event`, and the
//! operations agents perform on them. `docs/fctry.md` lists every rule and every choice made
//! where the seed is silent.
//!
//! All fields are optional and `null` ≡ absent; unknown fields are kept and reported as
//! warnings, never errors.

mod build;
mod feed;
mod inbox;
pub mod results;
pub mod shapes;
mod status;
mod validate;
mod words;
mod workflow;

pub use build::{
    chunk_event, chunk_machine, create_build_run, dag_layers, finish_build_run, pause_build_run,
    ready_chunks, resume_build_run, resume_plan, run_machine, DEFAULT_MAX_RETRIES,
};
pub use feed::{activity_feed, context_health};
pub use inbox::{
    inbox_add, inbox_batch, inbox_counts, inbox_dismiss, inbox_machine, inbox_transition,
    random_suffix, RANDOM_BYTES,
};
pub use status::{
    project_status, render_status_line, render_summary, session_dir, spec_head, status_line,
    status_line_text, strip_controls, Look, Project, StateFile, SPEC_HEAD, TWO_ROWS,
};

pub use validate::{find_cycle, is_inbox_id, validate_event, validate_inbox, validate_state};
pub use words::{
    AGENTS, CHUNK_STATUSES, COMMANDS, CONTEXT_KINDS, INBOX_STATUSES, INBOX_TYPES, LIFECYCLE_KINDS,
    PRIORITY_SOURCES, RUN_STATUSES, STEPS, VERIFICATION_KINDS,
};
pub use workflow::{
    add_untracked_change, check_prerequisites, clear_untracked_changes, complete_step,
    skip_prerequisites, start_command, start_step, Prerequisites,
};
