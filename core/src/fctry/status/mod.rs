//! The terminal status line (seed 000 "Consumers", and the fctry client it replaces):
//! [`status_line`] reduces a state to what a status line shows, [`project_status`] adds what
//! the project's other files say (the registry's versions, the spec's titles and status, the
//! inbox's findings, the git branch, the session's context) and the next step when none is
//! set, [`render_status_line`] turns a summary into text. They accept whatever a reader may
//! get (a missing or unparseable file reads as `{}`), never fail on odd field types, and
//! ignore what they do not understand. Parts with nothing to say (a total of 0) are left out,
//! and every text from a file is rendered without its control characters: a file written by
//! any agent cannot drive the user's terminal.

mod next;
mod project;
mod render;
pub mod shapes;
mod summary;

pub use project::{session_dir, spec_head, Project, StateFile, SPEC_HEAD};
pub use render::{render as render_summary, strip_controls, Look, TWO_ROWS};

use crate::{Map, Value};
use summary::opt;

/// The summary a status line shows, from the state alone (`StatusLineSummary`: `{project,
/// version, stateFile, branch, specVersion, specStatus, context, command, step, scan,
/// section, sectionTitle, sectionNumber, chunks, scenarios, readiness, build, untracked,
/// inbox, upgraded, nextStep}`; absent parts are `null`, and so are counts whose total is 0;
/// the project's fields are `null` here). Texts are as written (`specVersion` with its `v`,
/// `section` with or without its `#`). `chunks` (`{completed, total, active, retrying,
/// failed, blocked, attempt, source}`) counts what `chunkProgress` says when it has a total
/// (the chunk statuses of its extended form, out of its `total`, or its legacy `{current,
/// total}`), else the chunk statuses of `buildRun.chunks`; `source` is `chunkProgress` or
/// `buildRun`, `attempt` the attempt of the first retrying chunk. `readiness` counts
/// `readinessSummary` in the user's words (`{built, evolved, specced, unspecced, total}`).
pub fn status_line(state: &Value) -> Value {
    let mut out = Map::new();
    for key in ["project", "version", "stateFile", "branch"] {
        out.insert(key.into(), Value::Null);
    }
    summary::of_state(state, &mut out);
    out.insert("specStatus".into(), Value::Null);
    out.insert("context".into(), Value::Null);
    out.insert("inbox".into(), 0.into());
    Value::Object(order(out))
}

/// The summary of a project (see [`Project`]): [`status_line`] of its state, with the
/// project's name, the registry's external version and spec version (the spec version's
/// source of truth, before the state's cached one), the state file's condition (`missing`,
/// `ok`, `unreadable`, `invalid`), the branch, the spec's frontmatter `status`, the section's
/// title and number from the spec's table of contents, the context percentage, the foreman's
/// findings waiting in the inbox, and, when the agents set no `nextStep` and no command runs,
/// the next step the client would suggest.
pub fn project_status(project: &Project<'_>) -> Value {
    let (state, file) = read_state(project.state);
    let mut out = Map::new();
    out.insert("project".into(), opt(project.name));
    let (version, spec_version) = project::registry(project.config);
    out.insert("version".into(), opt(version.as_deref()));
    out.insert("stateFile".into(), Value::from(file));
    out.insert("branch".into(), opt(project::branch(project.git_head)));
    summary::of_state(&state, &mut out);
    if let Some(version) = spec_version.as_deref() {
        out.insert("specVersion".into(), Value::from(version));
    }
    let spec = project.spec.unwrap_or_default();
    out.insert("specStatus".into(), opt(project::spec_status(spec)));
    out.insert(
        "context".into(),
        project::context(project.session).map_or(Value::Null, Value::from),
    );
    let features = project::features(spec);
    let section = out
        .get("section")
        .and_then(Value::as_str)
        .map(str::to_owned);
    // Looked up without its `#`: the seed writes `"#core-flow"`, the table of contents
    // `core-flow`.
    let alias = section.as_deref().map(|s| s.trim_start_matches('#'));
    if let Some(feature) = alias.and_then(|s| features.iter().find(|f| f.alias == s)) {
        out.insert("sectionTitle".into(), Value::from(feature.title));
        // The table's number, as the client shows it with the title it finds (an alias
        // written without `#`); a `#alias`, which the client does not find, keeps the
        // state's number when there is one.
        let written = section.as_deref().is_some_and(|s| s.starts_with('#'));
        if !written || out.get("sectionNumber").is_none_or(Value::is_null) {
            out.insert("sectionNumber".into(), Value::from(feature.number));
        }
    }
    let findings = project::foreman_findings(project.inbox);
    out.insert("inbox".into(), findings.into());
    let idle = out.get("command").is_some_and(Value::is_null);
    if idle && out.get("nextStep").is_some_and(Value::is_null) {
        let known = next::Known {
            has_spec: project.spec.is_some()
                || spec_version.is_some()
                || summary::text(&state, "specVersion").is_some(),
            findings,
            features: &features,
        };
        out.insert("nextStep".into(), Value::from(next::derive(&state, &known)));
    }
    Value::Object(order(out))
}

/// The state a status line reads from the file, and the file's condition.
fn read_state(file: StateFile<'_>) -> (Value, &'static str) {
    match file {
        StateFile::Missing => (Value::Object(Map::new()), "missing"),
        StateFile::Unreadable => (Value::Object(Map::new()), "unreadable"),
        StateFile::Text(text) => match crate::json::parse(text.as_bytes()) {
            Err(_) => (Value::Object(Map::new()), "unreadable"),
            Ok(state) => {
                let valid = super::validate_state(&state).valid();
                (state, if valid { "ok" } else { "invalid" })
            }
        },
    }
}

/// The summary's fields in their documented order.
fn order(fields: Map) -> Map {
    const ORDER: [&str; 21] = [
        "project",
        "version",
        "stateFile",
        "branch",
        "specVersion",
        "specStatus",
        "context",
        "command",
        "step",
        "scan",
        "section",
        "sectionTitle",
        "sectionNumber",
        "chunks",
        "scenarios",
        "readiness",
        "build",
        "untracked",
        "inbox",
        "upgraded",
        "nextStep",
    ];
    let mut out = Map::new();
    for key in ORDER {
        out.insert(key.into(), fields.get(key).cloned().unwrap_or(Value::Null));
    }
    out
}

/// The rendered status line straight from the state file's bytes (`None`: no file): a
/// missing or unparseable file reads as `{}`, and a file that is there but unparseable or
/// invalid adds a marker after the name (`state.json unreadable`, `state.json invalid`), so
/// a broken file is seen. One call per prompt.
pub fn status_line_text(bytes: Option<&[u8]>, options: &Value) -> String {
    let state = match bytes.map(std::str::from_utf8) {
        None => StateFile::Missing,
        Some(Ok(text)) => StateFile::Text(text),
        Some(Err(_)) => StateFile::Unreadable,
    };
    let (state, file) = read_state(state);
    let mut summary = status_line(&state);
    if let Value::Object(fields) = &mut summary {
        fields.insert("stateFile".into(), Value::from(file));
    }
    render_status_line(&summary, options)
}

/// Text from a summary ([`status_line`], [`project_status`]): segments joined by ` │ `, the
/// project's (name and version, the state file's marker, branch, spec, context) then the
/// work's (command › step, chunks, section, scenarios, readiness, untracked changes,
/// findings, upgraded, next step). `options`: `color` (ANSI colours), `layout` (`one-row`,
/// the default, or `two-rows`: the project's segments, a line break, the work's), `icons`
/// (the fctry client's icons and dot bars instead of words; a Nerd Font shows them). A
/// summary without a project starts with `fctry`, so the prompt always shows something.
/// `layout: "two-rows"` with `icons` is the client's look, byte for byte (docs/fctry.md §
/// Status line).
pub fn render_status_line(summary: &Value, options: &Value) -> String {
    render::render(summary, Look::of(options))
}
