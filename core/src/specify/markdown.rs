//! `index.md` as a document (docs/specify.md § The document): the markdown text split into
//! verbatim text blocks and GFM pipe tables, each table with its section, its columns and
//! its rows' cells. Every table row keeps its line as written (`raw`), so rendering a
//! document nobody changed gives back the same bytes, and a change touches only the rows
//! whose cells differ from their line.

use crate::error::{Code, Error, Result};
use crate::{Map, Value};

/// One line of the text: its content (without the line break) and its line break.
struct Line<'a> {
    content: &'a str,
    eol: &'a str,
}

/// The lines of `text`, each with its own line break (`\n`, `\r\n`, or none for the last).
fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let (line, after) = match rest.find('\n') {
            Some(at) => rest.split_at(at.saturating_add(1)),
            None => (rest, ""),
        };
        let content = line.strip_suffix('\n').unwrap_or(line);
        let (content, eol) = match content.strip_suffix('\r') {
            Some(bare) if line.ends_with('\n') => (bare, "\r\n"),
            _ => (content, if line.ends_with('\n') { "\n" } else { "" }),
        };
        out.push(Line { content, eol });
        rest = after;
    }
    out
}

/// A table row's cells: the line split on the pipes that are not escaped (`\|`), a leading
/// and a trailing pipe dropped, each cell trimmed and its `\|` read as `|`. `None` when the
/// line has no unescaped pipe (it is not a row).
pub fn row_cells(line: &str) -> Option<Vec<String>> {
    let trimmed = line.trim();
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut pipes = 0usize;
    let mut chars = trimmed.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cell.push('|');
                chars.next();
            }
            '|' => {
                pipes = pipes.saturating_add(1);
                cells.push(std::mem::take(&mut cell));
            }
            c => cell.push(c),
        }
    }
    if pipes == 0 {
        return None;
    }
    cells.push(cell);
    if trimmed.starts_with('|') && !cells.is_empty() {
        cells.remove(0);
    }
    if ends_with_pipe(trimmed) {
        cells.pop();
    }
    Some(cells.iter().map(|c| c.trim().to_owned()).collect())
}

/// True when `line` (trimmed) ends with a pipe that is not escaped.
pub(super) fn ends_with_pipe(line: &str) -> bool {
    let Some(before) = line.strip_suffix('|') else {
        return false;
    };
    let slashes = before.chars().rev().take_while(|c| *c == '\\').count();
    slashes % 2 == 0
}

/// True when `cells` are a GFM delimiter row (`---`, `:--`, `--:`, `:-:`).
fn is_delimiter(cells: &[String]) -> bool {
    !cells.is_empty()
        && cells.iter().all(|c| {
            let inner = c.strip_prefix(':').unwrap_or(c);
            let inner = inner.strip_suffix(':').unwrap_or(inner);
            !inner.is_empty() && inner.chars().all(|ch| ch == '-')
        })
}

/// A heading's level and title (`## Gap Priority Queue` → `(2, "Gap Priority Queue")`).
fn heading(line: &str) -> Option<(usize, &str)> {
    let trimmed = line.trim_start();
    let level = trimmed.chars().take_while(|c| *c == '#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = trimmed.get(level..)?;
    if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
        return None;
    }
    Some((level, rest.trim().trim_end_matches('#').trim_end()))
}

/// Parses `index.md` text: `{blocks: [{text} | {table: {...}}]}` (docs/specify.md). `E_PARSE`
/// with `details.line` and `details.column` for a row with more cells than its table has
/// columns (an unescaped `|` in a cell).
pub fn parse_markdown(text: &str) -> Result<Value> {
    let all = lines(text);
    let mut blocks = Vec::new();
    let mut verbatim = String::new();
    let mut section: Option<String> = None;
    let mut subsection: Option<String> = None;
    let mut at = 0usize;
    while let Some(line) = all.get(at) {
        let number = at.saturating_add(1);
        let next = all.get(at.saturating_add(1));
        let header = row_cells(line.content);
        let delimiter = next.and_then(|n| row_cells(n.content));
        if let (Some(columns), Some(delimiter), Some(next)) = (header, delimiter, next) {
            if is_delimiter(&delimiter) && delimiter.len() == columns.len() {
                if !verbatim.is_empty() {
                    blocks.push(text_block(std::mem::take(&mut verbatim)));
                }
                let mut rows = Vec::new();
                let mut end = at.saturating_add(2);
                while let Some(row) = all.get(end) {
                    let Some(cells) = row_cells(row.content) else {
                        break;
                    };
                    check_width(row.content, cells.len(), columns.len(), end)?;
                    rows.push((row, cells));
                    end = end.saturating_add(1);
                }
                let table = Table {
                    number,
                    section: section.as_deref(),
                    subsection: subsection.as_deref(),
                    columns,
                    header: line,
                    delimiter: next,
                    rows,
                };
                blocks.push(table.into_value());
                at = end;
                continue;
            }
        }
        if let Some((level, title)) = heading(line.content) {
            if level <= 2 {
                section = Some(title.to_owned());
                subsection = None;
            } else {
                subsection = Some(title.to_owned());
            }
        }
        verbatim.push_str(line.content);
        verbatim.push_str(line.eol);
        at = at.saturating_add(1);
    }
    if !verbatim.is_empty() {
        blocks.push(text_block(verbatim));
    }
    let mut doc = Map::new();
    doc.insert("blocks".into(), Value::Array(blocks));
    Ok(Value::Object(doc))
}

/// `E_PARSE` when a row has more cells than the table has columns.
fn check_width(row: &str, cells: usize, columns: usize, index: usize) -> Result<()> {
    if cells <= columns {
        return Ok(());
    }
    // The column of the pipe that opens the first extra cell (1-based, in characters).
    let mut seen = 0usize;
    let mut column = 0usize;
    let mut escaped = false;
    let leading = row.trim_start().starts_with('|');
    for (i, c) in row.chars().enumerate() {
        if c == '|' && !escaped {
            seen = seen.saturating_add(1);
            if seen == columns.saturating_add(usize::from(leading)) {
                column = i.saturating_add(1);
                break;
            }
        }
        escaped = c == '\\' && !escaped;
    }
    let line = index.saturating_add(1);
    Err(Error::new(
        Code::Parse,
        "",
        format!(
            "line {line}, column {column}: this row has {cells} cells but its table has {columns} \
             columns; a | inside a cell is written \\|"
        ),
    )
    .with_detail("line", line as u64)
    .with_detail("column", column as u64))
}

fn text_block(text: String) -> Value {
    let mut block = Map::new();
    block.insert("text".into(), Value::from(text));
    Value::Object(block)
}

/// A table as parsed.
struct Table<'a, 'l> {
    number: usize,
    section: Option<&'a str>,
    subsection: Option<&'a str>,
    columns: Vec<String>,
    header: &'l Line<'l>,
    delimiter: &'l Line<'l>,
    rows: Vec<(&'l Line<'l>, Vec<String>)>,
}

impl Table<'_, '_> {
    fn into_value(self) -> Value {
        let strings =
            |items: Vec<String>| Value::Array(items.into_iter().map(Value::from).collect());
        let name = |s: Option<&str>| s.map_or(Value::Null, Value::from);
        let mut table = Map::new();
        table.insert("line".into(), (self.number as u64).into());
        table.insert("section".into(), name(self.section));
        table.insert("subsection".into(), name(self.subsection));
        table.insert("columns".into(), strings(self.columns));
        table.insert("header".into(), raw(self.header));
        table.insert("delimiter".into(), raw(self.delimiter));
        let rows = self
            .rows
            .into_iter()
            .map(|(line, cells)| {
                let mut row = Map::new();
                row.insert("cells".into(), strings(cells));
                row.insert("raw".into(), raw(line));
                Value::Object(row)
            })
            .collect();
        table.insert("rows".into(), Value::Array(rows));
        let mut block = Map::new();
        block.insert("table".into(), Value::Object(table));
        Value::Object(block)
    }
}

/// A line as written, with its line break.
fn raw(line: &Line<'_>) -> Value {
    let mut text = String::with_capacity(line.content.len().saturating_add(2));
    text.push_str(line.content);
    text.push_str(line.eol);
    Value::from(text)
}
