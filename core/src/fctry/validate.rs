//! Validation of the fctry document kinds: every field of the seed's tables with its type and
//! enum values, the real-world variants, and the cross-field rules (`docs/fctry.md`).

use crate::check::{
    array, boolean, object, one_of, present, required, root, string, strings, timestamp,
    unknown_fields, whole, Object,
};
use crate::error::child_path;
use crate::report::Report;
use serde_json::Value;

/// Commands that start a workflow (`currentCommand`).
pub const COMMANDS: [&str; 5] = ["init", "evolve", "ref", "review", "execute"];
/// Agent steps (`workflowStep`, `completedSteps`, `agentOutputs` keys).
pub const STEPS: [&str; 8] = [
    "state-owner-scan",
    "interviewer",
    "researcher",
    "visual-translator",
    "scenario-crafter",
    "spec-writer",
    "executor-plan",
    "executor-build",
];
/// Build run statuses (`paused` is the real-world addition, with `pendingQuestion`).
pub const RUN_STATUSES: [&str; 4] = ["running", "completed", "partial", "paused"];
/// Chunk statuses (`blocked`: dependents of a failed chunk).
pub const CHUNK_STATUSES: [&str; 6] = [
    "planned",
    "active",
    "retrying",
    "completed",
    "failed",
    "blocked",
];
/// Where build priorities came from.
pub const PRIORITY_SOURCES: [&str; 3] = ["global", "project", "user-prompt"];
/// Inbox item types.
pub const INBOX_TYPES: [&str; 3] = ["evolve", "reference", "feature"];
/// Inbox item statuses (`incorporated`: a processed item folded into the spec).
pub const INBOX_STATUSES: [&str; 5] = [
    "pending",
    "processing",
    "processed",
    "error",
    "incorporated",
];
/// Verification event kinds.
pub const VERIFICATION_KINDS: [&str; 2] = ["chunk-verified", "verification-failed"];
/// Context lifecycle event kinds.
pub const CONTEXT_KINDS: [&str; 3] = [
    "context-checkpointed",
    "context-boundary",
    "context-compacted",
];

pub(super) const STATE_FIELDS: [&str; 15] = [
    "activeSection",
    "activeSectionNumber",
    "currentCommand",
    "workflowStep",
    "completedSteps",
    "nextStep",
    "scenarioScore",
    "chunkProgress",
    "readinessSummary",
    "untrackedChanges",
    "specVersion",
    "agentOutputs",
    "lastUpdated",
    "buildRun",
    "skippedPrerequisites",
];

/// Validates `.fctry/state.json`.
pub fn validate_state(doc: &Value) -> Report {
    let mut report = Report::default();
    let Some(map) = root(&mut report, doc, "", "the fctry state") else {
        return report;
    };
    let section = string(&mut report, map, "activeSection", "");
    let number = string(&mut report, map, "activeSectionNumber", "");
    match (section, number) {
        (None, Some(_)) if present(map, "activeSection").is_none() => report.error(
            "E_SECTION_PAIR",
            "/activeSectionNumber",
            "activeSectionNumber is set without activeSection; set both or clear both",
        ),
        (Some(_), None) if present(map, "activeSectionNumber").is_none() => report.error(
            "E_SECTION_PAIR",
            "/activeSection",
            "activeSection is set without activeSectionNumber; set both or clear both",
        ),
        _ => {}
    }
    one_of(&mut report, map, "currentCommand", "", &COMMANDS);
    one_of(&mut report, map, "workflowStep", "", &STEPS);
    strings(&mut report, map, "completedSteps", "");
    string(&mut report, map, "nextStep", "");
    string(&mut report, map, "specVersion", "");
    timestamp(&mut report, map, "lastUpdated", "");
    if let Some(score) = object(&mut report, map, "scenarioScore", "") {
        fraction(
            &mut report,
            score,
            "/scenarioScore",
            "satisfied",
            "E_SCORE_RANGE",
        );
        unknown_fields(
            &mut report,
            score,
            &["satisfied", "total"],
            "/scenarioScore",
            "scenarioScore",
        );
    }
    if let Some(progress) = object(&mut report, map, "chunkProgress", "") {
        chunk_progress(&mut report, progress);
    }
    if let Some(summary) = object(&mut report, map, "readinessSummary", "") {
        for (key, value) in summary {
            // Counts are whole numbers; other values (e.g. `scanDate`) are metadata, kept.
            if value.is_number() && value.as_u64().is_none() {
                report.error(
                    "E_TYPE",
                    child_path("/readinessSummary", key),
                    format!("the readiness count {key} must be a whole number ≥ 0"),
                );
            }
        }
    }
    if let Some(changes) = array(&mut report, map, "untrackedChanges", "") {
        for (i, change) in changes.iter().enumerate() {
            let at = format!("/untrackedChanges/{i}");
            if let Some(change) = root(&mut report, change, &at, "an untracked change") {
                if required(&mut report, change, "file", &at).is_some() {
                    string(&mut report, change, "file", &at);
                }
                string(&mut report, change, "section", &at);
                string(&mut report, change, "sectionNumber", &at);
                timestamp(&mut report, change, "timestamp", &at);
                unknown_fields(
                    &mut report,
                    change,
                    &["file", "section", "sectionNumber", "timestamp"],
                    &at,
                    "untracked change",
                );
            }
        }
    }
    if let Some(outputs) = object(&mut report, map, "agentOutputs", "") {
        for (agent, output) in outputs {
            let at = child_path("/agentOutputs", agent);
            if let Some(output) = root(&mut report, output, &at, "an agent output") {
                if required(&mut report, output, "summary", &at).is_some() {
                    string(&mut report, output, "summary", &at);
                }
                strings(&mut report, output, "relevanceManifest", &at);
            }
        }
    }
    if let Some(skips) = array(&mut report, map, "skippedPrerequisites", "") {
        for (i, skip) in skips.iter().enumerate() {
            let at = format!("/skippedPrerequisites/{i}");
            if let Some(skip) = root(&mut report, skip, &at, "a skipped prerequisite") {
                string(&mut report, skip, "agent", &at);
                string(&mut report, skip, "command", &at);
                strings(&mut report, skip, "missing", &at);
                timestamp(&mut report, skip, "timestamp", &at);
            }
        }
    }
    if let Some(run) = object(&mut report, map, "buildRun", "") {
        build_run(&mut report, run);
    }
    unknown_fields(&mut report, map, &STATE_FIELDS, "", "fctry state");
    report
}

/// `part` and `total` whole numbers with `part ≤ total` (`code` otherwise).
fn fraction(report: &mut Report, map: &Object, at: &str, part: &str, code: &str) {
    let done = whole(report, map, part, at, 0);
    let total = whole(report, map, "total", at, 0);
    if let (Some(done), Some(total)) = (done, total) {
        if done > total {
            report.error(
                code,
                child_path(at, part),
                format!("{part} ({done}) is greater than total ({total})"),
            );
        }
    }
}

fn chunk_progress(report: &mut Report, progress: &Object) {
    let at = "/chunkProgress";
    fraction(report, progress, at, "current", "E_PROGRESS_RANGE");
    if let Some(chunks) = array(report, progress, "chunks", at) {
        for (i, chunk) in chunks.iter().enumerate() {
            let here = format!("{at}/chunks/{i}");
            if let Some(chunk) = root(report, chunk, &here, "a chunk summary") {
                whole(report, chunk, "id", &here, 1);
                string(report, chunk, "name", &here);
                one_of(report, chunk, "status", &here, &CHUNK_STATUSES);
            }
        }
    }
    unknown_fields(
        report,
        progress,
        &["current", "total", "chunks"],
        at,
        "chunkProgress",
    );
}

pub(super) const RUN_FIELDS: [&str; 10] = [
    "runId",
    "status",
    "startedAt",
    "plan",
    "chunks",
    "convergencePhase",
    "lastCheckpoint",
    "pendingQuestion",
    "completedAt",
    "maxRetries",
];
pub(super) const PLAN_FIELDS: [&str; 5] = [
    "totalChunks",
    "priorities",
    "prioritySource",
    "specVersion",
    "maxRetries",
];
pub(super) const CHUNK_FIELDS: [&str; 12] = [
    "id",
    "name",
    "status",
    "sections",
    "scenarios",
    "dependsOn",
    "specVersionAtBuild",
    "attempt",
    "startedAt",
    "completedAt",
    "failedAt",
    "error",
];

fn build_run(report: &mut Report, run: &Object) {
    let at = "/buildRun";
    if let Some(id) = string(report, run, "runId", at) {
        let digits = id.strip_prefix("run-").unwrap_or_default();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            report.warn(
                "W_RUN_ID_FORMAT",
                "/buildRun/runId",
                format!("runId {id:?} is not in the run-{{epoch ms}} form"),
            );
        }
    }
    let status = one_of(report, run, "status", at, &RUN_STATUSES);
    if status == Some("paused") && present(run, "pendingQuestion").is_none() {
        report.warn(
            "W_PAUSED_WITHOUT_QUESTION",
            "/buildRun/pendingQuestion",
            "the build is paused but has no pendingQuestion saying what it waits for",
        );
    }
    timestamp(report, run, "startedAt", at);
    timestamp(report, run, "lastCheckpoint", at);
    timestamp(report, run, "completedAt", at);
    string(report, run, "convergencePhase", at);
    whole(report, run, "maxRetries", at, 0);
    if let Some(plan) = object(report, run, "plan", at) {
        let here = "/buildRun/plan";
        whole(report, plan, "totalChunks", here, 0);
        strings(report, plan, "priorities", here);
        one_of(report, plan, "prioritySource", here, &PRIORITY_SOURCES);
        string(report, plan, "specVersion", here);
        whole(report, plan, "maxRetries", here, 0);
        unknown_fields(report, plan, &PLAN_FIELDS, here, "build plan");
    }
    if let Some(chunks) = array(report, run, "chunks", at) {
        check_chunks(report, chunks);
        dependencies(report, chunks);
    }
    unknown_fields(report, run, &RUN_FIELDS, at, "buildRun");
}

/// Checks each chunk's fields, ids unique.
fn check_chunks(report: &mut Report, chunks: &[Value]) {
    let mut ids: Vec<Option<u64>> = Vec::with_capacity(chunks.len());
    for (i, chunk) in chunks.iter().enumerate() {
        let at = format!("/buildRun/chunks/{i}");
        let Some(chunk) = root(report, chunk, &at, "a chunk") else {
            ids.push(None);
            continue;
        };
        let id = match required(report, chunk, "id", &at) {
            Some(_) => whole(report, chunk, "id", &at, 1),
            None => None,
        };
        if let Some(id) = id {
            if ids.contains(&Some(id)) {
                report.error(
                    "E_DUPLICATE_ID",
                    format!("{at}/id"),
                    format!("chunk id {id} is used twice"),
                );
            }
        }
        ids.push(id);
        string(report, chunk, "name", &at);
        let status = one_of(report, chunk, "status", &at, &CHUNK_STATUSES);
        strings(report, chunk, "sections", &at);
        strings(report, chunk, "scenarios", &at);
        string(report, chunk, "specVersionAtBuild", &at);
        string(report, chunk, "error", &at);
        let attempt = whole(report, chunk, "attempt", &at, 1);
        timestamp(report, chunk, "startedAt", &at);
        let completed_at = timestamp(report, chunk, "completedAt", &at);
        let failed_at = timestamp(report, chunk, "failedAt", &at);
        match status {
            Some("completed")
                if completed_at.is_none() && present(chunk, "completedAt").is_none() =>
            {
                report.error(
                    "E_COMPLETED_AT_MISSING",
                    format!("{at}/completedAt"),
                    "a completed chunk needs completedAt (when it finished)",
                )
            }
            Some("failed") if failed_at.is_none() && present(chunk, "failedAt").is_none() => report
                .error(
                    "E_FAILED_AT_MISSING",
                    format!("{at}/failedAt"),
                    "a failed chunk needs failedAt (when it was abandoned)",
                ),
            Some(s @ ("active" | "retrying"))
                if attempt.is_none() && present(chunk, "attempt").is_none() =>
            {
                report.error(
                    "E_ATTEMPT_MISSING",
                    format!("{at}/attempt"),
                    format!("a chunk with status {s} needs attempt (the current attempt number)"),
                )
            }
            _ => {}
        }
        unknown_fields(report, chunk, &CHUNK_FIELDS, &at, "chunk");
    }
}

/// `dependsOn`: every id known (`E_UNKNOWN_DEPENDENCY`), no cycle (`E_DEPENDENCY_CYCLE`).
fn dependencies(report: &mut Report, chunks: &[Value]) {
    for problem in dependency_problems(chunks) {
        let message = problem.message(chunks);
        match problem {
            DependencyProblem::NotAList { chunk } => {
                let at = format!("/buildRun/chunks/{chunk}");
                if let Some(map) = chunks.get(chunk).and_then(Value::as_object) {
                    array(report, map, "dependsOn", &at);
                }
            }
            DependencyProblem::NotAnId { chunk, position } => report.error(
                "E_TYPE",
                format!("/buildRun/chunks/{chunk}/dependsOn/{position}"),
                message,
            ),
            DependencyProblem::Unknown {
                chunk, position, ..
            } => report.error(
                "E_UNKNOWN_DEPENDENCY",
                format!("/buildRun/chunks/{chunk}/dependsOn/{position}"),
                message,
            ),
            DependencyProblem::Cycle(cycle) => report.error(
                "E_DEPENDENCY_CYCLE",
                format!(
                    "/buildRun/chunks/{}/dependsOn",
                    cycle.first().copied().unwrap_or_default()
                ),
                message,
            ),
        }
    }
}

/// A problem with the chunks' `dependsOn` lists. The one statement of the rule "every
/// dependency names a chunk of the plan, and no chunks depend on each other in a cycle",
/// used by validation and by `create_build_run`.
pub(super) enum DependencyProblem {
    /// `chunks[chunk].dependsOn` is present but not a list.
    NotAList {
        /// Index of the chunk.
        chunk: usize,
    },
    /// `chunks[chunk].dependsOn[position]` is not a whole number.
    NotAnId {
        /// Index of the chunk.
        chunk: usize,
        /// Index in its `dependsOn`.
        position: usize,
    },
    /// `chunks[chunk].dependsOn[position]` names an id no chunk has.
    Unknown {
        /// Index of the chunk.
        chunk: usize,
        /// Index in its `dependsOn`.
        position: usize,
        /// The id named.
        id: u64,
    },
    /// Chunks (indexes, in order) that depend on each other in a cycle.
    Cycle(Vec<usize>),
}

fn chunk_id(chunk: &Value) -> Option<u64> {
    chunk
        .get("id")
        .and_then(Value::as_u64)
        .filter(|id| *id >= 1)
}

impl DependencyProblem {
    /// What is wrong, for people.
    pub(super) fn message(&self, chunks: &[Value]) -> String {
        match self {
            DependencyProblem::NotAList { .. } => "dependsOn must be a list of chunk ids".into(),
            DependencyProblem::NotAnId { .. } => {
                "dependsOn items must be chunk ids (whole numbers)".into()
            }
            DependencyProblem::Unknown { id, .. } => {
                format!("chunk depends on chunk {id}, which is not in the plan")
            }
            DependencyProblem::Cycle(cycle) => {
                let names: Vec<String> = cycle
                    .iter()
                    .map(|&i| {
                        chunks
                            .get(i)
                            .and_then(chunk_id)
                            .map_or_else(|| "?".to_owned(), |id| id.to_string())
                    })
                    .collect();
                format!(
                    "chunks depend on each other in a cycle: {} → {}",
                    names.join(" → "),
                    names.first().cloned().unwrap_or_default()
                )
            }
        }
    }
}

/// Every dependency problem of `chunks`, in chunk order, a cycle last. Unresolved ids are
/// reported, never followed, so the cycle search always ends.
pub(super) fn dependency_problems(chunks: &[Value]) -> Vec<DependencyProblem> {
    let ids: Vec<Option<u64>> = chunks.iter().map(chunk_id).collect();
    let mut problems = Vec::new();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); chunks.len()];
    for (chunk, value) in chunks.iter().enumerate() {
        let Some(deps) = value.get("dependsOn").filter(|d| !d.is_null()) else {
            continue;
        };
        let Some(deps) = deps.as_array() else {
            problems.push(DependencyProblem::NotAList { chunk });
            continue;
        };
        for (position, dep) in deps.iter().enumerate() {
            let Some(id) = dep.as_u64() else {
                problems.push(DependencyProblem::NotAnId { chunk, position });
                continue;
            };
            match ids.iter().position(|known| *known == Some(id)) {
                Some(target) => {
                    if let Some(list) = edges.get_mut(chunk) {
                        list.push(target);
                    }
                }
                None => problems.push(DependencyProblem::Unknown {
                    chunk,
                    position,
                    id,
                }),
            }
        }
    }
    if let Some(cycle) = find_cycle(&edges) {
        problems.push(DependencyProblem::Cycle(cycle));
    }
    problems
}

/// The first cycle found in a dependency graph (node indexes, in order), if any. Iterative
/// depth-first search with colours: visits each edge once, so it always ends.
pub fn find_cycle(edges: &[Vec<usize>]) -> Option<Vec<usize>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Colour {
        White,
        Grey,
        Black,
    }
    let mut colour = vec![Colour::White; edges.len()];
    for start in 0..edges.len() {
        if colour.get(start) != Some(&Colour::White) {
            continue;
        }
        // Stack of (node, next edge index); the grey path is the stack itself.
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        if let Some(c) = colour.get_mut(start) {
            *c = Colour::Grey;
        }
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let target = edges.get(node).and_then(|list| list.get(*next)).copied();
            *next = next.saturating_add(1);
            match target {
                None => {
                    if let Some(c) = colour.get_mut(node) {
                        *c = Colour::Black;
                    }
                    stack.pop();
                }
                Some(t) => match colour.get(t) {
                    Some(Colour::White) => {
                        if let Some(c) = colour.get_mut(t) {
                            *c = Colour::Grey;
                        }
                        stack.push((t, 0));
                    }
                    Some(Colour::Grey) => {
                        let from = stack.iter().position(|(n, _)| *n == t).unwrap_or_default();
                        return Some(
                            stack
                                .get(from..)
                                .unwrap_or_default()
                                .iter()
                                .map(|(n, _)| *n)
                                .collect(),
                        );
                    }
                    _ => {}
                },
            }
        }
    }
    None
}

/// The fields of an inbox item.
pub(super) const INBOX_ITEM_FIELDS: [&str; 6] =
    ["id", "type", "content", "timestamp", "status", "error"];

/// Validates `.fctry/inbox.json`: a list of items, newest first.
pub fn validate_inbox(doc: &Value) -> Report {
    let mut report = Report::default();
    let Some(items) = doc.as_array() else {
        report.error(
            "E_TYPE",
            "",
            format!(
                "the inbox must be a JSON list of items, not {}",
                crate::merge::type_name(doc)
            ),
        );
        return report;
    };
    let mut seen: Vec<&str> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("/{i}");
        let Some(item) = root(&mut report, item, &at, "an inbox item") else {
            continue;
        };
        for key in ["id", "type", "content", "timestamp", "status"] {
            required(&mut report, item, key, &at);
        }
        if let Some(id) = string(&mut report, item, "id", &at) {
            if seen.contains(&id) {
                report.error(
                    "E_DUPLICATE_ID",
                    format!("{at}/id"),
                    format!("inbox id {id:?} is used twice"),
                );
            }
            seen.push(id);
            if !is_inbox_id(id) {
                report.warn(
                    "W_ID_FORMAT",
                    format!("{at}/id"),
                    format!("inbox id {id:?} is not in the inbox-{{epoch ms}}-{{6 base36}} form"),
                );
            }
        }
        one_of(&mut report, item, "type", &at, &INBOX_TYPES);
        string(&mut report, item, "content", &at);
        timestamp(&mut report, item, "timestamp", &at);
        one_of(&mut report, item, "status", &at, &INBOX_STATUSES);
        unknown_fields(&mut report, item, &INBOX_ITEM_FIELDS, &at, "inbox item");
        string(&mut report, item, "error", &at);
    }
    report
}

/// True for `inbox-{digits}-{6 lowercase base36}`.
pub fn is_inbox_id(id: &str) -> bool {
    let Some(rest) = id.strip_prefix("inbox-") else {
        return false;
    };
    let Some((millis, random)) = rest.split_once('-') else {
        return false;
    };
    !millis.is_empty()
        && millis.bytes().all(|b| b.is_ascii_digit())
        && random.len() == 6
        && random
            .bytes()
            .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
}

/// Validates one build, verification or context lifecycle event.
pub fn validate_event(doc: &Value) -> Report {
    let mut report = Report::default();
    let Some(event) = root(&mut report, doc, "", "an fctry event") else {
        return report;
    };
    let kind = match required(&mut report, event, "kind", "") {
        Some(_) => string(&mut report, event, "kind", ""),
        None => None,
    };
    if required(&mut report, event, "timestamp", "").is_some() {
        timestamp(&mut report, event, "timestamp", "");
    }
    string(&mut report, event, "chunk", "");
    string(&mut report, event, "summary", "");
    match kind {
        Some(k) if VERIFICATION_KINDS.contains(&k) => {
            if let Some(checks) = array(&mut report, event, "checks", "") {
                for (i, check) in checks.iter().enumerate() {
                    let at = format!("/checks/{i}");
                    if let Some(check) = root(&mut report, check, &at, "a check") {
                        if required(&mut report, check, "name", &at).is_some() {
                            string(&mut report, check, "name", &at);
                        }
                        if required(&mut report, check, "result", &at).is_some() {
                            one_of(&mut report, check, "result", &at, &["pass", "fail"]);
                        }
                        boolean(&mut report, check, "retried", &at);
                        unknown_fields(&mut report, check, &["name", "result", "retried"], &at, "verification check");
                    }
                }
            }
            one_of(&mut report, event, "mode", "", &["full", "reduced", "minimal"]);
            string(&mut report, event, "screenshot", "");
            unknown_fields(
                &mut report,
                event,
                &["kind", "chunk", "timestamp", "summary", "checks", "mode", "screenshot"],
                "",
                "verification event",
            );
        }
        Some(k) if CONTEXT_KINDS.contains(&k) => {
            string(&mut report, event, "isolation", "");
            unknown_fields(&mut report, event, &["kind", "chunk", "timestamp", "summary", "isolation"], "", "context event");
        }
        Some(k) => report.warn(
            "W_UNKNOWN_EVENT_KIND",
            "/kind",
            format!("event kind {k:?} is not a verification or context event; it is kept as a build lifecycle event"),
        ),
        None => {}
    }
    report
}
