//! What a status line takes from the state alone: the command, the step, the section, the
//! chunk, scenario and readiness counts, the untracked changes. Parts with nothing to say (a
//! total of 0) are `null`; odd field types are ignored.

use crate::{json, Map, Value};

/// The non-empty string `key` of `value`.
pub(super) fn text<'a>(value: &'a Value, key: &str) -> Option<&'a str> {
    value
        .get(key)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

fn count(value: Option<&Value>) -> Option<u64> {
    value.and_then(Value::as_u64)
}

/// A string or `null`.
pub(super) fn opt(value: Option<&str>) -> Value {
    value.map_or(Value::Null, Value::from)
}

/// The state's part of the summary, in the summary's order (the project's fields are added
/// by the caller).
pub(super) fn of_state(state: &Value, out: &mut Map) {
    let command = text(state, "currentCommand");
    out.insert("specVersion".into(), opt(text(state, "specVersion")));
    out.insert("command".into(), opt(command));
    out.insert("step".into(), opt(text(state, "workflowStep")));
    out.insert("scan".into(), scan(state, command));
    out.insert("section".into(), opt(text(state, "activeSection")));
    out.insert("sectionTitle".into(), Value::Null);
    out.insert(
        "sectionNumber".into(),
        opt(text(state, "activeSectionNumber")),
    );
    out.insert("chunks".into(), chunk_counts(state).unwrap_or(Value::Null));
    let scenarios = state.get("scenarioScore").and_then(|score| {
        let total = count(score.get("total")).filter(|t| *t > 0)?;
        Some(json!({"satisfied": count(score.get("satisfied")).unwrap_or(0), "total": total}))
    });
    out.insert("scenarios".into(), scenarios.unwrap_or(Value::Null));
    out.insert(
        "readiness".into(),
        readiness(state).map_or(Value::Null, |r| r.to_value()),
    );
    let build = state
        .get("buildRun")
        .and_then(|run| run.get("status"))
        .and_then(Value::as_str);
    out.insert("build".into(), opt(build));
    let untracked = state
        .get("untrackedChanges")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    out.insert("untracked".into(), untracked.into());
    out.insert(
        "upgraded".into(),
        truthy(state.get("upgradeApplied")).into(),
    );
    out.insert("nextStep".into(), opt(text(state, "nextStep")));
}

/// A `review`'s scan progress `{scanned, total}` (`scanProgress`, when its total is not 0).
fn scan(state: &Value, command: Option<&str>) -> Value {
    let progress = state.get("scanProgress");
    match count(progress.and_then(|p| p.get("total"))) {
        Some(total) if total > 0 && command == Some("review") => json!({
            "scanned": count(progress.and_then(|p| p.get("scanned"))).unwrap_or(0),
            "total": total,
        }),
        _ => Value::Null,
    }
}

/// A flag as JavaScript reads it (`true`, a non-empty string, a number other than 0, any
/// object or array).
fn truthy(value: Option<&Value>) -> bool {
    match value {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Number(n)) => n.as_f64().is_some_and(|n| n != 0.0),
        Some(Value::Array(_) | Value::Object(_)) => true,
        _ => false,
    }
}

/// The readiness summary in the words a user reads (the fctry client's vocabulary).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Readiness {
    /// `aligned`, `ready-to-execute` and `satisfied` sections: built.
    pub built: u64,
    /// `spec-ahead` sections: the spec moved past the code.
    pub evolved: u64,
    /// `ready-to-build` and `draft` sections: specced, not built.
    pub specced: u64,
    /// `undocumented` sections: code without a spec.
    pub unspecced: u64,
}

impl Readiness {
    /// All four.
    pub fn total(self) -> u64 {
        self.built
            .saturating_add(self.evolved)
            .saturating_add(self.specced)
            .saturating_add(self.unspecced)
    }

    fn to_value(self) -> Value {
        json!({
            "built": self.built, "evolved": self.evolved, "specced": self.specced,
            "unspecced": self.unspecced, "total": self.total(),
        })
    }
}

/// `readinessSummary` counted in the user's words; `None` when nothing is counted. Other
/// labels are left out, as the client leaves them out.
pub(super) fn readiness(state: &Value) -> Option<Readiness> {
    let summary = state.get("readinessSummary").and_then(Value::as_object)?;
    let of = |labels: &[&str]| {
        labels
            .iter()
            .filter_map(|l| summary.get(*l).and_then(Value::as_u64))
            .fold(0, u64::saturating_add)
    };
    let counts = Readiness {
        built: of(&["aligned", "ready-to-execute", "satisfied"]),
        evolved: of(&["spec-ahead"]),
        specced: of(&["ready-to-build", "draft"]),
        unspecced: of(&["undocumented"]),
    };
    (counts.total() > 0).then_some(counts)
}

/// The chunk counts: `chunkProgress`'s when it has a total (the seed: the status line reads
/// `chunkProgress`, which the Executor derives from the chunk statuses), its extended form's
/// chunk statuses or its legacy `{current, total}`; else the build run's chunks. `source`
/// says which.
fn chunk_counts(state: &Value) -> Option<Value> {
    let progress = state.get("chunkProgress").filter(|p| p.is_object());
    let from_progress = progress.and_then(|progress| {
        let total = count(progress.get("total")).filter(|t| *t > 0)?;
        match progress.get("chunks").and_then(Value::as_array) {
            Some(chunks) => Some(statuses(chunks, total, "chunkProgress")),
            None => Some(json!({
                "completed": count(progress.get("current"))?, "total": total,
                "active": 0, "retrying": 0, "failed": 0, "blocked": 0, "attempt": null,
                "source": "chunkProgress",
            })),
        }
    });
    from_progress.or_else(|| {
        let chunks = state
            .get("buildRun")
            .and_then(|r| r.get("chunks"))
            .and_then(Value::as_array)
            .filter(|c| !c.is_empty())?;
        Some(statuses(chunks, chunks.len() as u64, "buildRun"))
    })
}

/// The counts of `chunks`' statuses, out of `total`, and the attempt of the first retrying
/// one (the one the client shows).
fn statuses(chunks: &[Value], total: u64, source: &str) -> Value {
    fn status(chunk: &Value) -> Option<&str> {
        chunk.get("status").and_then(Value::as_str)
    }
    let of = |wanted: &str| chunks.iter().filter(|c| status(c) == Some(wanted)).count();
    let attempt = chunks
        .iter()
        .find(|c| status(c) == Some("retrying"))
        .and_then(|c| c.get("attempt").and_then(Value::as_u64));
    json!({
        "completed": of("completed"), "total": total, "active": of("active"),
        "retrying": of("retrying"), "failed": of("failed"), "blocked": of("blocked"),
        "attempt": attempt.map_or(Value::Null, Value::from), "source": source,
    })
}
