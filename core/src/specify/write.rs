//! The `specify.index` document written back into index.md (docs/specify.md § Writing): the
//! file as it was, with only the cells whose values changed rewritten. A row the document
//! no longer has is removed, a new one appended; a field no column holds adds the column; a
//! table the file does not have is appended as a new section.

use super::cells::{self, key_of, label_of, Codec};
use super::edit::argument;
use super::layout::{layout_named, Layout};
use super::render::render_markdown;
use super::view::{self, Bound};
use crate::error::{child_path, Result};
use crate::{Map, Value};

/// The first line of an index.md statecore creates.
const TITLE: &str = "# Feature Index";

/// index.md text for `index` (a `specify.index` document), written over `old` (the file's
/// text; `None`: a new file). Untouched rows keep their bytes; `E_ARGUMENT` for a value no
/// cell can hold.
pub fn render_index(old: Option<&str>, index: &Value) -> Result<String> {
    let fields = index.as_object().ok_or_else(|| {
        argument(
            "",
            "a specify.index document is an object of the file's tables",
        )
    })?;
    let first = format!("{TITLE}\n");
    let text = old.unwrap_or(&first);
    let eol = if text
        .find('\n')
        .is_some_and(|at| text.get(..at).is_some_and(|l| l.ends_with('\r')))
    {
        "\r\n"
    } else {
        "\n"
    };
    let mut read = match view::take_kept(text) {
        Some(read) => read,
        None => view::read(text)?,
    };
    for bound in &read.tables {
        let Some(new) = fields.get(&bound.key) else {
            continue;
        };
        let old = read.index.get(&bound.key).unwrap_or(&Value::Null);
        let table = table_mut(&mut read.markdown, bound.block)?;
        let mut bound = bound.clone();
        if bound.record {
            write_record(table, &mut bound, old, new)?;
        } else {
            write_rows(table, &mut bound, old, new, eol)?;
        }
    }
    for (key, new) in fields {
        if read.tables.iter().any(|b| b.key == key.as_str()) || new.is_null() {
            continue;
        }
        append_section(&mut read.markdown, key, new, eol)?;
    }
    render_markdown(&read.markdown)
}

/// The markdown table of block `block`.
fn table_mut(markdown: &mut Value, block: usize) -> Result<&mut Map> {
    markdown
        .get_mut("blocks")
        .and_then(Value::as_array_mut)
        .and_then(|blocks| blocks.get_mut(block))
        .and_then(|b| b.get_mut("table"))
        .and_then(Value::as_object_mut)
        .ok_or_else(|| argument("", "the index lost a table while it was written"))
}

/// The rows of a markdown table.
fn rows_mut(table: &mut Map) -> Result<&mut Vec<Value>> {
    if !matches!(table.get("rows"), Some(Value::Array(_))) {
        table.insert("rows".into(), Value::Array(Vec::new()));
    }
    table
        .get_mut("rows")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| argument("", "a table's rows are a list"))
}

/// The cells of a row, made at least `width` long.
fn cells_mut(row: &mut Value, width: usize) -> Option<&mut Vec<Value>> {
    let cells = row.get_mut("cells").and_then(Value::as_array_mut)?;
    while cells.len() < width {
        cells.push(Value::from(""));
    }
    Some(cells)
}

/// True when two values of a field are the same (`null`, absent and, for a list, `[]` alike).
fn same(codec: Codec, a: Option<&Value>, b: Option<&Value>) -> bool {
    let none = |v: Option<&Value>| match v {
        None | Some(Value::Null) => true,
        Some(Value::Array(items)) => codec == Codec::List && items.is_empty(),
        _ => false,
    };
    if none(a) && none(b) {
        return true;
    }
    a == b
}

/// A field/value table: changed values rewritten in their row, new fields appended as rows.
fn write_record(table: &mut Map, bound: &mut Bound, old: &Value, new: &Value) -> Result<()> {
    let at = format!("/{}", bound.key);
    let new = new
        .as_object()
        .ok_or_else(|| argument(&at, "this table is a field/value table: an object"))?;
    let bold = view::rows(&Value::Object(table.clone()))
        .first()
        .and_then(|cells| cells.first().map(|c| c.starts_with("**")))
        .unwrap_or(true);
    for (i, (field, codec)) in bound.fields.clone().iter().enumerate() {
        let max = match codec {
            Codec::Ratio(max) => Some(*max),
            _ => None,
        };
        let changed = !same(*codec, old.get(field), new.get(field))
            || max.is_some_and(|m| !same(*codec, old.get(m), new.get(m)));
        if !changed {
            continue;
        }
        let value = new.get(field).unwrap_or(&Value::Null);
        let text = cells::write(
            *codec,
            value,
            max.and_then(|m| new.get(m)),
            false,
            &child_path(&at, field),
        )?;
        let row = rows_mut(table)?.get_mut(i);
        if let Some(cells) = row.and_then(|r| cells_mut(r, 2)) {
            if let Some(cell) = cells.get_mut(1) {
                *cell = Value::from(text);
            }
        }
    }
    for (field, value) in new {
        let known = bound.layout.and_then(|l| l.field(field));
        // A known row is written even empty (the seed's `null` reason); another only with a value.
        if (value.is_null() && known.is_none()) || bound.slot(field).is_some() {
            continue;
        }
        // A ratio's maximum alone is written with its number's row.
        let ratio = bound.layout.and_then(|l| {
            l.columns
                .iter()
                .find(|c| matches!(c.codec, Codec::Ratio(m) if m == field))
        });
        let (column_field, codec, label) = match (known, ratio) {
            (Some(c), _) | (None, Some(c)) => (c.field.to_owned(), c.codec, c.header.to_owned()),
            (None, None) => {
                let label = new_label(field, &child_path(&at, field))?;
                let label = if bold { format!("**{label}**") } else { label };
                (field.to_string(), Codec::Auto, label)
            }
        };
        if bound.slot(&column_field).is_some() {
            continue;
        }
        let label = if bold {
            label
        } else {
            label.trim_matches('*').to_owned()
        };
        let max = match codec {
            Codec::Ratio(m) => new.get(m),
            _ => None,
        };
        let cell_value = new.get(&column_field).unwrap_or(&Value::Null);
        let text = cells::write(codec, cell_value, max, false, &child_path(&at, field))?;
        let mut row = Map::new();
        row.insert(
            "cells".into(),
            Value::Array(vec![label.into(), text.into()]),
        );
        rows_mut(table)?.push(Value::Object(row));
        bound.fields.push((column_field, codec));
    }
    Ok(())
}

/// A table of rows: rows the document still has kept (moved when they moved), changed cells
/// rewritten, new rows appended, rows it no longer has removed; a field no column holds adds
/// its column.
fn write_rows(
    table: &mut Map,
    bound: &mut Bound,
    old: &Value,
    new: &Value,
    eol: &str,
) -> Result<()> {
    let at = format!("/{}", bound.key);
    let new = new
        .as_array()
        .ok_or_else(|| argument(&at, "this table is a list of rows"))?;
    for (i, row) in new.iter().enumerate() {
        let Some(row) = row.as_object() else {
            return Err(argument(
                &format!("{at}/{i}"),
                "a row is an object of its columns",
            ));
        };
        for (field, value) in row {
            if value.is_null() || bound.slot(field).is_some() {
                continue;
            }
            let (header, codec) = match bound.layout.and_then(|l| l.field(field)) {
                Some(c) => (c.header.to_owned(), c.codec),
                None => (new_label(field, &format!("{at}/{i}/{field}"))?, Codec::Auto),
            };
            add_column(table, &header, eol);
            bound.fields.push((field.to_string(), codec));
        }
    }
    let width = bound.fields.len();
    let old_values = old.as_array().map_or(&[][..], Vec::as_slice);
    let old_rows = std::mem::take(rows_mut(table)?);
    let mut used = vec![false; old_rows.len()];
    let mut out = Vec::with_capacity(new.len());
    for (j, value) in new.iter().enumerate() {
        let equal = |i: usize| {
            old_values.get(i).is_some_and(|o| {
                bound
                    .fields
                    .iter()
                    .all(|(f, c)| same(*c, o.get(f), value.get(f)))
            })
        };
        let free = |i: usize, used: &[bool]| !used.get(i).copied().unwrap_or(true);
        let kept = if free(j, &used) && equal(j) {
            Some(j)
        } else {
            (0..old_rows.len()).find(|&i| free(i, &used) && equal(i))
        };
        if let Some(i) = kept {
            if let (Some(flag), Some(row)) = (used.get_mut(i), old_rows.get(i)) {
                *flag = true;
                out.push(row.clone());
                continue;
            }
        }
        let base = if free(j, &used) { Some(j) } else { None };
        let (mut row, before) = match base.and_then(|i| old_rows.get(i).map(|r| (i, r))) {
            Some((i, row)) => {
                if let Some(flag) = used.get_mut(i) {
                    *flag = true;
                }
                (row.clone(), old_values.get(i))
            }
            None => {
                let mut fresh = Map::new();
                fresh.insert("cells".into(), Value::Array(Vec::new()));
                (Value::Object(fresh), None)
            }
        };
        let here = format!("{at}/{j}");
        let fresh = before.is_none();
        let Some(cells) = cells_mut(&mut row, width) else {
            continue;
        };
        for (i, (field, codec)) in bound.fields.iter().enumerate() {
            let was = before.and_then(|b| b.get(field));
            if !fresh && same(*codec, was, value.get(field)) {
                continue;
            }
            let text = cells::write(
                *codec,
                value.get(field).unwrap_or(&Value::Null),
                None,
                bound.symbols,
                &child_path(&here, field),
            )?;
            if let Some(cell) = cells.get_mut(i) {
                *cell = Value::from(text);
            }
        }
        out.push(row);
    }
    *rows_mut(table)? = out;
    Ok(())
}

/// The label of a new row or column for `field`, which must read back as `field`.
fn new_label(field: &str, at: &str) -> Result<String> {
    let label = label_of(field);
    if key_of(&label) != field {
        return Err(argument(
            at,
            &format!(
                "{field:?} cannot name a new row or column of index.md: it would read back \
                 as {:?}; use lower_snake_case",
                key_of(&label)
            ),
        ));
    }
    Ok(label)
}

/// Adds a column to a table: its header and delimiter cells, and `-` in every row.
fn add_column(table: &mut Map, header: &str, eol: &str) {
    let dashes = "-".repeat(header.chars().count().saturating_add(2));
    for (key, cell) in [("header", format!(" {header} ")), ("delimiter", dashes)] {
        let line = table.get(key).and_then(Value::as_str).unwrap_or_default();
        let bare = line.trim_end_matches(['\r', '\n']);
        let end = line
            .get(bare.len()..)
            .filter(|e| !e.is_empty())
            .unwrap_or(eol);
        let trimmed = bare.trim_end();
        let text = if trimmed.ends_with('|') && !trimmed.ends_with("\\|") {
            format!("{trimmed}{cell}|{end}")
        } else {
            format!("{trimmed} |{cell}{end}")
        };
        table.insert(key.into(), Value::from(text));
    }
    let width = table
        .get("columns")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    if let Some(columns) = table.get_mut("columns").and_then(Value::as_array_mut) {
        columns.push(Value::from(header));
    }
    if let Ok(rows) = rows_mut(table) {
        for row in rows {
            if let Some(cells) = cells_mut(row, width) {
                cells.push(Value::from("-"));
            }
        }
    }
}

/// Appends a new section with `value` as its table.
fn append_section(markdown: &mut Value, key: &str, value: &Value, eol: &str) -> Result<()> {
    let at = format!("/{key}");
    let layout: Option<&Layout> = layout_named(key);
    let record = layout.map_or(value.is_object(), |l| l.record);
    let title = match layout {
        Some(l) => l.title.to_owned(),
        None => new_label(key, &at)?,
    };
    let columns: Vec<String> = match (layout, record) {
        (_, true) => vec!["Field".into(), "Value".into()],
        (Some(l), false) => l.seed().iter().map(|c| c.header.to_owned()).collect(),
        (None, false) => Vec::new(),
    };
    let header: String = columns.iter().map(|c| format!("| {c} ")).collect();
    let delimiter: String = columns
        .iter()
        .map(|c| format!("|{}", "-".repeat(c.chars().count().saturating_add(2))))
        .collect();
    let blocks = markdown
        .get_mut("blocks")
        .and_then(Value::as_array_mut)
        .ok_or_else(|| argument("", "the index lost its blocks while it was written"))?;
    let ends_line = match blocks.last() {
        Some(b) => b
            .get("text")
            .and_then(Value::as_str)
            .is_none_or(|t| t.ends_with('\n')),
        None => true,
    };
    let lead = if ends_line { "" } else { eol };
    let mut text = Map::new();
    text.insert(
        "text".into(),
        Value::from(format!("{lead}{eol}## {title}{eol}{eol}")),
    );
    blocks.push(Value::Object(text));
    let mut table = Map::new();
    let strings = |items: &[String]| Value::Array(items.iter().map(Value::from).collect());
    table.insert("line".into(), Value::from(1u64));
    table.insert("section".into(), Value::from(title.as_str()));
    table.insert("subsection".into(), Value::Null);
    table.insert("columns".into(), strings(&columns));
    table.insert("header".into(), Value::from(format!("{header}|{eol}")));
    table.insert(
        "delimiter".into(),
        Value::from(format!("{delimiter}|{eol}")),
    );
    table.insert("rows".into(), Value::Array(Vec::new()));
    let table_value = Value::Object(table);
    let mut bound = view::bind(blocks.len(), &table_value, &Map::new());
    bound.key = key.to_owned();
    let Value::Object(mut table) = table_value else {
        return Ok(());
    };
    if record {
        write_record(&mut table, &mut bound, &Value::Null, value)?;
    } else {
        write_rows(
            &mut table,
            &mut bound,
            &Value::Array(Vec::new()),
            value,
            eol,
        )?;
    }
    let mut block = Map::new();
    block.insert("table".into(), Value::Object(table));
    blocks.push(Value::Object(block));
    Ok(())
}
