//! Validation of the fctry document kinds: the field rules of their shapes (`shapes.rs`:
//! every field of the seed's tables with its type and enum values, and the real-world
//! variants), then the cross-field rules (`docs/fctry.md`).

use super::shapes;
use super::words::{CONTEXT_KINDS, LIFECYCLE_KINDS, VERIFICATION_KINDS};
use crate::error::child_path;
use crate::report::Report;
use crate::shape::check::{present_in, type_error, walk_json};
use crate::value::Json;

/// Validates `.fctry/state.json`: the field rules of [`shapes::STATE`], then the
/// cross-field rules (section pair, ranges, readiness counts, the build run's rules). The
/// document is a tree or a read text ([`Json`]).
pub fn validate_state<'a, J: Json<'a>>(doc: J) -> Report {
    let mut report = Report::default();
    let Some(map) = walk_json(&mut report, doc, &shapes::STATE, "") else {
        return report;
    };
    section_pair(&mut report, map);
    if let Some(score) = present_in(map, "scenarioScore").filter(|v| v.is_object()) {
        fraction(
            &mut report,
            score,
            "/scenarioScore",
            "satisfied",
            "E_SCORE_RANGE",
        );
    }
    if let Some(progress) = present_in(map, "chunkProgress").filter(|v| v.is_object()) {
        fraction(
            &mut report,
            progress,
            "/chunkProgress",
            "current",
            "E_PROGRESS_RANGE",
        );
    }
    if let Some(summary) = present_in(map, "readinessSummary").filter(|v| v.is_object()) {
        for (key, value) in summary.members() {
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
    if let Some(run) = present_in(map, "buildRun").filter(|v| v.is_object()) {
        build_run(&mut report, run);
    }
    report
}

/// `activeSection` and `activeSectionNumber` are set together or not at all.
fn section_pair<'a, J: Json<'a>>(report: &mut Report, map: J) {
    let section = present_in(map, "activeSection");
    let number = present_in(map, "activeSectionNumber");
    match (section, number) {
        (None, Some(n)) if n.is_string() => report.error(
            "E_SECTION_PAIR",
            "/activeSectionNumber",
            "activeSectionNumber is set without activeSection; set both or clear both",
        ),
        (Some(s), None) if s.is_string() => report.error(
            "E_SECTION_PAIR",
            "/activeSection",
            "activeSection is set without activeSectionNumber; set both or clear both",
        ),
        _ => {}
    }
}

/// `part ≤ total` when both are whole numbers (`code` otherwise).
fn fraction<'a, J: Json<'a>>(report: &mut Report, map: J, at: &str, part: &str, code: &str) {
    let done = present_in(map, part).and_then(J::as_u64);
    let total = present_in(map, "total").and_then(J::as_u64);
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

/// The build run's rules: the `runId` form, a paused run's question, the chunks' rules.
fn build_run<'a, J: Json<'a>>(report: &mut Report, run: J) {
    if let Some(id) = present_in(run, "runId").and_then(J::as_str) {
        let digits = id.strip_prefix("run-").unwrap_or_default();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            report.warn(
                "W_RUN_ID_FORMAT",
                "/buildRun/runId",
                format!("runId {id:?} is not in the run-{{epoch ms}} form"),
            );
        }
    }
    let paused = present_in(run, "status").and_then(J::as_str) == Some("paused");
    if paused && present_in(run, "pendingQuestion").is_none() {
        report.warn(
            "W_PAUSED_WITHOUT_QUESTION",
            "/buildRun/pendingQuestion",
            "the build is paused but has no pendingQuestion saying what it waits for",
        );
    }
    if let Some(chunks) = present_in(run, "chunks").filter(|v| v.is_array()) {
        let chunks: Vec<J> = chunks.items().collect();
        check_chunks(report, &chunks);
        dependencies(report, &chunks);
    }
}

/// Each chunk's rules: ids unique, and the fields its status needs.
fn check_chunks<'a, J: Json<'a>>(report: &mut Report, chunks: &[J]) {
    let mut ids: Vec<u64> = Vec::with_capacity(chunks.len());
    for (i, &chunk) in chunks.iter().enumerate() {
        let at = format!("/buildRun/chunks/{i}");
        if !chunk.is_object() {
            continue;
        }
        if let Some(id) = present_in(chunk, "id")
            .and_then(J::as_u64)
            .filter(|id| *id >= 1)
        {
            if ids.contains(&id) {
                report.error(
                    "E_DUPLICATE_ID",
                    format!("{at}/id"),
                    format!("chunk id {id} is used twice"),
                );
            }
            ids.push(id);
        }
        let has = |key: &str| present_in(chunk, key).is_some();
        match present_in(chunk, "status").and_then(J::as_str) {
            Some("completed") if !has("completedAt") => report.error(
                "E_COMPLETED_AT_MISSING",
                format!("{at}/completedAt"),
                "a completed chunk needs completedAt (when it finished)",
            ),
            Some("failed") if !has("failedAt") => report.error(
                "E_FAILED_AT_MISSING",
                format!("{at}/failedAt"),
                "a failed chunk needs failedAt (when it was abandoned)",
            ),
            Some(s @ ("active" | "retrying")) if !has("attempt") => report.error(
                "E_ATTEMPT_MISSING",
                format!("{at}/attempt"),
                format!("a chunk with status {s} needs attempt (the current attempt number)"),
            ),
            _ => {}
        }
    }
}

/// `dependsOn`: a list (`E_TYPE`) of ids (`E_TYPE`), every id known (`E_UNKNOWN_DEPENDENCY`),
/// no cycle (`E_DEPENDENCY_CYCLE`).
fn dependencies<'a, J: Json<'a>>(report: &mut Report, chunks: &[J]) {
    for problem in dependency_problems(chunks) {
        let message = problem.message(chunks);
        let (code, path) = match &problem {
            DependencyProblem::NotAList { chunk } => {
                if let Some(deps) = chunks.get(*chunk).and_then(|c| c.get("dependsOn")) {
                    type_error(
                        report,
                        &format!("/buildRun/chunks/{chunk}/dependsOn"),
                        "dependsOn",
                        "a list",
                        deps,
                    );
                }
                continue;
            }
            DependencyProblem::NotAnId { chunk, position } => (
                "E_TYPE",
                format!("/buildRun/chunks/{chunk}/dependsOn/{position}"),
            ),
            DependencyProblem::Unknown {
                chunk, position, ..
            } => (
                "E_UNKNOWN_DEPENDENCY",
                format!("/buildRun/chunks/{chunk}/dependsOn/{position}"),
            ),
            DependencyProblem::Cycle(cycle) => (
                "E_DEPENDENCY_CYCLE",
                format!(
                    "/buildRun/chunks/{}/dependsOn",
                    cycle.first().copied().unwrap_or_default()
                ),
            ),
        };
        report.error(code, path, message);
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

fn chunk_id<'a, J: Json<'a>>(chunk: J) -> Option<u64> {
    chunk.get("id").and_then(J::as_u64).filter(|id| *id >= 1)
}

impl DependencyProblem {
    /// What is wrong, for people.
    pub(super) fn message<'a, J: Json<'a>>(&self, chunks: &[J]) -> String {
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
                            .and_then(|c| chunk_id(*c))
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
pub(super) fn dependency_problems<'a, J: Json<'a>>(chunks: &[J]) -> Vec<DependencyProblem> {
    let ids: Vec<Option<u64>> = chunks.iter().map(|c| chunk_id(*c)).collect();
    let mut problems = Vec::new();
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); chunks.len()];
    for (chunk, value) in chunks.iter().enumerate() {
        let Some(deps) = value.get("dependsOn").filter(|d| !d.is_null()) else {
            continue;
        };
        if !deps.is_array() {
            problems.push(DependencyProblem::NotAList { chunk });
            continue;
        }
        for (position, dep) in deps.items().enumerate() {
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

/// Validates `.fctry/inbox.json`: a list of [`shapes::INBOX_ITEM`]s, newest first, ids
/// unique (and warned about when not in the `inbox-{ms}-{6 base36}` form).
pub fn validate_inbox<'a, J: Json<'a>>(doc: J) -> Report {
    let mut report = Report::default();
    if !doc.is_array() {
        report.error(
            "E_TYPE",
            "",
            format!(
                "the inbox must be a JSON list of items, not {}",
                doc.type_name()
            ),
        );
        return report;
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, item) in doc.items().enumerate() {
        let at = format!("/{i}");
        let Some(item) = walk_json(&mut report, item, &shapes::INBOX_ITEM, &at) else {
            continue;
        };
        if let Some(id) = present_in(item, "id").and_then(J::as_str) {
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

/// Validates one build, verification or context lifecycle event ([`shapes::EVENT`]); a kind
/// that is none of the verification, context or client's lifecycle kinds
/// ([`LIFECYCLE_KINDS`]) is still a build lifecycle event, kept as it is with a warning.
pub fn validate_event<'a, J: Json<'a>>(doc: J) -> Report {
    let mut report = Report::default();
    let Some(event) = walk_json(&mut report, doc, &shapes::EVENT, "") else {
        return report;
    };
    if let Some(kind) = present_in(event, "kind").and_then(J::as_str) {
        let known = [&VERIFICATION_KINDS[..], &CONTEXT_KINDS, &LIFECYCLE_KINDS];
        if !known.iter().any(|kinds| kinds.contains(&kind)) {
            report.warn(
                "W_UNKNOWN_EVENT_KIND",
                "/kind",
                format!(
                    "event kind {kind:?} is not a verification, context or fctry lifecycle \
                     event; it is kept as a build lifecycle event"
                ),
            );
        }
    }
    report
}
