//! A status line summary as text: its segments joined by ` │ `, on one row or on the client's
//! two (the project, then the work), in words or with the client's icons and dot bars, with
//! ANSI colours on request. Two rows with icons is the client's look, byte for byte: its
//! segments, colours and dot bars exactly (docs/fctry.md § Status line). Every text from the
//! files is rendered without its control characters.

use crate::Value;
use std::borrow::Cow;

const DIM: &str = "\u{1b}[2m";
const BOLD: &str = "\u{1b}[1m";
const GREEN: &str = "\u{1b}[32m";
const YELLOW: &str = "\u{1b}[33m";
const RED: &str = "\u{1b}[31m";
const MAGENTA: &str = "\u{1b}[35m";
const CYAN: &str = "\u{1b}[36m";
const RESET: &str = "\u{1b}[0m";

/// The client's icons (Material Design Icons in a Nerd Font).
mod icon {
    pub const BRANCH: &str = "\u{f062c}";
    pub const SPEC: &str = "\u{f0219}";
    pub const CONTEXT: &str = "\u{f1396}";
    pub const CHUNK: &str = "\u{f040a}";
    pub const CHECK: &str = "\u{f012c}";
    pub const READY: &str = "\u{f0565}";
    pub const UNTRACKED: &str = "\u{f0026}";
    pub const UPGRADE: &str = "\u{f0737}";
    pub const NEXT: &str = "\u{f0142}";
    pub const FAIL: &str = "\u{f0156}";
    pub const MAILBOX: &str = "\u{f0353}";
}

/// The most dots the client's look draws for the chunks (one per chunk, as the client draws
/// them, up to this many: a count in the millions must not fill the memory).
const CLIENT_CHUNK_DOTS: u64 = 200;

/// The `layout` of the client's two rows (`shapes::LAYOUT`).
pub const TWO_ROWS: &str = "two-rows";

/// How a summary is rendered (`StatusLineOptions`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Look {
    /// ANSI colours.
    pub color: bool,
    /// The project on a first row, the work on a second.
    pub two_rows: bool,
    /// Icons and dot bars instead of words.
    pub icons: bool,
}

impl Look {
    /// From the options object (`{color, layout, icons}`, each optional; checked by the caller).
    pub fn of(options: &Value) -> Look {
        let flag = |key: &str| options.get(key).and_then(Value::as_bool) == Some(true);
        Look {
            color: flag("color"),
            two_rows: options.get("layout").and_then(Value::as_str) == Some(TWO_ROWS),
            icons: flag("icons"),
        }
    }

    /// The client's look: two rows with icons.
    pub fn client(self) -> bool {
        self.two_rows && self.icons
    }

    fn paint(self, style: &str, text: String) -> String {
        if self.color {
            format!("{style}{text}{RESET}")
        } else {
            text
        }
    }

    /// `word text` in words, `icon text` with icons.
    fn label(self, word: &str, glyph: &str, text: &str) -> String {
        let label = if self.icons { glyph } else { word };
        if text.is_empty() {
            label.to_owned()
        } else {
            format!("{label} {text}")
        }
    }

    fn join(self, parts: &[String]) -> String {
        if self.color {
            parts.join(&format!(" {DIM}│{RESET} "))
        } else {
            parts.join(" │ ")
        }
    }
}

/// `text` without its control characters (C0, DEL, C1): tabs and line breaks become a space,
/// the rest (an escape's `ESC`) is dropped, so nothing from a file reaches the terminal as a
/// command.
pub fn strip_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .filter_map(|c| match c {
                '\t' | '\n' | '\r' => Some(' '),
                c if c.is_control() => None,
                c => Some(c),
            })
            .collect(),
    )
}

/// The summary as text (no final line break).
pub fn render(summary: &Value, look: Look) -> String {
    let (first, second) = (project_row(summary, look), work_row(summary, look));
    if look.two_rows && !second.is_empty() {
        format!("{}\n{}", look.join(&first), look.join(&second))
    } else {
        look.join(&[first, second].concat())
    }
}

fn text(summary: &Value, key: &str) -> Option<String> {
    summary
        .get(key)
        .and_then(Value::as_str)
        .map(|s| strip_controls(s).into_owned())
}

fn num(value: &Value, key: &str) -> u64 {
    value.get(key).and_then(Value::as_u64).unwrap_or(0)
}

/// The colour of `done` out of `total`: green from 80 %, yellow from 50 %, else red.
fn score_color(done: u64, total: u64) -> &'static str {
    // Counts of sections and scenarios: far below 2^53, exact as doubles.
    #[allow(clippy::cast_precision_loss)]
    let ratio = done as f64 / total.max(1) as f64;
    if ratio >= 0.8 {
        GREEN
    } else if ratio >= 0.5 {
        YELLOW
    } else {
        RED
    }
}

/// `●●●○○`: `filled` of `total` on at most 10 dots.
fn dots(filled: u64, total: u64) -> String {
    dots_of(filled, total, 10)
}

/// `●●●○○`: `filled` of `total` on at most `most` dots (the client's chunks: one per chunk).
fn dots_of(filled: u64, total: u64, most: u64) -> String {
    let count = total.min(most);
    // Small counts: exact as doubles; the result is within 0..=count.
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss
    )]
    let full =
        ((filled as f64 / total.max(1) as f64 * count as f64 + 0.5).floor() as u64).min(count);
    let full = usize::try_from(full).unwrap_or(0);
    let empty = usize::try_from(count).unwrap_or(0).saturating_sub(full);
    format!("{}{}", "●".repeat(full), "○".repeat(empty))
}

/// The project, the state file's marker, the branch, the spec and the context.
fn project_row(summary: &Value, look: Look) -> Vec<String> {
    let mut parts = Vec::new();
    // Versions are shown without a leading `v`; the client's look shows them as written.
    let version = |key: &str| {
        text(summary, key).and_then(|v| {
            if look.client() {
                return Some(v);
            }
            Some(v.strip_prefix(['v', 'V']).unwrap_or(&v).to_owned()).filter(|v| !v.is_empty())
        })
    };
    let name = match (text(summary, "project"), version("version")) {
        (Some(name), Some(version)) => format!("{name} {version}"),
        (Some(name), None) => name,
        (None, _) => "fctry".to_owned(),
    };
    // The client's name is not bold.
    parts.push(if look.client() {
        name
    } else {
        look.paint(BOLD, name)
    });
    match summary.get("stateFile").and_then(Value::as_str) {
        Some("unreadable") => parts.push(look.paint(RED, "state.json unreadable".into())),
        Some("invalid") => parts.push(look.paint(YELLOW, "state.json invalid".into())),
        _ => {}
    }
    if let Some(branch) = text(summary, "branch") {
        parts.push(look.label("on", icon::BRANCH, &branch));
    }
    let status = text(summary, "specStatus").filter(|s| s != "active");
    let version = version("specVersion");
    if version.is_some() || status.is_some() {
        let status = status.map(|s| {
            let style = match s.as_str() {
                "stable" => GREEN,
                "draft" => YELLOW,
                _ => DIM,
            };
            look.paint(style, s)
        });
        if look.icons {
            // The client's: the version, then the status as a segment of its own.
            parts.extend(version.map(|v| look.label("spec", icon::SPEC, &v)));
            parts.extend(status);
        } else {
            let words: Vec<String> = version.into_iter().chain(status).collect();
            parts.push(look.label("spec", icon::SPEC, &words.join(" ")));
        }
    }
    if let Some(percent) = summary.get("context").and_then(Value::as_u64) {
        let style = match percent {
            90.. => RED,
            70.. => YELLOW,
            _ => GREEN,
        };
        let label = look.label("context", icon::CONTEXT, &format!("{percent}%"));
        parts.push(look.paint(style, label));
    }
    parts
}

/// The command, the chunks, the section, the scores, what waits, and the next step.
fn work_row(summary: &Value, look: Look) -> Vec<String> {
    let mut parts = Vec::new();
    let scan = summary
        .get("scan")
        .filter(|s| s.is_object())
        .map(|s| format!("{}/{}", num(s, "scanned"), num(s, "total")));
    if look.client() {
        // The client's: the command alone (no step), a review's scan dimmed after it.
        if let Some(command) = text(summary, "command") {
            let command = look.paint(CYAN, command);
            parts.push(match scan {
                Some(scan) => format!("{command} {} {scan}", look.paint(DIM, "| scanning".into())),
                None => command,
            });
        }
    } else {
        let doing = match (text(summary, "command"), text(summary, "step")) {
            (Some(c), Some(s)) => Some(format!("{c} › {s}")),
            (c, s) => c.or(s),
        };
        if let Some(doing) = doing {
            let doing = scan.map_or(doing.clone(), |scan| format!("{doing} | scanning {scan}"));
            parts.push(look.paint(CYAN, doing));
        }
    }
    if let Some(chunks) = summary.get("chunks").filter(|c| c.is_object()) {
        if !look.client() {
            parts.push(chunk_part(summary, chunks, look));
        } else if chunks.get("source").and_then(Value::as_str) != Some("buildRun") {
            // The client reads only `chunkProgress`.
            parts.push(client_chunk_part(chunks, look));
        }
    }
    if let Some(section) = text(summary, "section") {
        let number = text(summary, "sectionNumber").map(|n| format!(" ({n})"));
        // The section as written, or its title from the table of contents; the client finds
        // the title only for an alias written without its `#`.
        let title =
            text(summary, "sectionTitle").filter(|_| !(look.client() && section.starts_with('#')));
        let label = format!("{}{}", title.unwrap_or(section), number.unwrap_or_default());
        parts.push(look.paint(MAGENTA, label));
    }
    if let Some(scenarios) = summary.get("scenarios").filter(|c| c.is_object()) {
        let (done, total) = (num(scenarios, "satisfied"), num(scenarios, "total"));
        let style = if done == 0 {
            DIM
        } else {
            score_color(done, total)
        };
        let counts = format!("{done}/{total}");
        let label = if look.icons && done == 0 {
            // The client's: none satisfied yet shows how many there are.
            format!("{} {total}", icon::CHECK)
        } else if look.icons {
            format!("{} {} {counts}", icon::CHECK, dots(done, total))
        } else {
            format!("scenarios {counts}")
        };
        parts.push(look.paint(style, label));
    }
    if let Some(readiness) = summary.get("readiness").filter(|c| c.is_object()) {
        parts.push(readiness_part(readiness, look));
    }
    let untracked = summary
        .get("untracked")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    if untracked > 0 {
        let label = if look.icons {
            format!("{} {untracked}", icon::UNTRACKED)
        } else {
            let noun = if untracked == 1 { "change" } else { "changes" };
            format!("{untracked} untracked {noun}")
        };
        parts.push(look.paint(YELLOW, label));
    }
    let findings = summary.get("inbox").and_then(Value::as_u64).unwrap_or(0);
    if findings > 0 {
        let label = if look.icons {
            format!("{} {findings}", icon::MAILBOX)
        } else {
            let noun = if findings == 1 { "finding" } else { "findings" };
            format!("{findings} {noun}")
        };
        parts.push(look.paint(CYAN, label));
    }
    if summary.get("upgraded").and_then(Value::as_bool) == Some(true) {
        parts.push(look.paint(GREEN, look.label("upgraded", icon::UPGRADE, "")));
    }
    if let Some(next) = text(summary, "nextStep") {
        let next = look.label("next:", icon::NEXT, &next);
        // The client's next step is not dimmed.
        parts.push(if look.client() {
            next
        } else {
            look.paint(DIM, next)
        });
    }
    parts
}

/// `chunks 3/5 (1 active, 1 retrying at attempt 2)`, or with an icon and a dot bar.
fn chunk_part(summary: &Value, chunks: &Value, look: Look) -> String {
    let mut detail: Vec<String> = Vec::new();
    let attempt = num(chunks, "attempt");
    for (key, style) in [
        ("active", CYAN),
        ("retrying", YELLOW),
        ("failed", RED),
        ("blocked", RED),
    ] {
        let n = num(chunks, key);
        if n > 0 && key == "retrying" && attempt > 1 {
            detail.push(look.paint(style, format!("{n} {key} at attempt {attempt}")));
        } else if n > 0 {
            detail.push(look.paint(style, format!("{n} {key}")));
        }
    }
    let detail = if detail.is_empty() {
        String::new()
    } else {
        format!(" ({})", detail.join(", "))
    };
    let (done, total) = (num(chunks, "completed"), num(chunks, "total"));
    let status = match text(summary, "build").as_deref() {
        Some(status @ ("paused" | "partial")) => format!(" {status}"),
        _ => String::new(),
    };
    if look.icons {
        format!(
            "{}{status} {} {done}/{total}{detail}",
            icon::CHUNK,
            dots(done, total)
        )
    } else {
        format!("chunks{status} {done}/{total}{detail}")
    }
}

/// The client's chunks: one dot per chunk, `completed`, `+N` active or retrying (`+N(r2)` when
/// the first retrying chunk is past its first attempt), `/total`, and the failed ones in red.
fn client_chunk_part(chunks: &Value, look: Look) -> String {
    let (done, total) = (num(chunks, "completed"), num(chunks, "total"));
    let mut label = done.to_string();
    let working = num(chunks, "active").saturating_add(num(chunks, "retrying"));
    if working > 0 {
        label.push_str(&format!("+{working}"));
        let attempt = num(chunks, "attempt");
        if num(chunks, "retrying") > 0 && attempt > 1 {
            label.push_str(&format!("(r{attempt})"));
        }
    }
    label.push_str(&format!("/{total}"));
    let failed = num(chunks, "failed");
    if failed > 0 {
        label.push_str(&format!(
            " {}",
            look.paint(RED, format!("{failed}{}", icon::FAIL))
        ));
    }
    let most = total.min(CLIENT_CHUNK_DOTS);
    format!("{} {} {label}", icon::CHUNK, dots_of(done, total, most))
}

/// The client's readiness label: `30/33 built`, `15 built 18 evolved`, or `15 built 18
/// evolved 3 specced`.
fn readiness_part(readiness: &Value, look: Look) -> String {
    let (built, evolved, specced) = (
        num(readiness, "built"),
        num(readiness, "evolved"),
        num(readiness, "specced"),
    );
    let total = num(readiness, "total");
    let done = built.saturating_add(evolved);
    let label = match (evolved, specced) {
        (1.., 1..) => format!("{built} built {evolved} evolved {specced} specced"),
        (1.., 0) => format!("{built} built {evolved} evolved"),
        _ => format!("{done}/{total} built"),
    };
    let label = if look.icons {
        format!("{} {} {label}", icon::READY, dots(done, total))
    } else {
        label
    };
    look.paint(score_color(done, total), label)
}
