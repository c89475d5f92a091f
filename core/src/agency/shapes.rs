//! The agency runner status document and the values of the watchdog, snapshot, run status and
//! rendering operations, described once (`crate::shape`): validation's field rules, the JSON
//! Schema and the TypeScript and Python types come from here.

use crate::shape::common::{NOW, REPORT};
use crate::shape::{Enum, Field, Shape, Ty};

/// The four runner statuses, case-sensitive.
pub const STATUSES: [&str; 4] = ["working", "needs_input", "blocked", "ready_for_review"];

/// The derived statuses, in precedence order; each shows with spaces for underscores
/// (`needs_attention` → `needs attention`).
pub const DERIVED_STATUSES: [&str; 12] = [
    "broken",
    "merged",
    "abandoned",
    "failed",
    "needs_attention",
    "ready_for_review",
    "needs_input",
    "blocked",
    "working",
    "stalled",
    "active",
    "idle",
];

/// The four runner statuses.
pub static RUNNER_STATUS_NAME: Enum = Enum {
    name: "RunnerStatusName",
    doc: "A runner status (case-sensitive).",
    values: &STATUSES,
};

/// The 12 derived run statuses.
pub static RUN_STATUS_NAME: Enum = Enum {
    name: "RunStatusName",
    doc: "A derived run status, in precedence order.",
    values: &DERIVED_STATUSES,
};

const STRINGS: Ty = Ty::List(&Ty::Str);

/// `.agency/state/runner_status.json`.
pub static RUNNER_STATUS: Shape = Shape::document(
    "RunnerStatus",
    "a runner status",
    "`.agency/state/runner_status.json`: what a runner reports at each milestone.",
    &[
        Field::opt(
            "$schema",
            Ty::Str,
            "The JSON Schema this document follows (kept as it is).",
        ),
        Field::opt("schema_version", Ty::Str, "The contract's version (`1.0`)."),
        Field::req(
            "status",
            Ty::Enum(&RUNNER_STATUS_NAME),
            "What the runner is doing.",
        )
        .by_rule(),
        Field::opt(
            "updated_at",
            Ty::Str,
            "When it was written: RFC 3339 (without a time zone: a warning).",
        )
        .by_rule(),
        Field::req(
            "summary",
            Ty::Line,
            "One line saying what the runner is doing (not blank).",
        )
        .presence_by_rule(),
        Field::opt(
            "questions",
            STRINGS,
            "What the runner asks (non-empty for `needs_input`).",
        ),
        Field::opt(
            "blockers",
            STRINGS,
            "What blocks it (non-empty for `blocked`).",
        ),
        Field::opt(
            "how_to_test",
            Ty::Str,
            "How a reviewer checks the work (not empty for `ready_for_review`).",
        ),
        Field::opt("risks", STRINGS, "Known risks."),
    ],
);

/// A runner's milestone update.
pub static RUNNER_STATUS_UPDATE: Shape = Shape::open(
    "RunnerStatusUpdate",
    "a runner status update",
    "A runner's milestone: `status`/`summary` kept when left out, the details cleared.",
    &[
        Field::opt("status", Ty::Enum(&RUNNER_STATUS_NAME), "The new status."),
        Field::opt("summary", Ty::Str, "The new summary."),
        Field::opt("questions", STRINGS, "Questions (`needs_input`)."),
        Field::opt("blockers", STRINGS, "Blockers (`blocked`)."),
        Field::opt("how_to_test", Ty::Str, "How to test (`ready_for_review`)."),
        Field::opt("risks", STRINGS, "Known risks."),
    ],
);

/// `meta.json`'s `flags`.
pub static RUN_META_FLAGS: Shape = Shape::document(
    "RunMetaFlags",
    "meta.json's flags",
    "A run's flags in meta.json (each `true` or absent).",
    &[
        Field::opt("setup_failed", Ty::Bool, "The setup script failed."),
        Field::opt(
            "tmux_failed",
            Ty::Bool,
            "The tmux session could not be made.",
        ),
        Field::opt("needs_attention", Ty::Bool, "The run needs a person."),
        Field::opt("needs_attention_reason", Ty::Str, "Why it needs a person."),
        Field::opt("abandoned", Ty::Bool, "The user abandoned the run."),
    ],
);

/// `meta.json`'s `setup`.
pub static RUN_META_SETUP: Shape = Shape::document(
    "RunMetaSetup",
    "meta.json's setup",
    "How the run's setup script went.",
    &[
        Field::opt("command", Ty::Str, "The command run."),
        Field::opt(
            "exit_code",
            Ty::Int,
            "Its exit code (-1: it did not start).",
        ),
        Field::opt("duration_ms", Ty::Int, "How long it ran."),
        Field::opt("timed_out", Ty::Bool, "It timed out."),
        Field::opt("log_path", Ty::Str, "Its log."),
        Field::opt("output_ok", Ty::Bool, "`ok` of its output file."),
        Field::opt("output_summary", Ty::Str, "`summary` of its output file."),
    ],
);

/// `meta.json`'s `archive`.
pub static RUN_META_ARCHIVE: Shape = Shape::document(
    "RunMetaArchive",
    "meta.json's archive",
    "When the run was archived and merged.",
    &[
        Field::opt("archived_at", Ty::Str, "When it was archived."),
        Field::opt("merged_at", Ty::Str, "When its PR was merged."),
    ],
);

/// A run's `meta.json` (`<data dir>/repos/<repo_id>/runs/<run_id>/meta.json`), as agency's
/// `ls` decodes it: a field of another type, or no `schema_version` or `created_at`, makes
/// the run `broken`.
pub static RUN_META: Shape = Shape::document(
    "RunMeta",
    "a run's meta.json",
    "A run's meta.json, written by agency: what `ls` and `show` read of it.",
    &[
        Field::req("schema_version", Ty::Str, "The record's version (`1.0`)."),
        Field::opt("run_id", Ty::Str, "The run's id."),
        Field::opt("repo_id", Ty::Str, "The repository's id."),
        Field::opt("name", Ty::Str, "The run's name."),
        Field::opt("runner", Ty::Str, "The runner (`claude`, `codex`)."),
        Field::opt("runner_cmd", Ty::Str, "The runner's command."),
        Field::opt("parent_branch", Ty::Str, "The branch the run started from."),
        Field::opt("branch", Ty::Str, "The run's branch."),
        Field::opt("worktree_path", Ty::Str, "The worktree's absolute path."),
        Field::req(
            "created_at",
            Ty::Str,
            "When the run was created (RFC 3339).",
        ),
        Field::opt("tmux_session_name", Ty::Str, "The tmux session's name."),
        Field::opt("flags", Ty::Object(&RUN_META_FLAGS), "The run's flags."),
        Field::opt(
            "setup",
            Ty::Object(&RUN_META_SETUP),
            "The setup script's run.",
        ),
        Field::opt("pr_number", Ty::Int, "The PR's number."),
        Field::opt("pr_url", Ty::Str, "The PR's URL."),
        Field::opt("last_push_at", Ty::Str, "When the branch was last pushed."),
        Field::opt("last_verify_at", Ty::Str, "When the run was last verified."),
        Field::opt(
            "last_report_sync_at",
            Ty::Str,
            "When the PR body was last synced.",
        ),
        Field::opt(
            "last_report_hash",
            Ty::Str,
            "The PR body's hash at that sync.",
        ),
        Field::opt(
            "archive",
            Ty::Object(&RUN_META_ARCHIVE),
            "The run's archive.",
        ),
    ],
);

/// What a reader makes of the status file.
pub static RUNNER_STATUS_PARSE: Shape = Shape::exact(
    "RunnerStatusParse",
    "What a reader makes of the status file: no status when it is missing or invalid.",
    &[
        Field::req(
            "status",
            Ty::Nullable(&Ty::Object(&RUNNER_STATUS)),
            "The status, or null.",
        ),
        Field::req(
            "report",
            Ty::Nullable(&Ty::Object(&REPORT)),
            "Null for a missing file; why a file counts as absent otherwise.",
        ),
    ],
);

/// The watchdog's signals.
pub static SIGNALS: Shape = Shape::exact(
    "ActivitySignals",
    "The watchdog's signals: the status file's modification time (null: no file) and tmux.",
    &[
        Field::opt(
            "status_file_mod_time",
            Ty::Nullable(&Ty::Alias(&NOW)),
            "When the status file was last modified.",
        ),
        Field::opt(
            "tmux_session_exists",
            Ty::Bool,
            "Whether the run's tmux session exists.",
        ),
    ],
);

/// The watchdog's verdict.
pub static STALL: Shape = Shape::exact(
    "StallResult",
    "The watchdog's verdict; `stalled_duration` (ms) only when stalled.",
    &[
        Field::req("is_stalled", Ty::Bool, "True when stalled."),
        Field::opt(
            "stalled_duration",
            Ty::Whole(0),
            "How long it has been stalled, in ms.",
        ),
    ],
);

/// What the host observed of a run.
pub static SNAPSHOT: Shape = Shape::exact(
    "RunSnapshot",
    "What the host observed of a run, for `derive`.",
    &[
        Field::opt(
            "meta",
            Ty::Nullable(&Ty::Json),
            "meta.json's document; null when missing or unreadable; `broken` when it is not a meta.json agency reads (`check_meta`).",
        ),
        Field::opt(
            "worktree_present",
            Ty::Bool,
            "Default true; false adds the `archived` marker.",
        ),
        Field::opt(
            "tmux_active",
            Ty::Bool,
            "Whether the run's tmux session is alive.",
        ),
        Field::opt(
            "runner_status",
            Ty::Nullable(&Ty::Map(&Ty::Json)),
            "The status document; one that does not validate counts as absent.",
        ),
        Field::opt(
            "runner_status_report",
            Ty::Nullable(&Ty::Object(&REPORT)),
            "Why the status counts as absent.",
        ),
        Field::opt(
            "stall_result",
            Ty::Nullable(&Ty::Object(&STALL)),
            "The watchdog's verdict.",
        ),
        Field::opt(
            "status_file_mod_time",
            Ty::Nullable(&Ty::Alias(&NOW)),
            "When the status file was last modified (`show`'s `updated:`).",
        ),
    ],
);

/// The facts a host adds to a worktree's files.
pub static FACTS: Shape = Shape::exact(
    "SnapshotFacts",
    "The facts a host adds to a worktree's files for `build_snapshot`.",
    &[
        Field::opt(
            "status_file_mod_time",
            Ty::Nullable(&Ty::Alias(&NOW)),
            "The status file's modification time.",
        ),
        Field::opt(
            "tmux_active",
            Ty::Bool,
            "Whether the run's tmux session is alive.",
        ),
        Field::opt("worktree_present", Ty::Bool, "Whether the worktree exists."),
    ],
);

/// The derived run status.
pub static DERIVED_STATUS: Shape = Shape::exact(
    "DerivedStatus",
    "The derived run status: machine value, display string, archived marker.",
    &[
        Field::req("status", Ty::Enum(&RUN_STATUS_NAME), "The machine value."),
        Field::req(
            "display",
            Ty::Str,
            "The display string (`merged (archived)`).",
        ),
        Field::req("archived", Ty::Bool, "True when the worktree is gone."),
        Field::opt(
            "stalled_duration",
            Ty::Whole(0),
            "Milliseconds, only when `status` is `stalled`.",
        ),
    ],
);

/// One run of `derive_files`: its files' lengths in the data and the host's facts.
pub static FILE_RUN: Shape = Shape::exact(
    "FileRun",
    "One run of `derive_files`: the lengths of its files in the data (meta.json, then \
     runner_status.json; null: missing) and the facts `build_snapshot` takes.",
    &[
        Field::opt(
            "meta",
            Ty::Nullable(&Ty::Whole(0)),
            "meta.json's length in bytes; null: missing.",
        ),
        Field::opt(
            "status",
            Ty::Nullable(&Ty::Whole(0)),
            "runner_status.json's length in bytes; null: missing.",
        ),
        Field::opt(
            "status_file_mod_time",
            Ty::Nullable(&Ty::Alias(&NOW)),
            "The status file's modification time.",
        ),
        Field::opt(
            "tmux_active",
            Ty::Bool,
            "Whether the run's tmux session is alive.",
        ),
        Field::opt("worktree_present", Ty::Bool, "Whether the worktree exists."),
    ],
);

/// Which file of a run did not read.
pub static RUN_FILE_NAME: Enum = Enum {
    name: "RunFileName",
    doc: "A file of a run: `meta` (meta.json) or `runner_status` (runner_status.json).",
    values: &["meta", "runner_status"],
};

/// A run's file whose bytes did not read as JSON.
pub static FILE_ERROR: Shape = Shape::exact(
    "RunFileError",
    "A run's file whose bytes do not read as JSON: which file, and the parser's error.",
    &[
        Field::req("file", Ty::Enum(&RUN_FILE_NAME), "The file."),
        Field::req("code", Ty::Str, "Stable code (`E_PARSE`, `E_LIMIT`, ...)."),
        Field::req("path", Ty::Str, "JSON pointer within the file."),
        Field::req("message", Ty::Str, "What is wrong and how to fix it."),
    ],
);

/// The derived run status of one run of `derive_files`.
pub static FILE_DERIVED: Shape = Shape::exact(
    "FileDerivedStatus",
    "The derived run status of a run read from its files' bytes, with the error of a file \
     that did not read.",
    &[
        Field::req("status", Ty::Enum(&RUN_STATUS_NAME), "The machine value."),
        Field::req(
            "display",
            Ty::Str,
            "The display string (`merged (archived)`).",
        ),
        Field::req("archived", Ty::Bool, "True when the worktree is gone."),
        Field::opt(
            "stalled_duration",
            Ty::Whole(0),
            "Milliseconds, only when `status` is `stalled`.",
        ),
        Field::opt(
            "error",
            Ty::Object(&FILE_ERROR),
            "The first of the run's files whose bytes do not read as JSON.",
        ),
    ],
);

/// One run of `ls` / `show`.
pub static RUN_ROW: Shape = Shape::exact(
    "RunRow",
    "One run for `render_ls` / `render_show`.",
    &[
        Field::opt("run_id", Ty::Nullable(&Ty::Str), "The run id."),
        Field::opt("name", Ty::Nullable(&Ty::Str), "The run's name."),
        Field::opt(
            "pr",
            Ty::Nullable(&Ty::Union(&[Ty::Int, Ty::Str])),
            "A number `n` shows as `#n`; a string as it is.",
        ),
        Field::req("snapshot", Ty::Object(&SNAPSHOT), "What the host observed."),
    ],
);

/// A status argument: the document, or null for a missing file.
pub const RUNNER_STATUS_IN: Ty = Ty::Nullable(&Ty::Object(&RUNNER_STATUS));
