//! The Gap Priority Queue (docs/specify.md § The queue): adding gaps (ids `G-NNN`, Minor
//! gaps deferred at once), status changes on the gap machine, the order gaps are asked in,
//! and the clarifications of an iteration (at most 3, gaps of one requirement grouped, ids
//! `C{iteration}.{n}`).

use super::edit::{self, argument, history, index_map, list_mut, now_text, rows, text};
use super::machines::{gap_change, gap_move, loop_move};
use crate::error::Result;
use crate::shape::check::present;
use crate::{Map, Value};

/// At most this many clarifications are asked per iteration.
pub const MAX_CLARIFICATIONS: usize = 3;

/// The number of a gap id `G-001` (`None` for another form).
pub fn gap_number(id: &str) -> Option<u64> {
    let digits = id.strip_prefix("G-")?;
    if digits.len() < 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The next free gap id: one above the highest `G-NNN`, three digits at least.
fn next_id(map: &Map) -> String {
    let high = rows(map, "gap_priority_queue")
        .filter_map(|g| text(g, "id").and_then(gap_number))
        .max()
        .unwrap_or(0);
    format!("G-{:03}", high.saturating_add(1))
}

/// A priority's rank: Critical 0, Important 1, Minor 2, anything else after.
fn rank(gap: &Map) -> usize {
    let priority = text(gap, "priority").unwrap_or_default();
    super::layout::PRIORITIES
        .iter()
        .position(|p| *p == priority)
        .unwrap_or(super::layout::PRIORITIES.len())
}

/// True for a gap that blocks completion: Critical or Important, still open.
pub fn blocking(gap: &Map) -> bool {
    rank(gap) < 2 && open(gap)
}

/// True for a gap still open (`pending` or `clarifying`).
pub fn open(gap: &Map) -> bool {
    matches!(text(gap, "status"), Some("pending" | "clarifying") | None)
}

/// Refuses a queue the termination checks cannot count (docs/specify.md § The loop): a gap
/// whose status or priority statecore does not know (a status it does not know never counts
/// as closed, a priority it does not know never as not blocking), or a Critical or Important
/// gap `deferred` (deferred is for Minor gaps). `E_ARGUMENT` at the cell, with the gap's id
/// and the values allowed; a gap without a status is pending.
pub fn countable(map: &Map) -> Result<()> {
    use super::layout::{GAP_STATUSES, PRIORITIES};
    let Some(Value::Array(gaps)) = present(map, "gap_priority_queue") else {
        return Ok(());
    };
    for (i, gap) in gaps.iter().enumerate() {
        let Some(gap) = gap.as_object() else {
            continue;
        };
        let id = text(gap, "id").unwrap_or("(no id)");
        let refuse = |field: &str, value: &Value, why: String| {
            argument(&format!("/gap_priority_queue/{i}/{field}"), &why)
                .with_detail("gap", id)
                .with_detail(field, value.clone())
        };
        for (field, known) in [("status", GAP_STATUSES), ("priority", PRIORITIES)] {
            let Some(value) = present(gap, field) else {
                continue;
            };
            if !value.as_str().is_some_and(|v| known.contains(&v)) {
                let shown = crate::json::serialize_compact(value);
                return Err(refuse(
                    field,
                    value,
                    format!(
                        "gap {id} has the {field} {shown}, which statecore does not know, so \
                         the loop cannot say whether it blocks; use one of {} \
                         (statecore validate lists every problem)",
                        known.join(", ")
                    ),
                )
                .with_detail("allowed", known.to_vec()));
            }
        }
        let priority = text(gap, "priority");
        if text(gap, "status") == Some("deferred") && priority != Some("Minor") {
            let what = priority.unwrap_or("without a priority");
            return Err(refuse(
                "status",
                &Value::from("deferred"),
                format!(
                    "gap {id} is {what} and deferred: only a Minor gap is deferred, so the loop \
                     cannot end while it is unanswered; resolve it, ask it again (pending) or \
                     accept it as known_gap"
                ),
            )
            .with_detail("priority", priority.map_or(Value::Null, Value::from)));
        }
    }
    Ok(())
}

/// A gap's stale count.
pub fn stale(gap: &Map) -> u64 {
    present(gap, "stale").and_then(Value::as_u64).unwrap_or(0)
}

/// Sets Deferred Minor Gaps to the queue's count, when the index has a loop state.
pub fn recount(map: &mut Map) {
    let count = rows(map, "gap_priority_queue")
        .filter(|g| text(g, "priority") == Some("Minor") && text(g, "status") == Some("deferred"))
        .count() as u64;
    if let Some(Value::Object(state)) = map.get_mut("priority_loop_state") {
        state.insert("deferred_minor_gaps".into(), Value::from(count));
    }
}

/// Completes a new gap as the seed's `add_gap` does: its id (the next `G-NNN` when it has
/// none), `pending` and stale 0 whatever status and stale count it came with; a Minor gap is
/// then `deferred` at once. Returns its id and status.
pub fn complete_new(map: &Map, gap: &mut Map, at: &str) -> Result<(String, String)> {
    let id = match present(gap, "id") {
        Some(Value::String(id)) => id.to_string(),
        Some(_) => {
            return Err(argument(
                &format!("{at}/id"),
                "a gap id is a string (`G-001`)",
            ))
        }
        None => next_id(map),
    };
    let status = match text(gap, "priority") {
        Some("Minor") => "deferred",
        _ => "pending",
    };
    gap.shift_remove("status");
    gap.shift_remove("stale");
    gap.insert("id".into(), Value::from(id.as_str()));
    gap.insert("status".into(), Value::from(status));
    gap.insert("stale".into(), Value::from(0u64));
    Ok((id, status.to_owned()))
}

/// Adds gaps found by validation: each gets its id, status and stale count, and a `created`
/// history row (a Minor gap also a `deferred` one); `E_DUPLICATE_ID` argument error for an
/// id the queue has.
pub fn add_gaps(index: Value, gaps: &Value, now: &Value) -> Result<Value> {
    let now = now_text(now)?;
    let mut map = index_map(index)?;
    let items = gaps
        .as_array()
        .ok_or_else(|| argument("", "gaps are a list of gap objects"))?;
    let mut added = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = format!("/{i}");
        let mut gap = item
            .as_object()
            .cloned()
            .ok_or_else(|| argument(&at, "a gap is an object"))?;
        let (id, status) = complete_new(&map, &mut gap, &at)?;
        if find(&map, &id).is_some() {
            return Err(argument(
                &format!("{at}/id"),
                &format!("the queue already has {id}"),
            ));
        }
        let source = text(&gap, "chk_source").map_or_else(
            || "From validation".to_owned(),
            |chk| format!("From {chk} validation"),
        );
        list_mut(&mut map, "gap_priority_queue")?.push(Value::Object(gap));
        history(&mut map, &id, "created", source, &now)?;
        if status == "deferred" {
            history(
                &mut map,
                &id,
                "deferred",
                "Minor gap, deferred".into(),
                &now,
            )?;
        }
        added.push(Value::from(id));
    }
    recount(&mut map);
    if !added.is_empty() {
        edit::touch(&mut map, &now)?;
    }
    Ok(Value::Object(map))
}

/// The position of a gap in the queue.
pub fn find(map: &Map, id: &str) -> Option<usize> {
    present(map, "gap_priority_queue")
        .and_then(Value::as_array)?
        .iter()
        .position(|g| g.get("id").and_then(Value::as_str) == Some(id))
}

/// Changes a gap's status on the gap machine and appends its history row (`details`, or
/// what happened); `stale` goes back to 0 when the gap is reopened.
pub fn set_gap_status(
    index: Value,
    gap_id: &str,
    status: &str,
    now: &Value,
    details: Option<&str>,
) -> Result<Value> {
    let now = now_text(now)?;
    let mut map = index_map(index)?;
    let at = find(&map, gap_id).ok_or_else(|| {
        argument(
            "/gap_priority_queue",
            &format!("the Gap Priority Queue has no gap {gap_id}"),
        )
        .with_detail("gap", gap_id)
    })?;
    let path = format!("/gap_priority_queue/{at}/status");
    let gap = list_mut(&mut map, "gap_priority_queue")?
        .get_mut(at)
        .and_then(Value::as_object_mut)
        .ok_or_else(|| argument(&path, "a gap is an object"))?;
    let from = text(gap, "status").unwrap_or("pending").to_owned();
    if !gap_change(gap_id, text(gap, "priority"), &from, status, &path)? {
        return Ok(Value::Object(map));
    }
    gap.insert("status".into(), Value::from(status));
    if status == "pending" {
        gap.insert("stale".into(), Value::from(0u64));
    }
    let details = details.map_or_else(|| format!("{from} → {status}"), str::to_owned);
    history(&mut map, gap_id, status, details, &now)?;
    recount(&mut map);
    edit::touch(&mut map, &now)?;
    Ok(Value::Object(map))
}

/// The open gaps in the order they are asked: Critical, Important, Minor; then the longest
/// open (highest stale count) first; then by gap number.
pub fn queue_order(index: &Value) -> Result<Value> {
    let map = index
        .as_object()
        .ok_or_else(|| argument("", "a specify.index document is an object"))?;
    let mut gaps: Vec<(usize, &Map)> = rows(map, "gap_priority_queue")
        .filter(|g| open(g))
        .enumerate()
        .collect();
    // Stable (equal keys keep the queue's order) by the position as the last key: one sort
    // routine in the browser's module, not two (docs/performance.md § wasm size).
    gaps.sort_unstable_by_key(|&(at, g)| {
        (
            rank(g),
            std::cmp::Reverse(stale(g)),
            text(g, "id").and_then(gap_number).unwrap_or(u64::MAX),
            at,
        )
    });
    Ok(Value::Array(
        gaps.into_iter()
            .map(|(_, g)| Value::Object(g.clone()))
            .collect(),
    ))
}

/// The clarifications of the current iteration: the pending Critical and Important gaps in
/// queue order, the gaps of one requirement in one clarification, at most 3, numbered
/// `C{iteration}.{n}`.
pub fn next_clarifications(index: &Value) -> Result<Value> {
    let map = index
        .as_object()
        .ok_or_else(|| argument("", "a specify.index document is an object"))?;
    let iteration = edit::iteration(map);
    let ordered = queue_order(index)?;
    let mut groups: Vec<(Option<String>, Vec<Map>)> = Vec::new();
    for gap in ordered
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
    {
        if rank(gap) >= 2 || text(gap, "status") != Some("pending") {
            continue;
        }
        let requirement = text(gap, "fr_reference").map(str::to_owned);
        let full = groups.len() >= MAX_CLARIFICATIONS;
        let same = groups
            .iter_mut()
            .find(|(fr, _)| requirement.is_some() && *fr == requirement);
        match same {
            Some((_, members)) => members.push(gap.clone()),
            None if !full => groups.push((requirement, vec![gap.clone()])),
            None => {}
        }
    }
    let list = groups
        .into_iter()
        .enumerate()
        .map(|(n, (requirement, members))| {
            let mut c = Map::new();
            c.insert(
                "id".into(),
                Value::from(format!("C{iteration}.{}", n.saturating_add(1))),
            );
            c.insert(
                "fr_reference".into(),
                requirement.map_or(Value::Null, Value::from),
            );
            let ids = members
                .iter()
                .filter_map(|g| g.get("id").cloned())
                .collect();
            c.insert("gaps".into(), Value::Array(ids));
            let questions = members
                .iter()
                .filter_map(|g| present(g, "question").cloned())
                .collect();
            c.insert("questions".into(), Value::Array(questions));
            Value::Object(c)
        })
        .collect();
    Ok(Value::Array(list))
}

/// Presents the next clarifications: their gaps go `clarifying` with their clarification id
/// (a history row each), and the loop to `clarifying`. Returns `{index, changed,
/// clarifications}`; with nothing to ask, the index is unchanged.
pub fn start_clarifying(index: Value, now: &Value) -> Result<Value> {
    let now = now_text(now)?;
    let clarifications = next_clarifications(&index)?;
    let mut map = index_map(index)?;
    let asked = clarifications.as_array().map_or(0, Vec::len);
    if asked == 0 {
        return Ok(edit::outcome(
            map,
            false,
            vec![("clarifications", clarifications)],
        ));
    }
    loop_move(
        edit::loop_status(&map),
        "clarifying",
        "/priority_loop_state/loop_status",
    )?;
    for c in clarifications.as_array().into_iter().flatten() {
        let id = c.get("id").and_then(Value::as_str).unwrap_or_default();
        for gap in c
            .get("gaps")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let gap_id = gap.as_str().unwrap_or_default();
            let Some(at) = find(&map, gap_id) else {
                continue;
            };
            let path = format!("/gap_priority_queue/{at}/status");
            gap_move(gap_id, "pending", "clarifying", &path)?;
            if let Some(row) = list_mut(&mut map, "gap_priority_queue")?
                .get_mut(at)
                .and_then(Value::as_object_mut)
            {
                row.insert("status".into(), Value::from("clarifying"));
                row.insert("clarification".into(), Value::from(id));
            }
            history(
                &mut map,
                gap_id,
                "clarifying",
                format!("Question {id} presented"),
                &now,
            )?;
        }
    }
    edit::object_mut(&mut map, "priority_loop_state")?
        .insert("loop_status".into(), Value::from("clarifying"));
    edit::touch(&mut map, &now)?;
    Ok(edit::outcome(
        map,
        true,
        vec![("clarifications", clarifications)],
    ))
}
