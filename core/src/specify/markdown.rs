//! `index.md` as a document (docs/specify.md § The document): the markdown text split into
//! verbatim text blocks and GFM pipe tables, each table with its section, its columns and
//! its rows' cells. The parse is typed: blocks, lines and cells are byte ranges of the text,
//! and a cell's text is only made when it is read (and only copied when it holds `\|`).
//! Every table row keeps its line as written, so rendering a document nobody changed gives
//! back the same bytes, and a change touches only the rows whose cells differ from their line.
//! [`parse_markdown`] gives the same document as a value (`{blocks: [...]}`).

use crate::error::{Code, Error, Result};
use crate::{Map, Value};
use std::borrow::Cow;
use std::ops::Range;

/// index.md read as its blocks; every range is of `text`.
#[derive(Debug, Clone, Default)]
pub struct Markdown {
    /// The text read.
    pub text: String,
    /// Its blocks, in order.
    pub blocks: Vec<Block>,
}

/// A block of the markdown.
#[derive(Debug, Clone)]
pub enum Block {
    /// Lines kept as written, with their line breaks.
    Text(Range<usize>),
    /// A pipe table.
    Table(Table),
}

/// A GFM pipe table as read.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// The line number (1-based) of its header.
    pub line: usize,
    /// The title of the `#`/`##` heading it is under.
    pub section: Option<String>,
    /// The title of the deeper heading it is under, within its section.
    pub subsection: Option<String>,
    /// The header's cells.
    pub columns: Vec<String>,
    /// The header line, with its line break.
    pub header: Range<usize>,
    /// The delimiter line, with its line break.
    pub delimiter: Range<usize>,
    /// Its rows.
    pub rows: Vec<Row>,
    /// Every row's cells (trimmed, `\|` not yet read as `|`), in order.
    pub(super) cells: Vec<Range<usize>>,
}

/// A row of a table.
#[derive(Debug, Clone)]
pub struct Row {
    /// Its line, with its line break.
    pub raw: Range<usize>,
    /// Its cells in [`Table`]'s list.
    cells: Range<usize>,
}

impl Table {
    /// The cells of row `row`, read from `text`.
    pub fn cells<'s, 't>(
        &'s self,
        text: &'t str,
        row: usize,
    ) -> impl Iterator<Item = Cow<'t, str>> + use<'s, 't> {
        let spans = self
            .rows
            .get(row)
            .and_then(|r| self.cells.get(r.cells.clone()))
            .unwrap_or_default();
        spans.iter().map(move |span| cell_text(text, span.clone()))
    }

    /// Where the cell of row `row` in column `column` starts in the text (the row's line
    /// when it has no such cell).
    pub fn cell_start(&self, row: usize, column: usize) -> Option<usize> {
        let r = self.rows.get(row)?;
        let spans = self.cells.get(r.cells.clone())?;
        Some(spans.get(column).map_or(r.raw.start, |span| span.start))
    }

    /// The cell of row `row` in column `column`.
    pub fn cell<'t>(&self, text: &'t str, row: usize, column: usize) -> Option<Cow<'t, str>> {
        let r = self.rows.get(row)?;
        let span = self.cells.get(r.cells.clone())?.get(column)?;
        Some(cell_text(text, span.clone()))
    }
}

/// A cell's text: its `\|` read as `|`.
fn cell_text(text: &str, span: Range<usize>) -> Cow<'_, str> {
    let cell = text.get(span).unwrap_or_default();
    // Every pipe inside a cell is escaped (the others split the row).
    if cell.as_bytes().contains(&b'|') {
        Cow::Owned(cell.replace("\\|", "|"))
    } else {
        Cow::Borrowed(cell)
    }
}

/// Splits a table line into its cells: on the pipes not right after a backslash, a leading
/// and a trailing pipe dropped, each cell trimmed. Pushes each cell's range (offset by
/// `base`, the line's place in its text) onto `out`; false when the line has no such pipe
/// (it is not a row), with nothing pushed.
pub(super) fn split_cells(line: &str, base: usize, out: &mut Vec<Range<usize>>) -> bool {
    let trimmed = line.trim();
    let lead = line.len().saturating_sub(line.trim_start().len());
    let origin = base.saturating_add(lead);
    let first = out.len();
    let mut start = 0usize;
    let mut previous = 0u8;
    for (at, byte) in trimmed.bytes().enumerate() {
        if byte == b'|' && previous != b'\\' {
            push_trimmed(trimmed, start..at, origin, out);
            start = at.saturating_add(1);
        }
        previous = byte;
    }
    if out.len() == first {
        return false;
    }
    push_trimmed(trimmed, start..trimmed.len(), origin, out);
    if trimmed.starts_with('|') {
        out.remove(first);
    }
    if ends_with_pipe(trimmed) && out.len() > first {
        out.pop();
    }
    true
}

/// Pushes `piece` of `line` trimmed (as `str::trim`), as a range of the text (`origin`: where
/// `line` starts).
fn push_trimmed(line: &str, piece: Range<usize>, origin: usize, out: &mut Vec<Range<usize>>) {
    let bytes = line.as_bytes();
    let (mut start, mut end) = (piece.start, piece.end);
    // ASCII white space (as `char::is_whitespace`: with the vertical tab) byte by byte; a
    // non-ASCII byte at either end may be a Unicode space, which `str::trim` knows.
    let space = |b: &u8| b.is_ascii_whitespace() || *b == 0x0b;
    while start < end && bytes.get(start).is_some_and(space) {
        start = start.saturating_add(1);
    }
    while end > start && bytes.get(end.saturating_sub(1)).is_some_and(space) {
        end = end.saturating_sub(1);
    }
    let wide = |at: usize| bytes.get(at).is_some_and(|b| !b.is_ascii());
    if start < end && (wide(start) || wide(end.saturating_sub(1))) {
        let text = line.get(start..end).unwrap_or_default();
        let lead = text.len().saturating_sub(text.trim_start().len());
        let tail = text.trim_start().len().saturating_sub(text.trim().len());
        start = start.saturating_add(lead);
        end = end.saturating_sub(tail);
    }
    out.push(origin.saturating_add(start)..origin.saturating_add(end));
}

/// A table row's cells: the line split on the pipes that are not escaped (`\|`), a leading
/// and a trailing pipe dropped, each cell trimmed and its `\|` read as `|`. `None` when the
/// line has no unescaped pipe (it is not a row).
pub fn row_cells(line: &str) -> Option<Vec<String>> {
    let mut spans = Vec::new();
    if !split_cells(line, 0, &mut spans) {
        return None;
    }
    Some(
        spans
            .into_iter()
            .map(|s| cell_text(line, s).into_owned())
            .collect(),
    )
}

/// True when `line` (trimmed) ends with a pipe that is not escaped.
pub(super) fn ends_with_pipe(line: &str) -> bool {
    let Some(before) = line.strip_suffix('|') else {
        return false;
    };
    let slashes = before.bytes().rev().take_while(|c| *c == b'\\').count();
    slashes % 2 == 0
}

/// True when the cells of `text` are a GFM delimiter row (`---`, `:--`, `--:`, `:-:`).
fn is_delimiter(text: &str, cells: &[Range<usize>]) -> bool {
    !cells.is_empty()
        && cells.iter().all(|span| {
            let c = text.get(span.clone()).unwrap_or_default();
            let inner = c.strip_prefix(':').unwrap_or(c);
            let inner = inner.strip_suffix(':').unwrap_or(inner);
            !inner.is_empty() && inner.bytes().all(|b| b == b'-')
        })
}

/// A heading's level and title (`## Gap Priority Queue` → `(2, "Gap Priority Queue")`).
fn heading(line: &str) -> Option<(usize, &str)> {
    let trimmed = line.trim_start();
    let level = trimmed.bytes().take_while(|c| *c == b'#').count();
    if !(1..=6).contains(&level) {
        return None;
    }
    let rest = trimmed.get(level..)?;
    if !(rest.is_empty() || rest.starts_with(' ') || rest.starts_with('\t')) {
        return None;
    }
    Some((level, rest.trim().trim_end_matches('#').trim_end()))
}

/// A line of the text: where it starts, where its content ends, and where it ends (after
/// its line break: `\n`, `\r\n`, or none for the last line).
#[derive(Debug, Clone, Copy)]
struct Line {
    start: usize,
    content: usize,
    end: usize,
}

/// The lines of `text`.
fn lines(text: &str) -> Vec<Line> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len() / 64);
    let mut start = 0usize;
    while start < bytes.len() {
        let rest = bytes.get(start..).unwrap_or_default();
        let (content, end) = match rest.iter().position(|b| *b == b'\n') {
            Some(at) => {
                let newline = start.saturating_add(at);
                let cr = newline > start && bytes.get(newline.saturating_sub(1)) == Some(&b'\r');
                (
                    if cr {
                        newline.saturating_sub(1)
                    } else {
                        newline
                    },
                    newline.saturating_add(1),
                )
            }
            None => (bytes.len(), bytes.len()),
        };
        out.push(Line {
            start,
            content,
            end,
        });
        start = end;
    }
    out
}

/// Reads `index.md` text into its blocks (docs/specify.md). `E_PARSE` with `details.line`
/// and `details.column` for a row with more cells than its table has columns (an unescaped
/// `|` in a cell).
pub fn parse(text: String) -> Result<Markdown> {
    let all = lines(&text);
    let content = |l: &Line| text.get(l.start..l.content).unwrap_or_default();
    let mut blocks = Vec::new();
    let mut verbatim: Option<Range<usize>> = None;
    let mut section: Option<String> = None;
    let mut subsection: Option<String> = None;
    let mut header = Vec::new();
    let mut delimiter = Vec::new();
    let mut at = 0usize;
    while let Some(line) = all.get(at) {
        let next = all.get(at.saturating_add(1));
        header.clear();
        delimiter.clear();
        let candidate = next.is_some_and(|n| content(n).contains('|'))
            && split_cells(content(line), line.start, &mut header)
            && next.is_some_and(|n| split_cells(content(n), n.start, &mut delimiter));
        if let (true, Some(next)) = (candidate, next) {
            if is_delimiter(&text, &delimiter) && delimiter.len() == header.len() {
                if let Some(span) = verbatim.take() {
                    blocks.push(Block::Text(span));
                }
                let mut table = Table {
                    line: at.saturating_add(1),
                    section: section.clone(),
                    subsection: subsection.clone(),
                    columns: header
                        .iter()
                        .map(|s| cell_text(&text, s.clone()).into_owned())
                        .collect(),
                    header: line.start..line.end,
                    delimiter: next.start..next.end,
                    rows: Vec::new(),
                    cells: Vec::new(),
                };
                let mut end = at.saturating_add(2);
                while let Some(row) = all.get(end) {
                    let first = table.cells.len();
                    if !split_cells(content(row), row.start, &mut table.cells) {
                        break;
                    }
                    let count = table.cells.len().saturating_sub(first);
                    check_width(content(row), count, table.columns.len(), end)?;
                    table.rows.push(Row {
                        raw: row.start..row.end,
                        cells: first..table.cells.len(),
                    });
                    end = end.saturating_add(1);
                }
                blocks.push(Block::Table(table));
                at = end;
                continue;
            }
        }
        if let Some((level, title)) = heading(content(line)) {
            if level <= 2 {
                section = Some(title.to_owned());
                subsection = None;
            } else {
                subsection = Some(title.to_owned());
            }
        }
        verbatim = Some(verbatim.map_or(line.start, |v| v.start)..line.end);
        at = at.saturating_add(1);
    }
    if let Some(span) = verbatim {
        blocks.push(Block::Text(span));
    }
    Ok(Markdown { text, blocks })
}

/// Parses `index.md` text as a value: `{blocks: [{text} | {table: {...}}]}`
/// (docs/specify.md), the errors of [`parse`].
pub fn parse_markdown(text: &str) -> Result<Value> {
    let markdown = parse(text.to_owned())?;
    let text = markdown.text.as_str();
    let slice = |span: &Range<usize>| Value::from(text.get(span.clone()).unwrap_or_default());
    let blocks = markdown
        .blocks
        .iter()
        .map(|block| {
            let mut map = Map::with_capacity(1);
            match block {
                Block::Text(span) => map.push_distinct("text".into(), slice(span)),
                Block::Table(t) => map.push_distinct("table".into(), table_value(t, text, slice)),
            }
            Value::Object(map)
        })
        .collect();
    let mut doc = Map::new();
    doc.push_distinct("blocks".into(), Value::Array(blocks));
    Ok(Value::Object(doc))
}

/// A table as a value (`parse_markdown`'s form).
fn table_value(t: &Table, text: &str, slice: impl Fn(&Range<usize>) -> Value) -> Value {
    let name = |s: &Option<String>| s.as_deref().map_or(Value::Null, Value::from);
    let mut table = Map::with_capacity(7);
    table.push_distinct("line".into(), (t.line as u64).into());
    table.push_distinct("section".into(), name(&t.section));
    table.push_distinct("subsection".into(), name(&t.subsection));
    let columns = t.columns.iter().map(|c| Value::from(c.as_str())).collect();
    table.push_distinct("columns".into(), Value::Array(columns));
    table.push_distinct("header".into(), slice(&t.header));
    table.push_distinct("delimiter".into(), slice(&t.delimiter));
    let rows = (0..t.rows.len())
        .zip(&t.rows)
        .map(|(i, r)| {
            let mut row = Map::with_capacity(2);
            let cells = t.cells(text, i).map(|c| Value::from(c.as_ref())).collect();
            row.push_distinct("cells".into(), Value::Array(cells));
            row.push_distinct("raw".into(), slice(&r.raw));
            Value::Object(row)
        })
        .collect();
    table.push_distinct("rows".into(), Value::Array(rows));
    Value::Object(table)
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

/// What an index.md text lacks of the structure a finished save has (docs/locking.md § Files
/// people edit), or `None`: `"empty"` (nothing but white space), `"no_structure"` (no
/// heading and no table: not an index), `"torn_row"` (its last line, without a line break,
/// is a table row with fewer cells than its header: a save cut short), `"unterminated"`
/// (its last line has no line break). A text that does not parse is `None`: its own error
/// refuses it. Pure and total: any text gives an answer.
pub fn lacks(text: &str) -> Option<&'static str> {
    if text.trim().is_empty() {
        return Some("empty");
    }
    let markdown = parse(text.to_owned()).ok()?;
    let structured = markdown.blocks.iter().any(|block| match block {
        Block::Table(_) => true,
        Block::Text(span) => text
            .get(span.clone())
            .unwrap_or_default()
            .lines()
            .any(|line| heading(line).is_some()),
    });
    if !structured {
        return Some("no_structure");
    }
    if text.ends_with('\n') {
        return None;
    }
    if let Some(Block::Table(table)) = markdown.blocks.last() {
        let last = table.rows.len().checked_sub(1);
        let cells = last.map(|row| table.cells(text, row).count());
        // A header without its rows yet ends in its delimiter line: not a row cut short.
        if cells.is_some_and(|n| n < table.columns.len()) {
            return Some("torn_row");
        }
    }
    Some("unterminated")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells as `str::trim` and `str::split` read them (a pipe after a backslash kept).
    fn plain(line: &str) -> Vec<String> {
        let trimmed = line.trim();
        let mut cells: Vec<String> = Vec::new();
        let mut cell = String::new();
        let mut previous = '\0';
        for c in trimmed.chars() {
            if c == '|' && previous != '\\' {
                cells.push(std::mem::take(&mut cell));
            } else {
                cell.push(c);
            }
            previous = c;
        }
        cells.push(cell);
        if trimmed.starts_with('|') {
            cells.remove(0);
        }
        if ends_with_pipe(trimmed) {
            cells.pop();
        }
        cells.iter().map(|c| c.trim().replace("\\|", "|")).collect()
    }

    #[test]
    fn cells_are_trimmed_as_str_trim_does() {
        let lines = [
            "| a | b |",
            "|\u{a0}a\u{a0}|\u{3000}b\u{2003}|",
            "| \u{b}x\u{c} | y\t|",
            "| é | ✓ |",
            "a | b",
            "| `a \\| b` | c |",
            "|  |   |",
            "| \u{85}z\u{85} |",
        ];
        for line in lines {
            assert_eq!(row_cells(line), Some(plain(line)), "{line:?}");
        }
        assert_eq!(row_cells("no pipe"), None);
    }

    #[test]
    fn what_an_unfinished_save_lacks() {
        assert_eq!(super::lacks(""), Some("empty"));
        assert_eq!(super::lacks(" \n\t\n"), Some("empty"));
        assert_eq!(super::lacks("notes only\n"), Some("no_structure"));
        assert_eq!(super::lacks("# Title\n"), None);
        assert_eq!(super::lacks("# Title"), Some("unterminated"));
        let table = "# T\n\n| A | B |\n|---|---|\n| 1 | 2 |\n";
        assert_eq!(super::lacks(table), None);
        assert_eq!(super::lacks(&table[..table.len() - 5]), Some("torn_row"));
        assert_eq!(
            super::lacks(&table[..table.len() - 1]),
            Some("unterminated")
        );
        assert_eq!(super::lacks("| A | B |\n|---|---|"), Some("unterminated"));
    }
}
