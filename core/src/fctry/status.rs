//! The terminal status line (seed 000 "Consumers"): [`status_line`] reduces a state to what a
//! status line shows, [`render_status_line`] turns that into one line of text, with ANSI
//! colours on request. Both accept any state a reader may get (a missing or unparseable file
//! reads as `{}`), never fail on odd field types, and ignore what they do not understand.

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
/// chunks, scenarios, readiness, build, untracked, nextStep}`; absent parts are `null`.
/// `chunks` comes from `buildRun.chunks` when there is a run (`{completed, total, active,
/// retrying, failed, blocked}`), else from the legacy `chunkProgress` (`{completed: current,
/// total}`). `readiness` sums the numeric counts of `readinessSummary` (`{aligned, total}`).
pub fn status_line(state: &Value) -> Value {
    let section = text(state, "activeSection").map(|s| s.trim_start_matches('#'));
    let chunks = chunk_counts(state);
    let scenarios = state.get("scenarioScore").and_then(|score| {
        Some(json!({"satisfied": count(score.get("satisfied"))?, "total": count(score.get("total"))?}))
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
    out.insert("specVersion".into(), opt(text(state, "specVersion")));
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
    if let Some(chunks) = state
        .get("buildRun")
        .and_then(|r| r.get("chunks"))
        .and_then(Value::as_array)
    {
        let of = |status: &str| {
            chunks
                .iter()
                .filter(|c| c.get("status").and_then(Value::as_str) == Some(status))
                .count()
        };
        return Some(json!({
            "completed": of("completed"), "total": chunks.len(), "active": of("active"),
            "retrying": of("retrying"), "failed": of("failed"), "blocked": of("blocked"),
        }));
    }
    let progress = state.get("chunkProgress")?;
    Some(json!({
        "completed": count(progress.get("current"))?, "total": count(progress.get("total"))?,
        "active": 0, "retrying": 0, "failed": 0, "blocked": 0,
    }))
}

/// The rendered status line straight from the state file's bytes (`None`: no file): a missing
/// or unparseable file reads as `{}` (the status line's rule). One call per prompt.
pub fn status_line_text(bytes: Option<&[u8]>, options: &Value) -> String {
    let state = bytes
        .and_then(|b| crate::json::parse(b).ok())
        .unwrap_or_else(|| Value::Object(Map::new()));
    render_status_line(&status_line(&state), options)
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
    let color = options
        .get("color")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let paint = |style: &str, s: String| {
        if color {
            format!("{style}{s}{RESET}")
        } else {
            s
        }
    };
    let get = |key: &str| summary.get(key).and_then(Value::as_str);
    let num = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64).unwrap_or(0);
    let mut parts: Vec<String> = Vec::new();
    parts.push(paint(
        BOLD,
        get("specVersion").map_or_else(|| "fctry".to_owned(), |v| format!("fctry v{v}")),
    ));
    match (get("command"), get("step")) {
        (Some(c), Some(s)) => parts.push(paint(CYAN, format!("{c} › {s}"))),
        (Some(c), None) => parts.push(paint(CYAN, c.to_owned())),
        (None, Some(s)) => parts.push(paint(CYAN, s.to_owned())),
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
            if n > 0 {
                detail.push(paint(style, format!("{n} {key}")));
            }
        }
        let detail = if detail.is_empty() {
            String::new()
        } else {
            format!(" ({})", detail.join(", "))
        };
        let label = match get("build") {
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
    let separator = if color {
        format!(" {DIM}│{RESET} ")
    } else {
        " │ ".to_owned()
    };
    parts.join(&separator)
}
