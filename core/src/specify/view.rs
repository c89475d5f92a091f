//! index.md read as the `specify.index` document (docs/specify.md § The index): every table
//! of the markdown becomes one field, the tables statecore knows with typed values (the loop
//! state an object, the gap queue a list of gaps, ...), the others with their cells as text.
//! [`Bound`] remembers which table and which cells each value came from, so that writing the
//! document back ([`super::write`]) touches only the cells whose values changed.

use super::cells::{self, key_of, Codec};
use super::layout::{layout_for, Layout};
use super::markdown::{self, Block, Markdown, Table};
use crate::error::Result;
use crate::{Map, Value};
use std::cell::RefCell;

/// A table of the markdown and what it is in the index document.
#[derive(Debug, Clone)]
pub struct Bound {
    /// Its block in the markdown document.
    pub block: usize,
    /// Its key in the index document.
    pub key: String,
    /// The known table it is, if any.
    pub layout: Option<&'static Layout>,
    /// True for a field/value table (an object in the index document).
    pub record: bool,
    /// The field and codec of each column (of each row, for a field/value table).
    pub fields: Vec<(String, Codec)>,
    /// True when its coverage cells carry the template's symbols.
    pub symbols: bool,
}

/// index.md parsed: the markdown, its tables bound, and the index document.
#[derive(Debug, Clone)]
pub struct Read {
    /// The markdown read (it holds the text).
    pub markdown: Markdown,
    /// Its tables, in order.
    pub tables: Vec<Bound>,
    /// The index document.
    pub index: Value,
}

/// Reads index.md text as the `specify.index` document. `E_PARSE` (with line and column)
/// for a table row with more cells than columns.
pub fn parse_index(text: &str) -> Result<Value> {
    Ok(read(text)?.index)
}

thread_local! {
    /// What the last writer on this thread read (it holds its text), for its write.
    static KEPT: RefCell<Option<Read>> = const { RefCell::new(None) };
}

/// [`parse_index`] for a writer: what it read is kept (one per thread) until
/// [`super::render_index`] writes over the same text, so a file update parses once.
pub fn parse_index_for_update(text: &str) -> Result<Value> {
    let read = read(text)?;
    let index = read.index.clone();
    KEPT.with(|kept| *kept.borrow_mut() = Some(read));
    Ok(index)
}

/// What [`parse_index_for_update`] kept of `text`, taken; `None` for another text.
pub fn take_kept(text: &str) -> Option<Read> {
    KEPT.with(|kept| match kept.borrow_mut().take() {
        Some(read) if crate::value::same_bytes(read.markdown.text.as_bytes(), text.as_bytes()) => {
            Some(read)
        }
        _ => None,
    })
}

/// Reads index.md text: the markdown, its tables bound, and the index document.
pub fn read(text: &str) -> Result<Read> {
    let markdown = markdown::parse(text.to_owned())?;
    let mut tables = Vec::new();
    let mut index = Map::new();
    for (i, block) in markdown.blocks.iter().enumerate() {
        let Block::Table(table) = block else {
            continue;
        };
        let bound = bind(i, table, &markdown.text, &index);
        index.insert(
            bound.key.as_str().into(),
            bound.value(table, &markdown.text),
        );
        tables.push(bound);
    }
    Ok(Read {
        markdown,
        tables,
        index: Value::Object(index),
    })
}

/// Where the value at `pointer` of index.md's document comes from in `text`, as a 1-based
/// line and column: its cell, else its row, else its table's header line; the first line for
/// a pointer to no table. `None` when the text does not read.
pub fn locate(text: &str, pointer: &str) -> Option<(usize, usize)> {
    let read = read(text).ok()?;
    let mut tokens = pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"));
    let found = tokens.next().and_then(|key| {
        let bound = read.tables.iter().find(|b| b.key == key)?;
        let Some(Block::Table(table)) = read.markdown.blocks.get(bound.block) else {
            return None;
        };
        // A field/value table has a row per field, its value in the second column.
        let (row, column) = if bound.record {
            let row = tokens.next().and_then(|field| bound.slot(&field));
            (row.map(|(r, _)| r), Some(1))
        } else {
            let row = tokens.next().and_then(|i| i.parse::<usize>().ok());
            let column = tokens
                .next()
                .and_then(|field| bound.slot(&field).map(|(c, _)| c));
            (row, column)
        };
        let start = row
            .and_then(|r| table.cell_start(r, column.unwrap_or(0)))
            .unwrap_or(table.header.start);
        Some(start)
    });
    Some(crate::json::line_column(text, found.unwrap_or(0)))
}

/// `key`, or `key_2`, `key_3`, ... when `taken` already has it.
pub fn unique(key: String, taken: impl Fn(&str) -> bool) -> String {
    if !taken(&key) {
        return key;
    }
    (2u32..)
        .map(|n| format!("{key}_{n}"))
        .find(|k| !taken(k))
        .unwrap_or(key)
}

/// Binds a markdown table (its cells in `text`): its key, its layout, and each column's
/// (row's) field.
pub fn bind(block: usize, table: &Table, text: &str, index: &Map) -> Bound {
    let section = table.section.as_deref().map(key_of).unwrap_or_default();
    let own = table
        .subsection
        .as_deref()
        .map_or_else(|| section.clone(), key_of);
    let columns: Vec<String> = table.columns.iter().map(|c| key_of(c)).collect();
    let first = columns.first().map_or("", String::as_str);
    let layout = layout_for(&section, &own, first).filter(|l| !l.record || columns.len() >= 2);
    let record = layout.map_or(columns == ["field", "value"], |l| l.record);
    let base = layout.map_or_else(
        || if own.is_empty() { "table".into() } else { own },
        |l| l.key.to_owned(),
    );
    let key = unique(base, |k| index.contains_key(k));
    let mut fields: Vec<(String, Codec)> = Vec::new();
    let labels: Vec<String> = if record {
        (0..table.rows.len())
            .map(|row| key_of(&table.cell(text, row, 0).unwrap_or_default()))
            .collect()
    } else {
        columns
    };
    for (i, label) in labels.iter().enumerate() {
        let known = layout.and_then(|l| l.column(label));
        let (field, codec) = match known {
            Some(c) if !fields.iter().any(|(f, _)| f == c.field) => (c.field.to_owned(), c.codec),
            _ => {
                let plain = if label.is_empty() {
                    format!("column_{}", i.saturating_add(1))
                } else {
                    label.clone()
                };
                let plain = unique(plain, |k| {
                    fields.iter().any(|(f, _)| f == k)
                        || layout.is_some_and(|l| l.field(k).is_some())
                });
                (plain, Codec::Auto)
            }
        };
        fields.push((field, codec));
    }
    let symbols = fields
        .iter()
        .position(|(_, c)| *c == Codec::Coverage)
        .is_some_and(|at| {
            (0..table.rows.len()).any(|row| {
                table
                    .cell(text, row, at)
                    .is_some_and(|c| cells::has_symbol(&c))
            })
        });
    Bound {
        block,
        key,
        layout,
        record,
        fields,
        symbols,
    }
}

impl Bound {
    /// The table's value in the index document (its cells in `text`).
    pub fn value(&self, table: &Table, text: &str) -> Value {
        if self.record {
            let mut record = Map::with_capacity(self.fields.len());
            for (row, (field, codec)) in self.fields.iter().enumerate() {
                let cell = table.cell(text, row, 1).unwrap_or_default();
                let (value, max) = cells::read(*codec, &cell);
                record.insert(field.as_str().into(), value);
                if let (Codec::Ratio(max_field), Some(max)) = (codec, max) {
                    record.insert((*max_field).into(), max);
                }
            }
            return Value::Object(record);
        }
        let list = (0..table.rows.len())
            .map(|row| {
                // Fields are distinct by construction (`bind`).
                let mut map = Map::with_capacity(self.fields.len());
                let mut cells = table.cells(text, row);
                for (field, codec) in &self.fields {
                    let cell = cells.next().unwrap_or_default();
                    map.push_distinct(field.as_str().into(), cells::read(*codec, &cell).0);
                }
                Value::Object(map)
            })
            .collect();
        Value::Array(list)
    }

    /// The column (row) that holds `field`, and its codec: a ratio's maximum is held by its
    /// number's cell.
    pub fn slot(&self, field: &str) -> Option<(usize, Codec)> {
        self.fields
            .iter()
            .position(|(f, c)| f == field || matches!(c, Codec::Ratio(max) if *max == field))
            .and_then(|i| self.fields.get(i).map(|(_, c)| (i, *c)))
    }
}
