//! `apply_state_updates` (seed 004, "State Update Application"; docs/specify.md § State
//! updates): an agent's `state_updates` merged into the index, section by section.

use super::cells::key_of;
use super::edit::{self, argument, index_map, list_mut, loop_status, now_text, object_mut, text};
use super::machines::{gap_move, loop_move, not_deferrable};
use super::queue::{complete_new, find, recount};
use crate::error::{child_path, Result};
use crate::shape::check::present;
use crate::{Map, Value};

/// Merges an agent's `state_updates` into the index and sets `last_activity`:
/// `priority_loop_state` field by field (a status change checked on the loop machine),
/// `gap_priority_queue` merged by gap id (a new gap completed as `add_gaps` does, a status
/// change checked on the gap machine), `traceability_matrix` merged by FR ID,
/// `checklist_mapping` by CHK ID, `gap_resolution_history` appended (a row's missing
/// iteration filled in with the iteration before the updates, its timestamp with `now`); any other section is the table under that heading
/// (`document_availability` → Document Availability Matrix), its rows matched by their first
/// cell, made when missing.
pub fn apply_state_updates(index: Value, updates: &Value, now: &Value) -> Result<Value> {
    let now = now_text(now)?;
    let mut map = index_map(index)?;
    // History rows belong to the iteration the updates report on, even when they advance it.
    let iteration = edit::iteration(&map);
    let sections = updates.as_object().ok_or_else(|| {
        argument(
            "",
            "state_updates is an object of sections (priority_loop_state, ...)",
        )
    })?;
    for (section, value) in sections.iter() {
        let at = format!("/{section}");
        match section.as_str() {
            "priority_loop_state" => loop_fields(&mut map, value, &at)?,
            "gap_priority_queue" => gaps(&mut map, value, &at)?,
            "traceability_matrix" => merge_by(&mut map, section, "fr_id", value, &at)?,
            "checklist_mapping" => merge_by(&mut map, section, "chk_id", value, &at)?,
            "gap_resolution_history" => append_history(&mut map, value, &at, iteration, &now)?,
            other => other_section(&mut map, other, value, &at)?,
        }
    }
    recount_if_gaps(&mut map, sections);
    edit::touch(&mut map, &now)?;
    Ok(Value::Object(map))
}

fn recount_if_gaps(map: &mut Map, sections: &Map) {
    if sections.contains_key("gap_priority_queue") {
        recount(map);
    }
}

fn object<'a>(value: &'a Value, at: &str, what: &str) -> Result<&'a Map> {
    value.as_object().ok_or_else(|| argument(at, what))
}

fn list<'a>(value: &'a Value, at: &str, what: &str) -> Result<&'a [Value]> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| argument(at, what))
}

/// The loop state's fields; a status change goes through the machine.
fn loop_fields(map: &mut Map, value: &Value, at: &str) -> Result<()> {
    let fields = object(value, at, "priority_loop_state is an object of fields")?;
    if let Some(status) = present(fields, "loop_status") {
        let status = status
            .as_str()
            .ok_or_else(|| argument(&child_path(at, "loop_status"), "loop_status is a string"))?;
        loop_move(loop_status(map), status, &child_path(at, "loop_status"))?;
    }
    let state = object_mut(map, "priority_loop_state")?;
    for (key, value) in fields.iter() {
        state.insert(key.clone(), value.clone());
    }
    Ok(())
}

/// Gaps merged by id: a known gap's fields set (its status change checked), a new one added.
fn gaps(map: &mut Map, value: &Value, at: &str) -> Result<()> {
    let items = list(value, at, "gap_priority_queue is a list of gaps")?;
    for (i, item) in items.iter().enumerate() {
        let here = format!("{at}/{i}");
        let fields = object(item, &here, "a gap is an object")?;
        let id = present(fields, "id").and_then(Value::as_str);
        match id.and_then(|id| find(map, id).map(|pos| (id, pos))) {
            Some((id, pos)) => {
                let gap = list_mut(map, "gap_priority_queue")?
                    .get_mut(pos)
                    .and_then(Value::as_object_mut)
                    .ok_or_else(|| argument(&here, "a gap is an object"))?;
                let from = text(gap, "status").unwrap_or("pending").to_owned();
                let changed = present(fields, "status").and_then(Value::as_str);
                if let Some(status) = changed {
                    gap_move(id, &from, status, &child_path(&here, "status"))?;
                }
                for (key, value) in fields.iter() {
                    gap.insert(key.clone(), value.clone());
                }
                let priority = text(gap, "priority");
                let touched = changed.is_some() || present(fields, "priority").is_some();
                if touched && text(gap, "status") == Some("deferred") && priority != Some("Minor") {
                    let field = if changed.is_some() {
                        "status"
                    } else {
                        "priority"
                    };
                    let at = child_path(&here, field);
                    return Err(not_deferrable(id, priority, &from, &at));
                }
            }
            None => {
                let mut gap = fields.clone();
                complete_new(map, &mut gap, &here)?;
                list_mut(map, "gap_priority_queue")?.push(Value::Object(gap));
            }
        }
    }
    Ok(())
}

/// Rows merged by their `key` field: a known row's fields set, a new row appended.
fn merge_by(map: &mut Map, section: &str, key: &str, value: &Value, at: &str) -> Result<()> {
    let items = list(value, at, &format!("{section} is a list of rows"))?;
    let rows = list_mut(map, section)?;
    for (i, item) in items.iter().enumerate() {
        let here = format!("{at}/{i}");
        let fields = object(item, &here, "a row is an object")?;
        let id = present(fields, key).ok_or_else(|| {
            argument(
                &child_path(&here, key),
                &format!("a {section} row needs its {key}"),
            )
        })?;
        let existing = rows
            .iter_mut()
            .filter_map(Value::as_object_mut)
            .find(|row| row.get(key) == Some(id));
        match existing {
            Some(row) => {
                for (k, v) in fields.iter() {
                    row.insert(k.clone(), v.clone());
                }
            }
            None => rows.push(Value::Object(fields.clone())),
        }
    }
    Ok(())
}

/// History rows appended, each with `iteration` (the one the updates report on) and `now`
/// when it lacks them.
fn append_history(map: &mut Map, value: &Value, at: &str, iteration: u64, now: &str) -> Result<()> {
    let items = list(value, at, "gap_resolution_history is a list of rows")?;
    for (i, item) in items.iter().enumerate() {
        let mut row = object(item, &format!("{at}/{i}"), "a history row is an object")?.clone();
        if present(&row, "iteration").is_none() {
            row.insert("iteration".into(), Value::from(iteration));
        }
        if present(&row, "timestamp").is_none() {
            row.insert("timestamp".into(), Value::from(now));
        }
        list_mut(map, "gap_resolution_history")?.push(Value::Object(row));
    }
    Ok(())
}

/// The index's key for a section an update names: itself, or the one table whose key starts
/// with it (`document_availability` → `document_availability_matrix`).
fn section_key(map: &Map, name: &str) -> String {
    if map.contains_key(name) {
        return name.to_owned();
    }
    let prefix = format!("{name}_");
    let mut found = map.keys().filter(|k| k.starts_with(&prefix));
    match (found.next(), found.next()) {
        (Some(key), None) => key.to_string(),
        _ => name.to_owned(),
    }
}

/// Another section: a field/value table's fields set; a table of rows: each update key the
/// row whose first cell reads as it (`spec` matches `spec.md`), its second column set to a
/// value, or its columns to an object's fields; a missing row appended; a missing section
/// made (an object: a field/value table, a list: rows).
fn other_section(map: &mut Map, name: &str, value: &Value, at: &str) -> Result<()> {
    let key = section_key(map, name);
    match (map.get_mut(&key), value) {
        (Some(Value::Object(fields)), Value::Object(updates)) => {
            for (k, v) in updates.iter() {
                fields.insert(k.clone(), v.clone());
            }
            Ok(())
        }
        (Some(Value::Array(rows)), Value::Object(updates)) => {
            for (k, v) in updates.iter() {
                update_row(rows, k, v, &child_path(at, k))?;
            }
            Ok(())
        }
        (Some(Value::Array(rows)), Value::Array(items)) => {
            rows.extend(items.iter().cloned());
            Ok(())
        }
        (None, Value::Object(_) | Value::Array(_)) => {
            map.insert(key.into(), value.clone());
            Ok(())
        }
        _ => Err(argument(
            at,
            &format!(
                "{name} is updated with an object of fields (or a list of rows) matching its \
                 table in index.md"
            ),
        )),
    }
}

/// The row of `rows` whose first cell reads as `name` (or starts with it): its second
/// column set to a scalar, or its columns to an object's fields; appended when missing.
fn update_row(rows: &mut Vec<Value>, name: &str, value: &Value, at: &str) -> Result<()> {
    let columns: Vec<String> = rows
        .iter()
        .find_map(Value::as_object)
        .map(|row| row.keys().map(ToString::to_string).collect())
        .unwrap_or_default();
    let first = columns
        .first()
        .cloned()
        .unwrap_or_else(|| "name".to_owned());
    let matches = |row: &Map, exact: bool| {
        row.get(&first).and_then(Value::as_str).is_some_and(|cell| {
            let cell = key_of(cell);
            cell == name || (!exact && cell.starts_with(&format!("{name}_")))
        })
    };
    let pos = rows
        .iter()
        .position(|r| r.as_object().is_some_and(|r| matches(r, true)))
        .or_else(|| {
            rows.iter()
                .position(|r| r.as_object().is_some_and(|r| matches(r, false)))
        });
    let row = match pos
        .and_then(|p| rows.get_mut(p))
        .and_then(Value::as_object_mut)
    {
        Some(row) => row,
        None => {
            let mut row = Map::new();
            row.insert(first.as_str().into(), Value::from(name));
            rows.push(Value::Object(row));
            rows.last_mut()
                .and_then(Value::as_object_mut)
                .ok_or_else(|| argument(at, "the row just added is gone"))?
        }
    };
    match value {
        Value::Object(fields) => {
            for (k, v) in fields.iter() {
                row.insert(k.clone(), v.clone());
            }
        }
        scalar => {
            let second = columns
                .get(1)
                .cloned()
                .unwrap_or_else(|| "value".to_owned());
            row.insert(second.as_str().into(), scalar.clone());
        }
    }
    Ok(())
}
