//! Logs read in pages (docs/cli.md § Logs read in pages): a log is asked for one page at a
//! time (4 MiB, cut at a line's end), so that a log of any size is read with bounded memory and
//! the host can show how far the work is. What a command found so far goes from one round to
//! the next in the answer's `carry`: a log's check ([`check_log`]), then, for `show` and
//! `log read`, the printing of its records ([`print_log`]), one page per round. A log that is
//! one page is read and checked in one round, as any file.

use super::host::{File, Host, Page};
use super::out::clean;
use statecore::checked::Checked;
use statecore::checked::LogCheck;
use statecore::kinds::LogFile;
use statecore::{json, jsonl, Map, Value};

/// The bytes of one page.
pub const PAGE_BYTES: u64 = 4 * 1024 * 1024;
/// The environment variable that sets smaller pages (1 byte to [`PAGE_BYTES`]): the tests read
/// small logs in many pages.
pub const PAGE_VAR: &str = "STATECORE_PAGE_BYTES";
/// The longest line a page is widened to: the longest text a host hands the core.
const MAX_LINE: u64 = json::MAX_STRING_BYTES as u64;

/// The page size: `Some(Err)` is the usage error of a bad `STATECORE_PAGE_BYTES`; `None`
/// while the variable is asked for.
pub fn page_bytes(host: &mut Host<'_>) -> Option<Result<u64, String>> {
    Some(match host.var(PAGE_VAR)? {
        None => Ok(PAGE_BYTES),
        Some(text) => match text.parse::<u64>() {
            Ok(n) if (1..=PAGE_BYTES).contains(&n) => Ok(n),
            _ => Err(format!(
                "{PAGE_VAR} is {:?}: it must be a whole number of bytes from 1 to {PAGE_BYTES}",
                clean(text)
            )),
        },
    })
}

/// What a log is read as.
#[derive(Debug, Clone, Copy)]
pub struct LogRead<'a> {
    /// The path to read.
    pub path: &'a str,
    /// The path as messages show it.
    pub shown: &'a str,
    /// The kind of its records (`None`: any JSON, only read).
    pub kind: Option<&'static str>,
    /// The log it is known as (replayed too).
    pub known: Option<LogFile>,
    /// Whether to keep its records in the check (a log that is one page).
    pub keep: bool,
}

/// Where a reading of a log in pages is.
struct Place {
    offset: u64,
    limit: u64,
}

impl Place {
    fn of(entry: &Value, page: u64) -> Place {
        let number = |key: &str| entry.get(key).and_then(Value::as_u64);
        Place {
            offset: number("offset").unwrap_or(0),
            limit: number("limit").unwrap_or(page),
        }
    }

    fn with(self, entry: &mut Map) {
        entry.insert("offset".into(), Value::from(self.offset));
        entry.insert("limit".into(), Value::from(self.limit));
    }
}

/// The log `log` checked, page by page: `Some` once it is (or could not be read), `None`
/// while a page is asked for. `turn`: whether this log may ask for a page after its first
/// (one log reads on at a time; it is set to false once one does).
pub fn check_log<'f>(
    host: &mut Host<'f>,
    log: LogRead<'_>,
    page: u64,
    turn: &mut bool,
) -> Option<Result<Checked, File<'f>>> {
    let name = format!("check {}", log.path);
    // Where the check is: a carried one (done, or going on from its place), else a new one.
    let carried = host.carried(&name).cloned().unwrap_or(Value::Null);
    let (mut check, place) = match carried.get("check").and_then(LogCheck::resume) {
        Some(check) if carried.get("done").is_some() => {
            host.carry(&name, carried);
            return Some(Ok(check.into_checked(log.shown, None)));
        }
        Some(check) => (check, Place::of(&carried, page)),
        None => (
            LogCheck::new(log.shown, log.kind, log.known),
            Place::of(&Value::Null, page),
        ),
    };
    let keep_going = |host: &mut Host<'_>, check: &LogCheck, place: Place| {
        let mut entry = Map::new();
        entry.insert("check".into(), check.carry());
        place.with(&mut entry);
        host.carry(&name, Value::Object(entry));
    };
    if place.offset > 0 && !*turn {
        keep_going(host, &check, place);
        return None;
    }
    let Some(read) = host.page(log.path, place.offset, place.limit) else {
        if place.offset > 0 {
            *turn = false;
            keep_going(host, &check, place);
        }
        return None;
    };
    let read = match read {
        Ok(read) => read,
        Err(file) => return Some(Err(file)),
    };
    let next = match advance(&read, place.limit, page) {
        Step::Widen(limit) if limit > MAX_LINE => {
            check.fail(
                "E_LIMIT",
                format!(
                    "line {} is longer than {MAX_LINE} bytes, the longest line the command line reads",
                    check.next_line()
                ),
            );
            None
        }
        Step::Widen(limit) => Some(Place {
            offset: place.offset,
            limit,
        }),
        Step::Next(next) => {
            let mut records = Vec::new();
            let keep = (log.keep && place.offset == 0 && read.last).then_some(&mut records);
            let kept = keep.is_some();
            check.part(read.text, read.last, keep);
            if read.last && place.offset == 0 {
                // One page: checked in this round, as any file.
                return Some(Ok(check.into_checked(log.shown, kept.then_some(records))));
            }
            next.filter(|_| !check.ended())
        }
    };
    let Some(next) = next else {
        let mut entry = Map::new();
        entry.insert("check".into(), check.carry());
        entry.insert("done".into(), Value::Bool(true));
        host.carry(&name, Value::Object(entry));
        return Some(Ok(check.into_checked(log.shown, None)));
    };
    if !*turn {
        keep_going(host, &check, next);
        return None;
    }
    *turn = false;
    host.progress(progress("checking", log.shown, next.offset, read.size));
    let asked = host.page(log.path, next.offset, next.limit);
    keep_going(host, &check, next);
    debug_assert!(asked.is_none());
    None
}

/// What comes after a page.
enum Step {
    /// The page held no whole line: read again from the same place with this limit.
    Widen(u64),
    /// The page was read: the next one's place, if the file goes on.
    Next(Option<Place>),
}

/// What comes after `read`, read with `limit` (pages of `page` bytes).
fn advance(read: &Page<'_>, limit: u64, page: u64) -> Step {
    if read.last {
        return Step::Next(None);
    }
    if read.text.is_empty() {
        return Step::Widen(limit.saturating_mul(2));
    }
    Step::Next(Some(Place {
        offset: read.offset.saturating_add(read.text.len() as u64),
        limit: page,
    }))
}

/// A page of records to print.
pub struct Printed {
    /// True when it is the log's first page.
    pub first: bool,
    /// Its records.
    pub records: Vec<Value>,
    /// How many records the pages before it held.
    pub before: u64,
    /// True when it is the log's last page.
    pub last: bool,
}

/// The records of the log at `path` (checked before, in pages), one page per round: `None`
/// while a page is asked for; `Err` when the file changed while it was read (a line that no
/// longer reads).
pub fn print_log(
    host: &mut Host<'_>,
    path: &str,
    shown: &str,
    page: u64,
) -> Option<Result<Printed, String>> {
    let name = format!("print {path}");
    let entry = host.carried(&name).cloned().unwrap_or(Value::Null);
    let place = Place::of(&entry, page);
    let number = |key: &str| entry.get(key).and_then(Value::as_u64).unwrap_or(0);
    let (line, before) = (number("line"), number("before"));
    let keep = |host: &mut Host<'_>, place: Place, line: u64, before: u64| {
        let mut map = Map::new();
        place.with(&mut map);
        map.insert("line".into(), Value::from(line));
        map.insert("before".into(), Value::from(before));
        host.carry(&name, Value::Object(map));
    };
    let Some(read) = host.page(path, place.offset, place.limit) else {
        keep(host, place, line, before);
        return None;
    };
    let changed = || {
        format!(
            "{}: changed while it was read; run the command again",
            clean(shown)
        )
    };
    let Ok(read) = read else {
        return Some(Err(changed()));
    };
    let next = match advance(&read, place.limit, page) {
        Step::Widen(limit) => {
            let again = Place {
                offset: place.offset,
                limit,
            };
            let _ = host.page(path, again.offset, again.limit);
            keep(host, again, line, before);
            return None;
        }
        Step::Next(next) => next,
    };
    let first = usize::try_from(line.saturating_add(1)).unwrap_or(usize::MAX);
    let Ok(parsed) = jsonl::parse_log_from(read.text.as_bytes(), first) else {
        return Some(Err(changed()));
    };
    let count = parsed.records.len() as u64;
    let first = place.offset == 0;
    if let Some(next) = next {
        host.progress(progress("printing", shown, next.offset, read.size));
        let _ = host.page(path, next.offset, next.limit);
        let lines = read.text.bytes().filter(|&b| b == b'\n').count() as u64;
        keep(
            host,
            next,
            line.saturating_add(lines),
            before.saturating_add(count),
        );
    }
    Some(Ok(Printed {
        first,
        records: parsed.records,
        before,
        last: read.last,
    }))
}

/// A progress line: `checking PATH: 45% (31.2 of 69.1 MB)`.
fn progress(doing: &str, shown: &str, done: u64, size: u64) -> String {
    let percent = done
        .saturating_mul(100)
        .checked_div(size)
        .unwrap_or(100)
        .min(100);
    let mb = |bytes: u64| format!("{}.{}", bytes / 1_000_000, bytes % 1_000_000 / 100_000);
    format!(
        "{doing} {}: {percent}% ({} of {} MB)",
        clean(shown),
        mb(done),
        mb(size)
    )
}

/// The text of `record` as an element of a canonical JSON array nested `depth` levels deep
/// (its lines indented by two spaces a level), without a line break after it.
pub fn element(record: &Value, depth: usize) -> String {
    let indent = "  ".repeat(depth);
    let text = json::serialize(record);
    let mut out = String::with_capacity(text.len().saturating_add(64));
    for (n, line) in text.trim_end_matches('\n').split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        out.push_str(&indent);
        out.push_str(line);
    }
    out
}

/// A page of records as elements of a canonical JSON array nested `depth` levels deep: `[`
/// before the first record, `,` between two; after the last page, the array's end (`[]` when
/// it has none).
pub fn array_part(printed: &Printed, depth: usize) -> String {
    let mut out = String::new();
    for (n, record) in printed.records.iter().enumerate() {
        out.push_str(if printed.before == 0 && n == 0 {
            "[\n"
        } else {
            ",\n"
        });
        out.push_str(&element(record, depth));
    }
    if printed.last {
        if printed.before == 0 && printed.records.is_empty() {
            out.push_str("[]");
        } else {
            out.push('\n');
            out.push_str(&"  ".repeat(depth.saturating_sub(1)));
            out.push(']');
        }
    }
    out
}
