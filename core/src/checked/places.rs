//! Where each protocol's files live and how each is checked: the places (the last parts of a
//! path) of the files a search of a directory finds, for `validate`, `watch` and the viewer
//! alike, so that all three find the same files and read each as the same kind.

use super::Target;

/// A role a file can have in the viewer.
pub struct Role {
    /// Its name: `<protocol>.<what>` (`fctry.state`).
    pub name: &'static str,
    /// The file's place: the last parts of its path (`*`: any name, `*.jsonl`: any name
    /// ending in `.jsonl`).
    pub place: &'static [&'static str],
    /// How many of the place's parts belong to the group (the run directory of a meta.json).
    pub grouped: usize,
    /// How the file is checked.
    pub check: How,
}

/// How a file of a role is checked.
#[derive(Clone, Copy)]
pub enum How {
    /// As this target.
    As(Target),
    /// As the log its name makes it (`EVENTS.jsonl`: replayed too).
    ByName,
    /// Not: it is text the page shows as it is (the spec).
    Text,
}

/// Every role, in the order a path is matched against them.
pub static ROLES: &[Role] = &[
    placed("fctry.state", &[".fctry", "state.json"], "fctry.state"),
    placed("fctry.inbox", &[".fctry", "inbox.json"], "fctry.inbox"),
    placed("fctry.config", &[".fctry", "config.json"], "json"),
    Role {
        name: "fctry.spec",
        place: &[".fctry", "spec.md"],
        grouped: 0,
        check: How::Text,
    },
    Role {
        name: "fctry.events",
        place: &[".fctry", "events", "*.jsonl"],
        grouped: 0,
        check: How::As(Target::Log("fctry.event", None)),
    },
    placed(
        "agency.status",
        &[".agency", "state", "runner_status.json"],
        "agency.runner_status",
    ),
    Role {
        name: "agency.meta",
        place: &["repos", "*", "runs", "*", "meta.json"],
        grouped: 4,
        check: How::As(Target::Document("json")),
    },
    placed(
        "hivemind.state",
        &["workspace", "state.json"],
        "hivemind.state",
    ),
    placed("hive.state", &["STATE.json"], "hive.state"),
    Role {
        name: "hive.events",
        place: &["EVENTS.jsonl"],
        grouped: 0,
        check: How::ByName,
    },
    placed("specify.index", &[".workflow", "index.md"], "specify.index"),
];

/// The file names of every role (the last part of its place; `*.jsonl` is a pattern: any
/// name ending in `.jsonl`), sorted: what a search of a directory asks the host to list, for
/// `validate`, `watch` and the viewer alike, so that all three find the same files.
pub fn protocol_names() -> Vec<&'static str> {
    let mut names: Vec<&str> = ROLES
        .iter()
        .filter_map(|role| role.place.last().copied())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// A role whose file is a document of `kind` at `place`.
const fn placed(name: &'static str, place: &'static [&'static str], kind: &'static str) -> Role {
    Role {
        name,
        place,
        grouped: 0,
        check: How::As(Target::Document(kind)),
    }
}

/// Directories never searched (as `validate` skips them).
const SKIPPED: &[&str] = &[".git", "node_modules"];

/// Whether one part of a path matches one part of a place.
fn part_matches(pattern: &str, part: &str) -> bool {
    match pattern {
        "*" => !part.is_empty(),
        "*.jsonl" => part.len() > ".jsonl".len() && part.ends_with(".jsonl"),
        _ => pattern == part,
    }
}

/// The role of the file at `path` (relative, `/`-separated) and where its group ends in its
/// parts; `None` for a file the viewer does not show.
pub fn role_of(parts: &[&str]) -> Option<(&'static Role, usize)> {
    if parts.iter().any(|p| SKIPPED.contains(p) || *p == "..") {
        return None;
    }
    ROLES.iter().find_map(|role| {
        let start = parts.len().checked_sub(role.place.len())?;
        let tail = parts.get(start..)?;
        let matches = role
            .place
            .iter()
            .zip(tail)
            .all(|(pattern, part)| part_matches(pattern, part));
        matches.then_some((role, start.saturating_add(role.grouped)))
    })
}

/// How a file of `role` at `path` is checked.
pub fn target_of(role: &Role, path: &str) -> Option<Target> {
    match role.check {
        How::As(target) => Some(target),
        How::ByName => Target::of(path, None, false),
        How::Text => None,
    }
}

/// How a file found under a watched directory at `path` (`/`-separated) is checked: its
/// role's target; `None` for a file the viewer does not show, or shows as text (the spec).
pub fn target_under(path: &str) -> Option<Target> {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let (role, _) = role_of(&parts)?;
    target_of(role, path)
}
