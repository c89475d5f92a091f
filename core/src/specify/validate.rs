//! Validation of the kind `specify.index` (docs/specify.md § Validation): the field rules of
//! [`shapes::INDEX`], then the seed's ranges and references.

use super::shapes;
use crate::report::Report;
use crate::shape::check::{present, type_error, walk};
use crate::{Map, Value};
use std::collections::HashSet;

/// The seed's maximum iteration (`n / 10`).
pub const MAX_ITERATIONS: u64 = 10;
/// The seed's stale limit (`n / 3`): a gap open this many iterations is stale.
pub const STALE_LIMIT: u64 = 3;

/// Validates index.md's document: types and enums, the iteration within 1..10 (0 before the
/// loop starts), stale counts within 0..3, gap ids present and unique, history rows about
/// gaps the queue has, timestamps ISO 8601, `deferred` only for Minor gaps.
pub fn validate_index(doc: &Value) -> Report {
    let mut report = Report::default();
    let Some(map) = walk(&mut report, doc, &shapes::INDEX, "") else {
        return report;
    };
    if let Some(state) = present(map, "priority_loop_state").and_then(Value::as_object) {
        loop_state(&mut report, state);
    }
    let gaps = rows(map, "gap_priority_queue");
    let ids = gap_ids(&mut report, &gaps);
    deferred(&mut report, map, &gaps);
    for (i, gap) in &gaps {
        let field = |key: &str| present(gap, key).and_then(Value::as_str);
        if let (Some(p @ ("Critical" | "Important")), Some("deferred")) =
            (field("priority"), field("status"))
        {
            let id = field("id").unwrap_or("a gap");
            report.error(
                "E_DEFERRED_PRIORITY",
                format!("/gap_priority_queue/{i}/status"),
                format!(
                    "{id} is {p} and deferred: only a Minor gap is deferred; resolve it, ask \
                     it again (pending) or accept it as known_gap"
                ),
            );
        }
    }
    for (i, entry) in rows(map, "gap_resolution_history") {
        let gap = present(entry, "gap_id").and_then(Value::as_str);
        if let Some(gap) = gap.filter(|g| !ids.contains(g)) {
            report.error(
                "E_UNKNOWN_GAP",
                format!("/gap_resolution_history/{i}/gap_id"),
                format!("this history row is about {gap}, which is not in the Gap Priority Queue"),
            );
        }
    }
    let mut requirements: HashSet<&str> = HashSet::new();
    for (i, trace) in rows(map, "traceability_matrix") {
        let at = || format!("/traceability_matrix/{i}");
        match present(trace, "fr_id") {
            Some(Value::String(fr)) if requirements.contains(fr.as_str()) => report.error(
                "E_DUPLICATE_ID",
                format!("{}/fr_id", at()),
                format!("{fr} has two rows in the Traceability Matrix"),
            ),
            Some(Value::String(fr)) => {
                requirements.insert(fr);
            }
            Some(other) => type_error(
                &mut report,
                &format!("{}/fr_id", at()),
                "fr_id",
                "a string",
                other,
            ),
            None => report.error(
                "E_REQUIRED",
                format!("{}/fr_id", at()),
                "a Traceability Matrix row needs its FR ID",
            ),
        }
        let listed = present(trace, "gap_ids").and_then(Value::as_array);
        for (j, gap) in listed.into_iter().flatten().enumerate() {
            if let Some(gap) = gap.as_str().filter(|g| !ids.contains(g)) {
                report.warn(
                    "W_UNKNOWN_GAP",
                    format!("{}/gap_ids/{j}", at()),
                    format!("{gap} is not in the Gap Priority Queue"),
                );
            }
        }
    }
    report
}

/// The rows of a table of the index, with their positions (objects only: the walk reports
/// the others).
fn rows<'a>(map: &'a Map, key: &str) -> Vec<(usize, &'a Map)> {
    present(map, key)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .enumerate()
                .filter_map(|(i, v)| v.as_object().map(|m| (i, m)))
                .collect()
        })
        .unwrap_or_default()
}

/// A whole number field within `low..=high`; `code` when outside it (`at`: the path of
/// `map`, made only for a problem).
fn range(
    report: &mut Report,
    map: &Map,
    at: impl Fn() -> String,
    field: &str,
    (low, high): (u64, u64),
    code: &str,
) {
    let Some(value) = present(map, field) else {
        return;
    };
    match value.as_u64() {
        Some(n) if (low..=high).contains(&n) => {}
        Some(n) => report.error(
            code,
            format!("{}/{field}", at()),
            format!("{field} is {n}; the seed allows {low} to {high}"),
        ),
        None => type_error(
            report,
            &format!("{}/{field}", at()),
            field,
            "a whole number",
            value,
        ),
    }
}

/// The loop state's ranges: the iteration (0 only before the loop starts), the stale count,
/// and a finished loop's termination reason.
fn loop_state(report: &mut Report, state: &Map) {
    let at = "/priority_loop_state";
    let status = present(state, "loop_status").and_then(Value::as_str);
    let max = present(state, "max_iterations")
        .and_then(Value::as_u64)
        .unwrap_or(MAX_ITERATIONS);
    let low = u64::from(matches!(status, Some(s) if s != "not_started"));
    let here = || at.to_owned();
    range(
        report,
        state,
        here,
        "current_iteration",
        (low, max),
        "E_ITERATION_RANGE",
    );
    let stale = present(state, "max_stale")
        .and_then(Value::as_u64)
        .unwrap_or(STALE_LIMIT);
    range(
        report,
        state,
        here,
        "stale_count",
        (0, stale),
        "E_STALE_RANGE",
    );
    let ended = matches!(status, Some("completed" | "terminated"));
    if ended && present(state, "termination_reason").is_none() {
        report.warn(
            "W_TERMINATION_REASON",
            format!("{at}/termination_reason"),
            format!(
                "the loop is {} without a termination reason",
                status.unwrap_or_default()
            ),
        );
    }
}

/// The gaps' ids: present, unique (`E_DUPLICATE_ID`), `G-NNN` (`W_ID_FORMAT`); stale
/// counts within 0..3. Returns the ids.
fn gap_ids<'a>(report: &mut Report, gaps: &[(usize, &'a Map)]) -> HashSet<&'a str> {
    let mut ids: HashSet<&str> = HashSet::new();
    for (i, gap) in gaps {
        let at = || format!("/gap_priority_queue/{i}");
        range(report, gap, at, "stale", (0, STALE_LIMIT), "E_STALE_RANGE");
        match present(gap, "id") {
            Some(Value::String(id)) if ids.contains(id.as_str()) => report.error(
                "E_DUPLICATE_ID",
                format!("{}/id", at()),
                format!("two gaps have the id {id}"),
            ),
            Some(Value::String(id)) => {
                if super::queue::gap_number(id).is_none() {
                    report.warn(
                        "W_ID_FORMAT",
                        format!("{}/id", at()),
                        format!("{id:?} is not a gap id of the form G-001"),
                    );
                }
                ids.insert(id);
            }
            Some(other) => type_error(report, &format!("{}/id", at()), "id", "a string", other),
            None => report.error(
                "E_REQUIRED",
                format!("{}/id", at()),
                "a gap needs its Gap ID",
            ),
        }
    }
    ids
}

/// `W_DEFERRED_COUNT` when Deferred Minor Gaps is not the number of deferred Minor gaps.
fn deferred(report: &mut Report, map: &Map, gaps: &[(usize, &Map)]) {
    let Some(state) = present(map, "priority_loop_state").and_then(Value::as_object) else {
        return;
    };
    let Some(count) = present(state, "deferred_minor_gaps").and_then(Value::as_u64) else {
        return;
    };
    let actual = gaps
        .iter()
        .filter(|(_, g)| {
            present(g, "priority").and_then(Value::as_str) == Some("Minor")
                && present(g, "status").and_then(Value::as_str) == Some("deferred")
        })
        .count() as u64;
    if count != actual {
        report.warn(
            "W_DEFERRED_COUNT",
            "/priority_loop_state/deferred_minor_gaps",
            format!(
                "Deferred Minor Gaps says {count}; the queue has {actual} deferred Minor gap(s)"
            ),
        );
    }
}
