//! The status line's input and output, described once (`crate::shape`): the types of
//! `status_line`, `project_status` and `render_status_line` in every host.

use super::render::TWO_ROWS;
use crate::shape::{Enum, Field, Shape, Ty};

const TEXT: Ty = Ty::Nullable(&Ty::Str);

/// Chunk counts of a status line.
pub static CHUNK_COUNTS: Shape = Shape::exact(
    "ChunkCounts",
    "Chunk counts by status.",
    &[
        Field::req("completed", Ty::Whole(0), "Completed chunks."),
        Field::req("total", Ty::Whole(0), "All chunks."),
        Field::req("active", Ty::Whole(0), "Active chunks."),
        Field::req("retrying", Ty::Whole(0), "Retrying chunks."),
        Field::req("failed", Ty::Whole(0), "Failed chunks."),
        Field::req("blocked", Ty::Whole(0), "Blocked chunks."),
        Field::req(
            "attempt",
            Ty::Nullable(&Ty::Whole(1)),
            "The attempt of the first retrying chunk (the one the client shows), or null.",
        ),
        Field::opt(
            "source",
            Ty::Enum(&CHUNK_SOURCE),
            "What was counted: `chunkProgress` (when it has a total), else the `buildRun`'s chunks; the client's look shows only `chunkProgress`.",
        ),
    ],
);

/// Where chunk counts come from.
pub static CHUNK_SOURCE: Enum = Enum {
    name: "ChunkCountSource",
    doc: "What the chunk counts count: `chunkProgress`, or the build run's chunks.",
    values: &["chunkProgress", "buildRun"],
};

/// A `{part, total}` count.
pub static SCENARIO_COUNTS: Shape = Shape::exact(
    "ScenarioCounts",
    "Satisfied scenarios out of the total.",
    &[
        Field::req("satisfied", Ty::Whole(0), "Satisfied scenarios."),
        Field::req("total", Ty::Whole(0), "All scenarios."),
    ],
);

/// A review's scan.
pub static SCAN_COUNTS: Shape = Shape::exact(
    "ScanCounts",
    "A review's scan: files scanned out of the total (`scanProgress`).",
    &[
        Field::req("scanned", Ty::Whole(0), "Files scanned."),
        Field::req("total", Ty::Whole(0), "All files to scan."),
    ],
);

/// Readiness counts.
pub static READINESS_COUNTS: Shape = Shape::exact(
    "ReadinessCounts",
    "The sections by readiness, in the user's words.",
    &[
        Field::req(
            "built",
            Ty::Whole(0),
            "Built: `aligned`, `ready-to-execute` and `satisfied` sections.",
        ),
        Field::req(
            "evolved",
            Ty::Whole(0),
            "Evolved (the spec is ahead of the code): `spec-ahead` sections.",
        ),
        Field::req(
            "specced",
            Ty::Whole(0),
            "Specced, not built: `ready-to-build` and `draft` sections.",
        ),
        Field::req(
            "unspecced",
            Ty::Whole(0),
            "Unspecced (code without a spec): `undocumented` sections.",
        ),
        Field::req("total", Ty::Whole(0), "All four."),
    ],
);

/// How the state file was found.
pub static STATE_FILE: Enum = Enum {
    name: "StateFileCondition",
    doc: "How `.fctry/state.json` was found: not there, read and valid, unparseable (or not text), parsed but invalid.",
    values: &["missing", "ok", "unreadable", "invalid"],
};

/// What a status line shows.
pub static STATUS_LINE: Shape = Shape::exact(
    "StatusLineSummary",
    "What a status line shows (absent parts are null).",
    &[
        Field::req("project", TEXT, "The project's name (its directory's)."),
        Field::req(
            "version",
            TEXT,
            "The project's version from the registry (`versions.external.current`), as written (the words' look shows it without `v`).",
        ),
        Field::req(
            "stateFile",
            Ty::Nullable(&Ty::Enum(&STATE_FILE)),
            "How the state file was found (null: from a state alone).",
        ),
        Field::req("branch", TEXT, "The git branch, or the commit's short hash."),
        Field::req(
            "specVersion",
            TEXT,
            "The spec version (the registry's, else the state's), as written (the words' look shows it without `v`).",
        ),
        Field::req("specStatus", TEXT, "The spec's frontmatter `status`."),
        Field::req(
            "context",
            Ty::Nullable(&Ty::Whole(0)),
            "The context used, in percent of what Claude Code allows before compacting.",
        ),
        Field::req("command", TEXT, "The command in progress."),
        Field::req("step", TEXT, "The step in progress."),
        Field::req(
            "scan",
            Ty::Nullable(&Ty::Object(&SCAN_COUNTS)),
            "A review's scan.",
        ),
        Field::req(
            "section",
            TEXT,
            "The active section's alias as written (`#core-flow` or `core-flow`).",
        ),
        Field::req(
            "sectionTitle",
            TEXT,
            "Its title, from the spec's table of contents.",
        ),
        Field::req(
            "sectionNumber",
            TEXT,
            "Its number: the table of contents' for an alias written without `#`, else the state's (else the table's).",
        ),
        Field::req(
            "chunks",
            Ty::Nullable(&Ty::Object(&CHUNK_COUNTS)),
            "Chunk counts.",
        ),
        Field::req(
            "scenarios",
            Ty::Nullable(&Ty::Object(&SCENARIO_COUNTS)),
            "Scenario counts.",
        ),
        Field::req(
            "readiness",
            Ty::Nullable(&Ty::Object(&READINESS_COUNTS)),
            "Readiness counts.",
        ),
        Field::req("build", TEXT, "The build run's status."),
        Field::req("untracked", Ty::Whole(0), "How many untracked changes."),
        Field::req(
            "inbox",
            Ty::Whole(0),
            "The foreman's processed findings waiting in the inbox.",
        ),
        Field::req(
            "upgraded",
            Ty::Bool,
            "An upgrade was applied (`upgradeApplied`).",
        ),
        Field::req(
            "nextStep",
            TEXT,
            "What to do next: the agents' `nextStep`, else (for a project, when no command runs) the one derived.",
        ),
    ],
);

/// A status line's layout.
pub static LAYOUT: Enum = Enum {
    name: "StatusLineLayout",
    doc: "One row, or the fctry client's two: the project's segments, then the work's.",
    values: &["one-row", TWO_ROWS],
};

/// Status line rendering options.
pub static RENDER_OPTIONS: Shape = Shape::exact(
    "StatusLineOptions",
    "How a status line is rendered.",
    &[
        Field::opt("color", Ty::Bool, "Add ANSI colours (default false)."),
        Field::opt(
            "layout",
            Ty::Enum(&LAYOUT),
            "`one-row` (the default) or `two-rows`.",
        ),
        Field::opt(
            "icons",
            Ty::Bool,
            "The fctry client's icons and dot bars instead of words (a Nerd Font shows them; default false).",
        ),
    ],
);

/// A project's files, as a host read them.
pub static PROJECT: Shape = Shape::exact(
    "FctryProject",
    "A fctry project's files, each its text or null when there is none.",
    &[
        Field::opt("name", TEXT, "The project's name (its directory's)."),
        Field::opt("state", TEXT, "`.fctry/state.json`."),
        Field::opt(
            "config",
            TEXT,
            "`.fctry/config.json`, the version registry.",
        ),
        Field::opt(
            "spec",
            TEXT,
            "`.fctry/spec.md`, or its first 8 KB (only they are read).",
        ),
        Field::opt("inbox", TEXT, "`.fctry/inbox.json`."),
        Field::opt(
            "gitHead",
            TEXT,
            "The repository's `HEAD` file (`ref: refs/heads/main`).",
        ),
        Field::opt(
            "session",
            Ty::Nullable(&Ty::Json),
            "The session object Claude Code passes a status line on standard input.",
        ),
    ],
);
