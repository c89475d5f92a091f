//! `index.md` rendered back from its document (docs/specify.md § The document): text blocks
//! as they are, a table's header and delimiter lines as written, each row as written unless
//! its cells changed; a changed or new row is written `| a | b |`, each cell padded to its
//! column's width in the delimiter line when the table's rows are aligned (compact when they
//! are not), `|` in a cell escaped as `\|`.

use super::edit::argument;
use crate::error::{child_path, Result};
use crate::Value;

/// The text of an `index.md` document (the result of `parse_markdown`, changed or not).
pub fn render_markdown(doc: &Value) -> Result<String> {
    let blocks = doc
        .get("blocks")
        .and_then(Value::as_array)
        .ok_or_else(|| argument("/blocks", "an index document has a list of blocks"))?;
    let mut out = String::new();
    for (i, block) in blocks.iter().enumerate() {
        let at = format!("/blocks/{i}");
        if let Some(text) = block.get("text") {
            let text = text.as_str().ok_or_else(|| {
                argument(&child_path(&at, "text"), "a text block's text is a string")
            })?;
            out.push_str(text);
        } else if let Some(table) = block.get("table") {
            table_text(&mut out, table, &child_path(&at, "table"))?;
        } else {
            return Err(argument(&at, "a block is {text} or {table}"));
        }
    }
    Ok(out)
}

/// A table's lines.
fn table_text(out: &mut String, table: &Value, at: &str) -> Result<()> {
    let line = |key: &str| {
        table.get(key).and_then(Value::as_str).ok_or_else(|| {
            argument(
                &child_path(at, key),
                &format!("a table's {key} line is a string"),
            )
        })
    };
    let (header, delimiter) = (line("header")?, line("delimiter")?);
    let columns = table
        .get("columns")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    out.push_str(header);
    out.push_str(delimiter);
    let eol = if delimiter.ends_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    let rows = table
        .get("rows")
        .and_then(Value::as_array)
        .ok_or_else(|| argument(&child_path(at, "rows"), "a table's rows are a list"))?;
    // Rows are written aligned to the delimiter's widths when the table's rows as written are,
    // else compact, as the rows around them (and as the seed and its template write the rows
    // of a table that has none yet, under a padded header). Worked out only when a row must
    // be written anew.
    let mut widths: Option<Vec<usize>> = None;
    for (i, row) in rows.iter().enumerate() {
        let raw = row.get("raw").and_then(Value::as_str);
        let bare = raw.map(|r| r.trim_end_matches(['\r', '\n']));
        if let (Some(raw), Some(bare), Some(Value::Array(cells))) = (raw, bare, row.get("cells")) {
            if cells.len() <= columns && same_cells(bare, cells) {
                // A line after one without its line break (the text's last) starts anew.
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push_str(eol);
                }
                out.push_str(raw);
                continue;
            }
        }
        let here = format!("{at}/rows/{i}");
        let cells = cells(row, &here)?;
        if cells.len() > columns {
            return Err(argument(
                &child_path(&here, "cells"),
                &format!(
                    "this row has {} cells; the table has {columns} columns",
                    cells.len()
                ),
            ));
        }
        // A line after one without its line break (the text's last) starts on a new line.
        if !out.is_empty() && !out.ends_with('\n') {
            out.push_str(eol);
        }
        let widths = widths.get_or_insert_with(|| aligned_widths(delimiter, rows));
        out.push_str(&row_line(&cells, widths));
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
fn aligned_widths(delimiter: &str, rows: &[Value]) -> Vec<usize> {
    let target = widths(delimiter);
    let mut written = rows
        .iter()
        .filter_map(|r| r.get("raw").and_then(Value::as_str))
        .peekable();
    let aligned = written.peek().is_some() && written.all(|r| widths(r) == target);
    if aligned {
        target
    } else {
        Vec::new()
    }
}

/// True when the line as written reads as these cells: [`row_cells`] without building them
/// (a pipe right after a backslash is part of its cell, `\|` reads as `|`).
fn same_cells(line: &str, cells: &[Value]) -> bool {
    let trimmed = line.trim();
    let mut pieces: Vec<&str> = Vec::with_capacity(cells.len().saturating_add(2));
    let mut start = 0usize;
    let mut previous = '\0';
    for (at, c) in trimmed.char_indices() {
        if c == '|' && previous != '\\' {
            pieces.push(trimmed.get(start..at).unwrap_or_default());
            start = at.saturating_add(1);
        }
        previous = c;
    }
    if pieces.is_empty() {
        return false; // no pipe: not a row
    }
    pieces.push(trimmed.get(start..).unwrap_or_default());
    let mut pieces = &pieces[..];
    if trimmed.starts_with('|') {
        pieces = pieces.get(1..).unwrap_or_default();
    }
    if super::markdown::ends_with_pipe(trimmed) {
        pieces = pieces
            .get(..pieces.len().saturating_sub(1))
            .unwrap_or_default();
    }
    pieces.len() == cells.len()
        && pieces.iter().zip(cells).all(|(piece, cell)| {
            let piece = piece.trim();
            match cell.as_str() {
                Some(value) if piece.contains("\\|") => piece.replace("\\|", "|") == value,
                Some(value) => piece == value,
                None => false,
            }
        })
}

/// A row's cells as strings, each one line.
fn cells(row: &Value, at: &str) -> Result<Vec<String>> {
    let list = row.get("cells").and_then(Value::as_array).ok_or_else(|| {
        argument(
            &child_path(at, "cells"),
            "a row's cells are a list of strings",
        )
    })?;
    list.iter()
        .enumerate()
        .map(|(i, cell)| match cell.as_str() {
            Some(text) if !text.contains(['\n', '\r']) => Ok(text.to_owned()),
            Some(_) => Err(argument(&format!("{at}/cells/{i}"), "a cell is one line")),
            None => Err(argument(&format!("{at}/cells/{i}"), "a cell is a string")),
        })
        .collect()
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

/// A row written anew: `| a | b |`, each cell padded to its column's width.
fn row_line(cells: &[String], widths: &[usize]) -> String {
    let mut line = String::from("|");
    for (i, cell) in cells.iter().enumerate() {
        let text = cell.replace('|', "\\|");
        let room = widths.get(i).map_or(0, |w| w.saturating_sub(2));
        let pad = room.saturating_sub(text.chars().count());
        line.push(' ');
        line.push_str(&text);
        line.extend(std::iter::repeat_n(' ', pad));
        line.push_str(" |");
    }
    line
}
