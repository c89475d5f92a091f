//! The `specify.index` document written back into index.md (docs/specify.md § Writing): the
//! file as it was, with only the cells whose values changed rewritten. A row the document
//! no longer has is removed, a new one appended; a field no column holds adds the column; a
//! table the file does not have is appended as a new section.

use super::cells::{self, key_of, label_of, Codec};
use super::edit::argument;
use super::layout::{layout_named, Layout};
use super::markdown::{Block, Table};
use super::render::{render, BlockOut, RowOut, TableOut};
use super::view::{self, Bound};
use crate::error::{child_path, Result};
use crate::value::same_bytes;
use crate::{Map, Value};
use std::borrow::Cow;

/// The first line of an index.md statecore creates.
const TITLE: &str = "# Feature Index";

/// index.md text for `index` (a `specify.index` document), written over `old` (the file's
/// text; `None`: a new file). Untouched rows keep their bytes; `E_ARGUMENT` for a value no
/// cell can hold.
pub fn render_index(old: Option<&str>, index: &Value) -> Result<String> {
    Ok(write_index(old, index)?.0)
}

/// [`render_index`], and whether every cell written reads back as its value (false: a value
/// such as `""`, `"-"` or `" x "` reads back otherwise, so the file's reading differs from
/// `index` by more than the order of its keys and `null` for an empty cell).
pub fn write_index(old: Option<&str>, index: &Value) -> Result<(String, bool)> {
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
    let read = match view::take_kept(text) {
        Some(read) => read,
        None => view::read(text)?,
    };
    let source = read.markdown.text.as_str();
    let mut blocks: Vec<BlockOut<'_>> = read
        .markdown
        .blocks
        .iter()
        .map(|block| match block {
            Block::Text(span) => BlockOut::Text(Cow::Borrowed(slice(source, span))),
            Block::Table(table) => BlockOut::Table(TableOut {
                header: Cow::Borrowed(slice(source, &table.header)),
                delimiter: Cow::Borrowed(slice(source, &table.delimiter)),
                columns: table.columns.len(),
                rows: (0..table.rows.len())
                    .zip(&table.rows)
                    .map(|(i, row)| RowOut::Kept(slice(source, &row.raw), i))
                    .collect(),
            }),
        })
        .collect();
    let mut exact = true;
    for bound in &read.tables {
        let Some(new) = fields.get(&bound.key) else {
            continue;
        };
        let old = read.index.get(&bound.key).unwrap_or(&Value::Null);
        let (Some(BlockOut::Table(out)), Some(Block::Table(table))) = (
            blocks.get_mut(bound.block),
            read.markdown.blocks.get(bound.block),
        ) else {
            return Err(argument("", "the index lost a table while it was written"));
        };
        let mut writing = Writing {
            out,
            table,
            source,
            bound: bound.clone(),
            exact: true,
        };
        if bound.record {
            writing.record(old, new)?;
        } else {
            writing.rows(old, new, eol)?;
        }
        exact &= writing.exact;
    }
    for (key, new) in fields {
        if read.tables.iter().any(|b| b.key == key.as_str()) || new.is_null() {
            continue;
        }
        exact &= append_section(&mut blocks, key, new, eol)?;
    }
    Ok((render(&blocks)?, exact))
}

/// The text of `span`.
fn slice<'t>(text: &'t str, span: &std::ops::Range<usize>) -> &'t str {
    text.get(span.clone()).unwrap_or_default()
}

/// A table being written: what will be rendered, the table as read (its cells in `source`),
/// and what its columns (rows) hold.
struct Writing<'w, 'a> {
    out: &'w mut TableOut<'a>,
    table: &'w Table,
    source: &'a str,
    bound: Bound,
    /// False once a cell written does not read back as its value.
    exact: bool,
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

impl<'a> Writing<'_, 'a> {
    /// The text of a cell of `codec` holding `value` (and a ratio's maximum `max`), noting
    /// when it does not read back as them.
    fn cell(
        &mut self,
        codec: Codec,
        value: &Value,
        max: Option<&Value>,
        at: &str,
    ) -> Result<String> {
        // A field/value table's cells are written plainly.
        let symbols = self.bound.symbols && !self.bound.record;
        let text = cells::write(codec, value, max, symbols, at)?;
        let (read, read_max) = cells::read(codec, text.trim());
        let ratio = matches!(codec, Codec::Ratio(_)) && max.is_some();
        if !same(codec, Some(&read), Some(value)) || (ratio && !same(codec, read_max.as_ref(), max))
        {
            self.exact = false;
        }
        Ok(text)
    }

    /// The cells of row `i` to change, made at least `width` long (a row as read gets its
    /// cells from the text).
    fn cells_mut(&mut self, i: usize, width: usize) -> Option<&mut Vec<Cow<'a, str>>> {
        cells_of(self.out.rows.get_mut(i)?, self.table, self.source, width)
    }

    /// A field/value table: changed values rewritten in their row, new fields appended as
    /// rows.
    fn record(&mut self, old: &Value, new: &Value) -> Result<()> {
        let at = format!("/{}", self.bound.key);
        let new = new
            .as_object()
            .ok_or_else(|| argument(&at, "this table is a field/value table: an object"))?;
        let bold = self
            .table
            .cell(self.source, 0, 0)
            .is_none_or(|c| c.starts_with("**"));
        for (i, (field, codec)) in self.bound.fields.clone().iter().enumerate() {
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
            let text = self.cell(
                *codec,
                value,
                max.and_then(|m| new.get(m)),
                &child_path(&at, field),
            )?;
            if let Some(cell) = self.cells_mut(i, 2).and_then(|cells| cells.get_mut(1)) {
                *cell = Cow::Owned(text);
            }
        }
        for (field, value) in new {
            let known = self.bound.layout.and_then(|l| l.field(field));
            // A known row is written even empty (the seed's `null` reason); another only with a value.
            if (value.is_null() && known.is_none()) || self.bound.slot(field).is_some() {
                continue;
            }
            // A ratio's maximum alone is written with its number's row.
            let ratio = self.bound.layout.and_then(|l| {
                l.columns
                    .iter()
                    .find(|c| matches!(c.codec, Codec::Ratio(m) if m == field))
            });
            let (column_field, codec, label) = match (known, ratio) {
                (Some(c), _) | (None, Some(c)) => {
                    (c.field.to_owned(), c.codec, c.header.to_owned())
                }
                (None, None) => {
                    let label = new_label(field, &child_path(&at, field))?;
                    let label = if bold { format!("**{label}**") } else { label };
                    (field.to_string(), Codec::Auto, label)
                }
            };
            if self.bound.slot(&column_field).is_some() {
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
            let text = self.cell(codec, cell_value, max, &child_path(&at, field))?;
            self.out.rows.push(RowOut::Cells(
                None,
                vec![Cow::Owned(label), Cow::Owned(text)],
            ));
            self.bound.fields.push((column_field, codec));
        }
        Ok(())
    }

    /// A table of rows: rows the document still has kept (moved when they moved), changed
    /// cells rewritten, new rows appended, rows it no longer has removed; a field no column
    /// holds adds its column.
    fn rows(&mut self, old: &Value, new: &Value, eol: &str) -> Result<()> {
        let at = format!("/{}", self.bound.key);
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
            for (k, (field, value)) in row.iter().enumerate() {
                // A row as read has the columns' fields in order: no lookup for those.
                let in_place = (self.bound.fields.get(k))
                    .is_some_and(|(f, _)| same_bytes(f.as_bytes(), field.as_bytes()));
                if in_place || value.is_null() || self.bound.slot(field).is_some() {
                    continue;
                }
                let (header, codec) = match self.bound.layout.and_then(|l| l.field(field)) {
                    Some(c) => (c.header.to_owned(), c.codec),
                    None => (new_label(field, &format!("{at}/{i}/{field}"))?, Codec::Auto),
                };
                self.add_column(&header, eol);
                self.bound.fields.push((field.to_string(), codec));
            }
        }
        let width = self.bound.fields.len();
        let old_values = old.as_array().map_or(&[][..], Vec::as_slice);
        // Each row as read, until it is placed.
        let mut old_rows: Vec<Option<RowOut<'a>>> = std::mem::take(&mut self.out.rows)
            .into_iter()
            .map(Some)
            .collect();
        let fields = &self.bound.fields.clone();
        let (kept, taken) = kept_rows(old_values.len(), new.len(), |i, j| {
            match (old_values.get(i), new.get(j)) {
                (Some(o), Some(value)) => {
                    o == value || fields.iter().all(|(f, c)| same(*c, o.get(f), value.get(f)))
                }
                _ => false,
            }
        });
        let mut out = Vec::with_capacity(new.len());
        for (j, value) in new.iter().enumerate() {
            let keeps = kept.get(j).copied().flatten();
            if let Some(row) = keeps
                .and_then(|i| old_rows.get_mut(i))
                .and_then(Option::take)
            {
                out.push(row);
                continue;
            }
            // A changed row is written over the row in its place, when no row kept that.
            let base = match taken.get(j) {
                Some(false) => old_rows.get_mut(j).and_then(Option::take),
                _ => None,
            };
            let (mut row, before) = match base {
                Some(row) => (row, old_values.get(j)),
                None => (RowOut::Cells(None, Vec::new()), None),
            };
            let here = format!("{at}/{j}");
            let fresh = before.is_none();
            let Some(cells) = cells_of(&mut row, self.table, self.source, width) else {
                continue;
            };
            for (i, (field, codec)) in fields.iter().enumerate() {
                let was = before.and_then(|b| b.get(field));
                if !fresh && same(*codec, was, value.get(field)) {
                    continue;
                }
                let text = self.cell(
                    *codec,
                    value.get(field).unwrap_or(&Value::Null),
                    None,
                    &child_path(&here, field),
                )?;
                if let Some(cell) = cells.get_mut(i) {
                    *cell = Cow::Owned(text);
                }
            }
            out.push(row);
        }
        self.out.rows = out;
        Ok(())
    }

    /// Adds a column: its header and delimiter cells, and `-` in every row.
    fn add_column(&mut self, header: &str, eol: &str) {
        let dashes = "-".repeat(header.chars().count().saturating_add(2));
        let padded = format!(" {header} ");
        for (line, cell) in [
            (&mut self.out.header, padded.as_str()),
            (&mut self.out.delimiter, dashes.as_str()),
        ] {
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
            *line = Cow::Owned(text);
        }
        let width = self.out.columns;
        self.out.columns = width.saturating_add(1);
        for i in 0..self.out.rows.len() {
            if let Some(cells) = self.cells_mut(i, width) {
                cells.push(Cow::Borrowed("-"));
            }
        }
    }
}

/// The row as read that each of `news` new rows keeps as it is (`equal(old, new)`: their
/// values are the same), and which rows as read are kept: the row in its place first, then,
/// for a row that moved, the first free equal row after the last one kept (wrapping round),
/// so that a shifted or a changed row costs one pass.
fn kept_rows(
    olds: usize,
    news: usize,
    equal: impl Fn(usize, usize) -> bool,
) -> (Vec<Option<usize>>, Vec<bool>) {
    let mut taken = vec![false; olds];
    let mut kept: Vec<Option<usize>> = (0..news)
        .map(|j| (j < olds && equal(j, j)).then_some(j))
        .collect();
    for i in kept.iter().flatten() {
        if let Some(flag) = taken.get_mut(*i) {
            *flag = true;
        }
    }
    let mut hint = 0usize;
    for (j, keeps) in kept.iter_mut().enumerate() {
        if let Some(i) = keeps {
            hint = i.saturating_add(1);
            continue;
        }
        let free = |i: &usize| taken.get(*i) == Some(&false);
        let found = (hint..olds)
            .chain(0..hint.min(olds))
            .find(|i| free(i) && equal(*i, j));
        if let Some(i) = found {
            *keeps = Some(i);
            if let Some(flag) = taken.get_mut(i) {
                *flag = true;
            }
            hint = i.saturating_add(1);
        }
    }
    (kept, taken)
}

/// The cells of `row` to change, made at least `width` long: a row as read (of `table`, its
/// cells in `source`) gets its cells.
fn cells_of<'r, 'a>(
    row: &'r mut RowOut<'a>,
    table: &Table,
    source: &'a str,
    width: usize,
) -> Option<&'r mut Vec<Cow<'a, str>>> {
    if let RowOut::Kept(raw, i) = *row {
        *row = RowOut::Cells(Some(raw), table.cells(source, i).collect());
    }
    let RowOut::Cells(_, cells) = row else {
        return None;
    };
    while cells.len() < width {
        cells.push(Cow::Borrowed(""));
    }
    Some(cells)
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

/// Appends a new section with `value` as its table; false when a cell written does not read
/// back as its value.
fn append_section(
    blocks: &mut Vec<BlockOut<'_>>,
    key: &str,
    value: &Value,
    eol: &str,
) -> Result<bool> {
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
    let ends_line = match blocks.last() {
        Some(BlockOut::Text(t)) => t.ends_with('\n'),
        _ => true,
    };
    let lead = if ends_line { "" } else { eol };
    blocks.push(BlockOut::Text(Cow::Owned(format!(
        "{lead}{eol}## {title}{eol}{eol}"
    ))));
    let table = Table {
        line: 1,
        section: Some(title),
        columns,
        ..Table::default()
    };
    let mut bound = view::bind(blocks.len(), &table, "", &Map::new());
    bound.key = key.to_owned();
    let mut out = TableOut {
        header: Cow::Owned(format!("{header}|{eol}")),
        delimiter: Cow::Owned(format!("{delimiter}|{eol}")),
        columns: table.columns.len(),
        rows: Vec::new(),
    };
    let mut writing = Writing {
        out: &mut out,
        table: &table,
        source: "",
        bound,
        exact: true,
    };
    if record {
        writing.record(&Value::Null, value)?;
    } else {
        writing.rows(&Value::Array(Vec::new()), value, eol)?;
    }
    let exact = writing.exact;
    blocks.push(BlockOut::Table(out));
    Ok(exact)
}
