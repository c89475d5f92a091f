//! `index.md` rendered back from its document (docs/specify.md § The document): text blocks
//! as they are, a table's header and delimiter lines as written, each row as written unless
//! its cells changed; a changed or new row is written `| a | b |`, each cell padded to its
//! column's width in the delimiter line when the table's rows are aligned (compact when they
//! are not), `|` in a cell escaped as `\|`.

use super::edit::argument;
use super::markdown::split_cells;
use crate::error::{child_path, Result};
use crate::Value;
use std::borrow::Cow;

/// A block to render.
#[derive(Debug, Clone)]
pub(super) enum BlockOut<'a> {
    /// Text written as it is.
    Text(Cow<'a, str>),
    /// A table.
    Table(TableOut<'a>),
}

/// A table to render.
#[derive(Debug, Clone)]
pub(super) struct TableOut<'a> {
    /// Its header line, with its line break.
    pub header: Cow<'a, str>,
    /// Its delimiter line, with its line break.
    pub delimiter: Cow<'a, str>,
    /// How many columns it has.
    pub columns: usize,
    /// Its rows.
    pub rows: Vec<RowOut<'a>>,
}

/// A row to render.
#[derive(Debug, Clone)]
pub(super) enum RowOut<'a> {
    /// A row of the text read, unchanged: its line (with its line break) and its place among
    /// the rows of its table as read.
    Kept(&'a str, usize),
    /// A row's cells, and its line as written before (kept when it still reads as them).
    Cells(Option<&'a str>, Vec<Cow<'a, str>>),
}

impl<'a> RowOut<'a> {
    /// Its line as written, if it has one.
    fn raw(&self) -> Option<&'a str> {
        match self {
            RowOut::Kept(raw, _) => Some(raw),
            RowOut::Cells(raw, _) => *raw,
        }
    }
}

/// The text of an `index.md` document (the result of `parse_markdown`, changed or not).
pub fn render_markdown(doc: &Value) -> Result<String> {
    let blocks = doc
        .get("blocks")
        .and_then(Value::as_array)
        .ok_or_else(|| argument("/blocks", "an index document has a list of blocks"))?;
    let blocks = blocks
        .iter()
        .enumerate()
        .map(|(i, block)| block_of(block, &format!("/blocks/{i}")))
        .collect::<Result<Vec<_>>>()?;
    render(&blocks)
}

/// A block of a `parse_markdown` document, to render.
fn block_of<'a>(block: &'a Value, at: &str) -> Result<BlockOut<'a>> {
    if let Some(text) = block.get("text") {
        let text = text
            .as_str()
            .ok_or_else(|| argument(&child_path(at, "text"), "a text block's text is a string"))?;
        return Ok(BlockOut::Text(Cow::Borrowed(text)));
    }
    let Some(table) = block.get("table") else {
        return Err(argument(at, "a block is {text} or {table}"));
    };
    let at = child_path(at, "table");
    let line = |key: &str| {
        table.get(key).and_then(Value::as_str).ok_or_else(|| {
            argument(
                &child_path(&at, key),
                &format!("a table's {key} line is a string"),
            )
        })
    };
    let (header, delimiter) = (line("header")?, line("delimiter")?);
    let rows = table
        .get("rows")
        .and_then(Value::as_array)
        .ok_or_else(|| argument(&child_path(&at, "rows"), "a table's rows are a list"))?;
    let rows = rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let here = format!("{at}/rows/{i}");
            let list = row.get("cells").and_then(Value::as_array).ok_or_else(|| {
                argument(
                    &child_path(&here, "cells"),
                    "a row's cells are a list of strings",
                )
            })?;
            let cells = list
                .iter()
                .enumerate()
                .map(|(k, cell)| {
                    cell.as_str()
                        .map(Cow::Borrowed)
                        .ok_or_else(|| argument(&format!("{here}/cells/{k}"), "a cell is a string"))
                })
                .collect::<Result<Vec<_>>>()?;
            Ok(RowOut::Cells(row.get("raw").and_then(Value::as_str), cells))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(BlockOut::Table(TableOut {
        header: Cow::Borrowed(header),
        delimiter: Cow::Borrowed(delimiter),
        columns: table
            .get("columns")
            .and_then(Value::as_array)
            .map_or(0, Vec::len),
        rows,
    }))
}

/// The text of `blocks`.
pub(super) fn render(blocks: &[BlockOut<'_>]) -> Result<String> {
    let mut out = String::with_capacity(
        blocks
            .iter()
            .map(|b| match b {
                BlockOut::Text(t) => t.len(),
                BlockOut::Table(t) => t.rows.iter().filter_map(RowOut::raw).map(str::len).sum(),
            })
            .sum::<usize>()
            .saturating_add(1024),
    );
    for (i, block) in blocks.iter().enumerate() {
        match block {
            BlockOut::Text(text) => out.push_str(text),
            BlockOut::Table(table) => table_text(&mut out, table, &format!("/blocks/{i}/table"))?,
        }
    }
    Ok(out)
}

/// A table's lines.
fn table_text(out: &mut String, table: &TableOut<'_>, at: &str) -> Result<()> {
    out.push_str(&table.header);
    out.push_str(&table.delimiter);
    let eol = if table.delimiter.ends_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    // Rows are written aligned to the delimiter's widths when the table's rows as written are,
    // else compact, as the rows around them (and as the seed and its template write the rows
    // of a table that has none yet, under a padded header). Worked out only when a row must
    // be written anew.
    let mut widths: Option<Vec<usize>> = None;
    for (i, row) in table.rows.iter().enumerate() {
        let raw = row.raw();
        let bare = raw.map(|r| r.trim_end_matches(['\r', '\n']));
        let cells = match row {
            RowOut::Cells(_, cells) => cells,
            RowOut::Kept(..) => &Vec::new(),
        };
        let kept = match (row, bare) {
            (RowOut::Kept(..), _) => true,
            (RowOut::Cells(..), Some(bare)) => {
                cells.len() <= table.columns && same_cells(bare, cells)
            }
            _ => false,
        };
        // A line after one without its line break (the text's last) starts anew.
        let starts_anew = !out.is_empty() && !out.ends_with('\n');
        if kept {
            if starts_anew {
                out.push_str(eol);
            }
            out.push_str(raw.unwrap_or_default());
            continue;
        }
        let here = format!("{at}/rows/{i}");
        if let Some(k) = cells.iter().position(|c| c.contains(['\n', '\r'])) {
            return Err(argument(&format!("{here}/cells/{k}"), "a cell is one line"));
        }
        if cells.len() > table.columns {
            return Err(argument(
                &child_path(&here, "cells"),
                &format!(
                    "this row has {} cells; the table has {} columns",
                    cells.len(),
                    table.columns
                ),
            ));
        }
        if starts_anew {
            out.push_str(eol);
        }
        let widths = widths.get_or_insert_with(|| aligned_widths(&table.delimiter, &table.rows));
        row_line(out, cells, widths);
        // A changed row keeps its line's break (none for the text's last line).
        match (raw, bare) {
            (Some(raw), Some(bare)) => out.push_str(raw.get(bare.len()..).unwrap_or_default()),
            _ => out.push_str(eol),
        }
    }
    Ok(())
}

/// The delimiter's column widths when the table's rows as written are aligned to them, else
/// none (rows written compact).
fn aligned_widths(delimiter: &str, rows: &[RowOut<'_>]) -> Vec<usize> {
    let target = widths(delimiter);
    let mut written = rows.iter().filter_map(RowOut::raw).peekable();
    let aligned = written.peek().is_some() && written.all(|r| widths(r) == target);
    if aligned {
        target
    } else {
        Vec::new()
    }
}

/// True when the line as written reads as these cells (the one splitter of the parse).
fn same_cells(line: &str, cells: &[Cow<'_, str>]) -> bool {
    let mut spans = Vec::with_capacity(cells.len());
    split_cells(line, 0, &mut spans)
        && spans.len() == cells.len()
        && spans.iter().zip(cells).all(|(span, cell)| {
            let piece = line.get(span.clone()).unwrap_or_default();
            if piece.contains("\\|") {
                piece.replace("\\|", "|") == *cell
            } else {
                piece == cell
            }
        })
}

/// The width of each cell of a table line as written (its text and spaces; a `\|` counts as
/// part of its cell).
fn widths(line: &str) -> Vec<usize> {
    let trimmed = line.trim();
    let inner = trimmed.strip_prefix('|').unwrap_or(trimmed);
    let inner = inner.strip_suffix('|').unwrap_or(inner);
    let mut widths = Vec::new();
    let mut width = 0usize;
    let mut escaped = false;
    for c in inner.chars() {
        if c == '|' && !escaped {
            widths.push(width);
            width = 0;
        } else {
            width = width.saturating_add(1);
        }
        escaped = c == '\\' && !escaped;
    }
    widths.push(width);
    widths
}

/// Writes a row anew: `| a | b |`, each cell padded to its column's width.
fn row_line(out: &mut String, cells: &[Cow<'_, str>], widths: &[usize]) {
    out.push('|');
    for (i, cell) in cells.iter().enumerate() {
        let room = widths.get(i).map_or(0, |w| w.saturating_sub(2));
        let mut length = 0usize;
        out.push(' ');
        for c in cell.chars() {
            if c == '|' {
                out.push('\\');
                length = length.saturating_add(1);
            }
            out.push(c);
            length = length.saturating_add(1);
        }
        out.extend(std::iter::repeat_n(' ', room.saturating_sub(length)));
        out.push_str(" |");
    }
}
