//! What a status line takes from the project's other files: the version registry
//! (`.fctry/config.json`), the spec's table of contents and frontmatter (`.fctry/spec.md`),
//! the inbox's foreman findings (`.fctry/inbox.json`), the git branch (`.git/HEAD`) and the
//! session Claude Code passes on standard input. Each is read leniently: a file that cannot
//! be understood says nothing, as in the client the status line replaces.

use crate::Value;

/// How much of the spec is read for its table of contents and frontmatter, in bytes (the
/// client reads the same).
pub const SPEC_HEAD: usize = 8192;

/// The share of the context window at which Claude Code compacts: its "context left" counts
/// against it, and so does the status line's percentage.
const AUTO_COMPACT_THRESHOLD: f64 = 0.84;

/// The state file as the host found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StateFile<'a> {
    /// There is none.
    Missing,
    /// Its text.
    Text(&'a str),
    /// It is there but could not be read as text (not UTF-8, refused by the system).
    Unreadable,
}

/// A fctry project's files as the host gathered them (`None`: no such file).
#[derive(Debug, Clone, Copy)]
pub struct Project<'a> {
    /// The project's name (its directory's name).
    pub name: Option<&'a str>,
    /// `.fctry/state.json`.
    pub state: StateFile<'a>,
    /// `.fctry/config.json`, the version registry.
    pub config: Option<&'a str>,
    /// `.fctry/spec.md` (its beginning is enough; `Some("")` when it is there but unreadable).
    pub spec: Option<&'a str>,
    /// `.fctry/inbox.json`.
    pub inbox: Option<&'a str>,
    /// The text of the repository's `HEAD`.
    pub git_head: Option<&'a str>,
    /// The session object Claude Code passes on standard input.
    pub session: Option<&'a Value>,
}

impl<'a> Project<'a> {
    /// A project from its JSON description (`FctryProject`: `{name, state, config, spec,
    /// inbox, gitHead, session}`, each optional; a file's text, or null for no file).
    pub fn from_value(project: &'a Value) -> Project<'a> {
        let text = |key: &str| project.get(key).and_then(Value::as_str);
        Project {
            name: text("name").filter(|n| !n.is_empty()),
            state: text("state").map_or(StateFile::Missing, StateFile::Text),
            config: text("config"),
            spec: text("spec"),
            inbox: text("inbox"),
            git_head: text("gitHead"),
            session: project.get("session").filter(|s| s.is_object()),
        }
    }
}

/// A value of a parsed JSON file at `keys`.
fn dig<'v>(value: &'v Value, keys: &[&str]) -> Option<&'v Value> {
    keys.iter().try_fold(value, |v, k| v.get(*k))
}

/// A version from the registry: a non-empty string, or a number as JSON writes it.
fn version_at(config: &Value, keys: &[&str]) -> Option<String> {
    match dig(config, keys)? {
        Value::String(s) if !s.is_empty() => Some(s.as_str().to_owned()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// The registry's `(versions.external.current, versions.spec.current)`.
pub(super) fn registry(config: Option<&str>) -> (Option<String>, Option<String>) {
    let Some(config) = config.and_then(|c| crate::json::parse(c.as_bytes()).ok()) else {
        return (None, None);
    };
    (
        version_at(&config, &["versions", "external", "current"]),
        version_at(&config, &["versions", "spec", "current"]),
    )
}

/// The first [`SPEC_HEAD`] bytes of `spec`, cut back to its last line break when the spec is
/// longer (so that a host may pass the whole file or only its beginning, with the same result).
pub fn spec_head(spec: &str) -> &str {
    if spec.len() <= SPEC_HEAD {
        return spec;
    }
    let head = spec.as_bytes().get(..SPEC_HEAD).unwrap_or_default();
    let end = head
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |i| i.saturating_add(1));
    spec.get(..end).unwrap_or_default()
}

/// A section of the spec's table of contents.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Feature<'s> {
    /// Its alias, without `#`.
    pub alias: &'s str,
    /// Its number (`2.7`).
    pub number: &'s str,
    /// Its title.
    pub title: &'s str,
}

/// The table of contents' entries: indented lines `- 2.7 [Title](#link) \`#alias\``; a
/// later entry for an alias replaces an earlier one.
pub(super) fn features(spec: &str) -> Vec<Feature<'_>> {
    let mut found: Vec<Feature<'_>> = Vec::new();
    for line in spec_head(spec).lines() {
        if let Some(feature) = toc_entry(line) {
            found.retain(|f| f.alias != feature.alias);
            found.push(feature);
        }
    }
    found
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// One table of contents line: indentation, `-`, the number, `[title]`, and (last on the
/// line) the alias in backticks.
fn toc_entry(line: &str) -> Option<Feature<'_>> {
    let rest = line.trim_start();
    if rest.len() == line.len() {
        return None;
    }
    let rest = rest.strip_prefix('-')?;
    let after = rest.trim_start();
    if after.len() == rest.len() {
        return None;
    }
    let number_end = after
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(after.len());
    let (number, rest) = after.split_at(number_end);
    let after = rest.trim_start();
    if number.is_empty() || after.len() == rest.len() {
        return None;
    }
    let (title, rest) = after.strip_prefix('[')?.split_once(']')?;
    if title.is_empty() {
        return None;
    }
    let alias = rest.rmatch_indices("`#").find_map(|(at, _)| {
        let name = rest.get(at.saturating_add(2)..)?;
        let end = name.find(|c: char| !(is_word(c) || c == '-'))?;
        let (alias, tail) = name.split_at(end);
        (!alias.is_empty() && tail.starts_with('`')).then_some(alias)
    })?;
    Some(Feature {
        alias,
        number,
        title,
    })
}

/// The spec's `status:` in its frontmatter (the block between the first line `---` and the
/// next), when it is a word.
pub(super) fn spec_status(spec: &str) -> Option<&str> {
    let mut lines = spec_head(spec).lines();
    if lines.next().map(str::trim_end) != Some("---") {
        return None;
    }
    lines
        .take_while(|l| l.trim_end() != "---")
        .find_map(|l| l.strip_prefix("status:"))
        .map(|v| {
            let v = v.trim_start();
            v.get(..v.find(|c: char| !is_word(c)).unwrap_or(v.len()))
                .unwrap_or_default()
        })
        .filter(|v| !v.is_empty())
}

/// How many inbox items are the foreman's processed findings.
pub(super) fn foreman_findings(inbox: Option<&str>) -> u64 {
    let Some(Value::Array(items)) = inbox.and_then(|i| crate::json::parse(i.as_bytes()).ok())
    else {
        return 0;
    };
    let is =
        |item: &Value, key: &str, want: &str| item.get(key).and_then(Value::as_str) == Some(want);
    items
        .iter()
        .filter(|i| is(i, "source", "foreman") && is(i, "status", "processed"))
        .count() as u64
}

/// The branch `HEAD` is on, or the first 7 characters of the commit it points at.
pub(super) fn branch(head: Option<&str>) -> Option<&str> {
    let head = head?.trim();
    let name = match head.strip_prefix("ref:") {
        Some(reference) => {
            let reference = reference.trim_start();
            reference
                .strip_prefix("refs/heads/")
                .or_else(|| reference.strip_prefix("refs/"))
                .unwrap_or(reference)
        }
        None => head.get(..7).unwrap_or(head),
    };
    Some(name).filter(|n| !n.is_empty())
}

/// The context used, as Claude Code counts it: `context_window.used_percentage` against the
/// auto-compact threshold, rounded, at most 100.
pub(super) fn context(session: Option<&Value>) -> Option<u64> {
    let used = dig(session?, &["context_window", "used_percentage"])?.as_f64()?;
    let share = used / (AUTO_COMPACT_THRESHOLD * 100.0) * 100.0;
    // Math.round: halves go up.
    let rounded = (share + 0.5).floor().clamp(0.0, 100.0);
    // In 0..=100 after the clamp; `as` cannot lose anything.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Some(rounded as u64)
}

/// The session's project directory: `workspace.current_dir`, else `cwd`.
pub fn session_dir(session: &Value) -> Option<&str> {
    let of = |keys: &[&str]| {
        dig(session, keys)
            .and_then(Value::as_str)
            .filter(|d| !d.is_empty())
    };
    of(&["workspace", "current_dir"]).or_else(|| of(&["cwd"]))
}
