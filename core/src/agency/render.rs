//! `ls` and `show` as the seed prints them: the run table with its SUMMARY column and the
//! `runner_status:` section, with the duration and "ago" formats of the original tool.

use super::args;
use super::derive::{derive, Derived};
use super::meta::check_meta;
use super::status::{updated_at_millis, validate_runner_status};
use crate::error::{Error, Result};
use crate::time::normalize_now;
use crate::Value;
use std::fmt::Write as _;

/// The fields of an `ls` row / a `show` run.
pub const RUN_FIELDS: [&str; 4] = ["run_id", "name", "pr", "snapshot"];

/// The longest summary `ls` shows, in characters (longer ones end in `…`).
pub const SUMMARY_WIDTH: usize = 40;

/// The longest name `ls` shows, in characters (longer ones end in `…`), as agency cuts it.
pub const NAME_WIDTH: usize = 50;

/// The name shown for a run whose meta.json is broken.
const BROKEN: &str = "<broken>";

/// The name shown for a run without one.
const UNTITLED: &str = "<untitled>";

/// The `ls` columns and their least widths (the seed's table: cells are padded to at least
/// this width, and to the longest cell plus two spaces).
const COLUMNS: [(&str, usize); 5] = [
    ("RUN_ID", 20),
    ("NAME", 16),
    ("STATUS", 18),
    ("SUMMARY", 27),
    ("PR", 0),
];

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

/// A stall duration as `ls` shows it: `45m`, `2h`, `2h15m` (whole minutes, rounded down), and
/// from 48 hours on `2d`, `282d15h` ([`crate::time::format_duration`], the one format of
/// every surface).
pub fn format_stall(ms: i64) -> String {
    crate::time::format_duration(ms)
}

/// How long ago `then` was, as `show` prints it: `just now` (under a minute, or in the
/// future), `Nm ago`, `Nh ago`, `Nd ago` (up to 7 days), else the UTC date `YYYY-MM-DD`.
pub fn format_ago(then: i64, now: i64) -> String {
    let age = now.saturating_sub(then);
    if age < MINUTE {
        "just now".into()
    } else if age < HOUR {
        format!("{}m ago", age / MINUTE)
    } else if age < DAY {
        format!("{}h ago", age / HOUR)
    } else if age <= 7 * DAY {
        format!("{}d ago", age / DAY)
    } else {
        crate::time::format_date(then).unwrap_or_default()
    }
}

/// A cell's text on one line: every control character (newline, tab, ...) becomes a space.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// `text` cut to `SUMMARY_WIDTH` characters: 39 and `…` when longer.
pub fn truncate_summary(text: &str) -> String {
    truncate(text, SUMMARY_WIDTH)
}

/// `text` cut to `width` characters: `width - 1` and `…` when longer.
fn truncate(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// The PR cell: a number `n` is `#n`, a string is shown as it is, none is `-`.
fn pr_cell(run: &crate::shape::check::Object, at: &str) -> Result<String> {
    match run.get("pr") {
        None | Some(Value::Null) => Ok("-".into()),
        Some(Value::Number(n)) => Ok(format!("#{n}")),
        Some(Value::String(s)) if !s.is_empty() => Ok(one_line(s)),
        Some(Value::String(_)) => Ok("-".into()),
        Some(_) => Err(Error::new(
            crate::error::Code::Argument,
            format!("{at}/pr"),
            "pr must be a number, a string or null",
        )),
    }
}

struct Run {
    run_id: String,
    name: String,
    pr: String,
    derived: Derived,
    snapshot: Value,
}

fn run(value: &Value, at: &str) -> Result<Run> {
    let map = args::object(value, at, "a run", &RUN_FIELDS)?;
    let snapshot = map.get("snapshot").cloned().unwrap_or(Value::Null);
    let derived = derive(&snapshot).map_err(|e| {
        let path = format!("{at}/snapshot{}", e.path);
        Error { path, ..e }
    })?;
    Ok(Run {
        run_id: one_line(args::text(map, "run_id", at)?.unwrap_or("-")),
        name: match (derived.status, args::text(map, "name", at)?) {
            ("broken", _) => BROKEN.to_owned(),
            (_, None | Some("")) => UNTITLED.to_owned(),
            (_, Some(name)) => one_line(name),
        },
        pr: pr_cell(map, at)?,
        derived,
        snapshot,
    })
}

/// The seed's `ls` table: `RUN_ID NAME STATUS SUMMARY PR`, one line per row
/// (`{run_id, name, pr, snapshot}`), the status derived from the snapshot. NAME is cut to 50
/// characters (49 and `…`), `<untitled>` when empty and `<broken>` for a broken run, as
/// agency shows them. SUMMARY is the
/// runner's summary cut to 40 characters, `(no activity for 45m)` for a stalled run, `-`
/// without one. Columns are at least as wide as in the seed and two spaces wider than their
/// longest cell; the last column is not padded; every line ends with `\n`.
pub fn render_ls(rows: &Value) -> Result<String> {
    let rows = rows.as_array().ok_or_else(|| {
        Error::new(
            crate::error::Code::Argument,
            "",
            "render_ls takes a list of runs {run_id, name, pr, snapshot}",
        )
    })?;
    let mut table: Vec<[String; 5]> = vec![COLUMNS.map(|(title, _)| title.to_owned())];
    for (i, value) in rows.iter().enumerate() {
        let run = run(value, &format!("/{i}"))?;
        let summary = match (run.derived.stalled_duration, &run.derived.summary) {
            (Some(ms), _) => format!("(no activity for {})", format_stall(ms)),
            (None, Some(s)) if !s.trim().is_empty() => truncate_summary(&one_line(s)),
            _ => "-".into(),
        };
        let name = truncate(&run.name, NAME_WIDTH);
        table.push([run.run_id, name, run.derived.display, summary, run.pr]);
    }
    let mut widths = COLUMNS.map(|(_, least)| least);
    for row in &table {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count().saturating_add(2));
        }
    }
    let mut out = String::new();
    for row in &table {
        let last = row.len().saturating_sub(1);
        for (i, (cell, width)) in row.iter().zip(widths).enumerate() {
            out.push_str(cell);
            if i < last {
                let pad = width.saturating_sub(cell.chars().count());
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push('\n');
    }
    Ok(out)
}

/// `key: text` at `indent`, continuation lines of a multi-line text indented two more.
fn field(out: &mut String, indent: &str, key: &str, text: &str) {
    lines(out, indent, &format!("{key}: "), text);
}

/// A list item `- text` at `indent`, continuation lines indented two more.
fn item(out: &mut String, indent: &str, text: &str) {
    lines(out, indent, "- ", text);
}

fn lines(out: &mut String, indent: &str, lead: &str, text: &str) {
    let mut lines = text.lines();
    let _ = writeln!(out, "{indent}{lead}{}", lines.next().unwrap_or(""));
    for line in lines {
        let _ = writeln!(out, "{indent}  {line}");
    }
}

/// A list field (`questions:` and `- item` lines), printed only when it has items.
fn list(out: &mut String, status: &Value, key: &str) {
    let items: Vec<&str> = status
        .get(key)
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if items.is_empty() {
        return;
    }
    let _ = writeln!(out, "  {key}:");
    for text in items {
        item(out, "    ", text);
    }
}

fn text_of<'a>(status: &'a Value, key: &str) -> Option<&'a str> {
    status
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
}

/// The seed's `show` output for one run (`{run_id, name, pr, snapshot}`): `run_id`, `name`
/// (`<untitled>` when empty, `<broken>` for a broken run), the derived `status` and `pr`
/// lines, for a broken run `meta: invalid` and why, then the `runner_status:` section:
/// `status`, `updated: 5m ago` (the status file's modification time relative to `now`, as
/// agency shows it; `updated_at` for a snapshot without it), `summary`, and `questions`, `blockers`,
/// `how_to_test`, `risks` when not empty. A missing status file prints
/// `runner_status: none`; one that does not validate, `runner_status: invalid` and its
/// problems (it still counts as absent for the status).
pub fn render_show(value: &Value, now: &Value) -> Result<String> {
    let (_, now) = normalize_now(now)?;
    let run = run(value, "")?;
    let mut out = String::new();
    let _ = writeln!(out, "run_id: {}", run.run_id);
    let _ = writeln!(out, "name: {}", run.name);
    let _ = writeln!(out, "status: {}", run.derived.display);
    let _ = writeln!(out, "pr: {}", run.pr);
    if run.derived.status == "broken" {
        let meta = run.snapshot.get("meta").unwrap_or(&Value::Null);
        out.push_str("meta: invalid\n");
        for e in &check_meta(meta).errors {
            let at = if e.path.is_empty() {
                "meta.json"
            } else {
                &e.path
            };
            item(&mut out, "  ", &one_line(&format!("{at}: {}", e.message)));
        }
    }
    let status = run
        .snapshot
        .get("runner_status")
        .cloned()
        .unwrap_or(Value::Null);
    if status.is_null() {
        let why = run
            .snapshot
            .get("runner_status_report")
            .and_then(|r| r.get("errors"))
            .and_then(Value::as_array)
            .filter(|e| !e.is_empty());
        match why {
            None => out.push_str("runner_status: none\n"),
            Some(errors) => {
                out.push_str("runner_status: invalid\n");
                for e in errors {
                    let path = e.get("path").and_then(Value::as_str).unwrap_or("");
                    let message = e.get("message").and_then(Value::as_str).unwrap_or("");
                    item(&mut out, "  ", &format!("{path}: {message}"));
                }
            }
        }
        return Ok(out);
    }
    let report = validate_runner_status(&status);
    if !report.valid() {
        out.push_str("runner_status: invalid\n");
        for e in &report.errors {
            item(&mut out, "  ", &format!("{}: {}", e.path, e.message));
        }
        return Ok(out);
    }
    out.push_str("runner_status:\n");
    field(
        &mut out,
        "  ",
        "status",
        text_of(&status, "status").unwrap_or(""),
    );
    let modified = match run.snapshot.get("status_file_mod_time") {
        None | Some(Value::Null) => None,
        Some(time) => Some(normalize_now(time).map_err(|e| Error {
            path: "/snapshot/status_file_mod_time".into(),
            ..e
        })?),
    };
    let updated = modified
        .map(|(_, t)| t)
        .or_else(|| updated_at_millis(&status))
        .map_or_else(|| "unknown".into(), |t| format_ago(t, now));
    field(&mut out, "  ", "updated", &updated);
    field(
        &mut out,
        "  ",
        "summary",
        text_of(&status, "summary").unwrap_or(""),
    );
    list(&mut out, &status, "questions");
    list(&mut out, &status, "blockers");
    if let Some(how) = text_of(&status, "how_to_test") {
        field(&mut out, "  ", "how_to_test", how);
    }
    list(&mut out, &status, "risks");
    Ok(out)
}
