//! The terminal status line (seed 000 "Consumers"): [`status_line`] reduces a state to what a
//! status line shows, [`render_status_line`] turns that into one line of text, with ANSI
//! colours on request. Both accept any state a reader may get (a missing or unparseable file
//! reads as `{}`), never fail on odd field types, and ignore what they do not understand.
//! Parts with nothing to say (a total of 0) are left out, and every text from the state is
//! rendered without its control characters: a state file written by any agent cannot drive
//! the user's terminal.

use crate::{json, Map, Value};

fn text<'a>(state: &'a Value, key: &str) -> Option<&'a str> {
    state
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

fn count(value: Option<&Value>) -> Option<u64> {
    value.and_then(Value::as_u64)
}

/// The summary a status line shows: `{specVersion, section, sectionNumber, command, step,
/// chunks, scenarios, readiness, build, untracked, nextStep}`; absent parts are `null`, and so
/// are counts whose total is 0. `specVersion` is the version without a leading `v`. `chunks`
/// (`{completed, total, active, retrying, failed, blocked, attempt}`) counts the chunk
/// statuses of `buildRun.chunks` when there is a run, else of `chunkProgress.chunks` (the
/// extended form, out of its `total`), else takes the legacy `chunkProgress` `{current,
/// total}`; `attempt` is the highest attempt of a retrying chunk. `readiness` sums the numeric
/// counts of `readinessSummary` (`{aligned, total}`).
pub fn status_line(state: &Value) -> Value {
    let section = text(state, "activeSection").map(|s| s.trim_start_matches('#'));
    let version = text(state, "specVersion")
        .map(|v| v.strip_prefix(['v', 'V']).unwrap_or(v))
        .filter(|v| !v.is_empty());
    let chunks = chunk_counts(state);
    let scenarios = state.get("scenarioScore").and_then(|score| {
        let total = count(score.get("total")).filter(|t| *t > 0)?;
        Some(json!({"satisfied": count(score.get("satisfied"))?, "total": total}))
    });
    let readiness = state
        .get("readinessSummary")
        .and_then(Value::as_object)
        .and_then(|summary| {
            let total: u64 = summary
                .values()
                .filter_map(Value::as_u64)
                .fold(0, u64::saturating_add);
            (total > 0).then(
                || json!({"aligned": count(summary.get("aligned")).unwrap_or(0), "total": total}),
            )
        });
    let untracked = state
        .get("untrackedChanges")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let build = state
        .get("buildRun")
        .and_then(|run| run.get("status"))
        .and_then(Value::as_str)
        .map(str::to_owned);
    let mut out = Map::new();
    out.insert("specVersion".into(), opt(version));
    out.insert("section".into(), opt(section));
    out.insert(
        "sectionNumber".into(),
        opt(text(state, "activeSectionNumber")),
    );
    out.insert("command".into(), opt(text(state, "currentCommand")));
    out.insert("step".into(), opt(text(state, "workflowStep")));
    out.insert("chunks".into(), chunks.unwrap_or(Value::Null));
    out.insert("scenarios".into(), scenarios.unwrap_or(Value::Null));
    out.insert("readiness".into(), readiness.unwrap_or(Value::Null));
    out.insert("build".into(), build.map_or(Value::Null, Value::from));
    out.insert("untracked".into(), untracked.into());
    out.insert("nextStep".into(), opt(text(state, "nextStep")));
    Value::Object(out)
}

fn opt(value: Option<&str>) -> Value {
    value.map_or(Value::Null, Value::from)
}

fn chunk_counts(state: &Value) -> Option<Value> {
    let progress = state.get("chunkProgress");
    let run = state
        .get("buildRun")
        .and_then(|r| r.get("chunks"))
        .and_then(Value::as_array);
    let listed = progress
        .and_then(|p| p.get("chunks"))
        .and_then(Value::as_array);
    let counts = match (run, listed) {
        (Some(chunks), _) => statuses(chunks, chunks.len() as u64),
        (None, Some(chunks)) => {
            let total = count(progress.and_then(|p| p.get("total")));
            statuses(chunks, total.unwrap_or(chunks.len() as u64))
        }
        (None, None) => {
            let progress = progress?;
            json!({
                "completed": count(progress.get("current"))?, "total": count(progress.get("total"))?,
                "active": 0, "retrying": 0, "failed": 0, "blocked": 0, "attempt": null,
            })
        }
    };
    (counts.get("total").and_then(Value::as_u64) > Some(0)).then_some(counts)
}

/// The counts of `chunks`' statuses, out of `total`, and the highest attempt of a retrying one.
fn statuses(chunks: &[Value], total: u64) -> Value {
    fn status(chunk: &Value) -> Option<&str> {
        chunk.get("status").and_then(Value::as_str)
    }
    let of = |wanted: &str| chunks.iter().filter(|c| status(c) == Some(wanted)).count();
    let attempt = chunks
        .iter()
        .filter(|c| status(c) == Some("retrying"))
        .filter_map(|c| c.get("attempt").and_then(Value::as_u64))
        .max();
    json!({
        "completed": of("completed"), "total": total, "active": of("active"),
        "retrying": of("retrying"), "failed": of("failed"), "blocked": of("blocked"),
        "attempt": attempt.map_or(Value::Null, Value::from),
    })
}

/// `text` without its control characters (C0, DEL, C1): tabs and line breaks become a space,
/// the rest (an escape's `ESC`) is dropped, so nothing from a state file reaches the terminal
/// as a command.
pub fn strip_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.chars()
            .filter_map(|c| match c {
                '\t' | '\n' | '\r' => Some(' '),
                c if c.is_control() => None,
                c => Some(c),
            })
            .collect(),
    )
}

/// The rendered status line straight from the state file's bytes (`None`: no file): a missing
/// or unparseable file reads as `{}` (the status line's rule), and a file that is there but
/// unparseable or invalid adds a marker after the name (`state.json unreadable`, `state.json
/// invalid`), so a broken file is seen. One call per prompt.
pub fn status_line_text(bytes: Option<&[u8]>, options: &Value) -> String {
    let (state, marker) = match bytes.map(crate::json::parse) {
        None => (Value::Object(Map::new()), None),
        Some(Err(_)) => (Value::Object(Map::new()), Some("unreadable")),
        Some(Ok(state)) => {
            let valid = super::validate_state(&state).valid();
            (state, (!valid).then_some("invalid"))
        }
    };
    let color = color_of(options);
    let mut parts = parts(&status_line(&state), color);
    if let Some(marker) = marker {
        let style = if marker == "invalid" { YELLOW } else { RED };
        parts.insert(1, paint(color, style, format!("state.json {marker}")));
    }
    join(&parts, color)
}

/// ANSI styles of the rendered segments.
const DIM: &str = "\u{1b}[2m";
const BOLD: &str = "\u{1b}[1m";
const GREEN: &str = "\u{1b}[32m";
const YELLOW: &str = "\u{1b}[33m";
const RED: &str = "\u{1b}[31m";
const CYAN: &str = "\u{1b}[36m";
const RESET: &str = "\u{1b}[0m";

/// One line of text from a [`status_line`] summary: segments joined by ` │ `, in the order
/// spec version, command › step, section, chunks, scenarios, readiness, untracked changes,
/// next step. `options.color` (default false) adds ANSI colours; an empty summary renders
/// as `fctry` so the prompt always shows something.
pub fn render_status_line(summary: &Value, options: &Value) -> String {
    let color = color_of(options);
    join(&parts(summary, color), color)
}

/// `options.color` (default false).
fn color_of(options: &Value) -> bool {
    options
        .get("color")
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// `text` in `style` when colours are on.
fn paint(color: bool, style: &str, text: String) -> String {
    if color {
        format!("{style}{text}{RESET}")
    } else {
        text
    }
}

/// The segments joined by ` │ ` (dimmed in colour).
fn join(parts: &[String], color: bool) -> String {
    let separator = if color {
        format!(" {DIM}│{RESET} ")
    } else {
        " │ ".to_owned()
    };
    parts.join(&separator)
}

/// The segments of a summary, in order.
fn parts(summary: &Value, color: bool) -> Vec<String> {
    let paint = |style: &str, s: String| paint(color, style, s);
    let get = |key: &str| {
        summary
            .get(key)
            .and_then(Value::as_str)
            .map(|s| strip_controls(s).into_owned())
    };
    let num = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64).unwrap_or(0);
    let mut parts: Vec<String> = Vec::new();
    parts.push(paint(
        BOLD,
        get("specVersion").map_or_else(|| "fctry".to_owned(), |v| format!("fctry v{v}")),
    ));
    match (get("command"), get("step")) {
        (Some(c), Some(s)) => parts.push(paint(CYAN, format!("{c} › {s}"))),
        (Some(c), None) => parts.push(paint(CYAN, c)),
        (None, Some(s)) => parts.push(paint(CYAN, s)),
        (None, None) => {}
    }
    if let Some(section) = get("section") {
        let number = get("sectionNumber")
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        parts.push(format!("#{section}{number}"));
    }
    if let Some(chunks) = summary.get("chunks").filter(|c| c.is_object()) {
        let mut detail: Vec<String> = Vec::new();
        for (key, style) in [
            ("active", CYAN),
            ("retrying", YELLOW),
            ("failed", RED),
            ("blocked", RED),
        ] {
            let n = num(chunks, key);
            let attempt = num(chunks, "attempt");
            if n > 0 && key == "retrying" && attempt > 1 {
                detail.push(paint(style, format!("{n} {key} at attempt {attempt}")));
            } else if n > 0 {
                detail.push(paint(style, format!("{n} {key}")));
            }
        }
        let detail = if detail.is_empty() {
            String::new()
        } else {
            format!(" ({})", detail.join(", "))
        };
        let label = match get("build").as_deref() {
            Some(status @ ("paused" | "partial")) => format!("chunks {status}"),
            _ => "chunks".to_owned(),
        };
        parts.push(format!(
            "{label} {}/{}{detail}",
            num(chunks, "completed"),
            num(chunks, "total")
        ));
    }
    if let Some(scenarios) = summary.get("scenarios").filter(|c| c.is_object()) {
        let (done, total) = (num(scenarios, "satisfied"), num(scenarios, "total"));
        let style = if done == total { GREEN } else { YELLOW };
        parts.push(paint(style, format!("scenarios {done}/{total}")));
    }
    if let Some(readiness) = summary.get("readiness").filter(|c| c.is_object()) {
        parts.push(format!(
            "aligned {}/{}",
            num(readiness, "aligned"),
            num(readiness, "total")
        ));
    }
    let untracked = summary
        .get("untracked")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    if untracked > 0 {
        let noun = if untracked == 1 { "change" } else { "changes" };
        parts.push(paint(YELLOW, format!("{untracked} untracked {noun}")));
    }
    if let Some(next) = get("nextStep") {
        parts.push(paint(DIM, format!("next: {next}")));
    }
    parts
}
