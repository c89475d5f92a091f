//! JSON documents: a strict RFC 8259 parser with positioned errors and explicit limits, and
//! the canonical serializer (docs/conventions.md § Documents).
//!
//! Choices (documented in `docs/merge.md` § Documents):
//! - Duplicate keys are rejected (`E_DUPLICATE_KEY`): a validator must not guess which wins.
//! - A leading UTF-8 byte-order mark is skipped; output never has one.
//! - Numbers keep their digits (`1.0`, `-0`, `12345678901234567890` stay as written); an
//!   exponent is written `e` with an explicit sign (`1E5` → `1e+5`).
//! - Lone surrogate escapes (`"\ud800"`) are rejected: they cannot be stored as UTF-8.
//! - Limits: [`MAX_DEPTH`], [`MAX_DOCUMENT_BYTES`], [`MAX_STRING_BYTES`], each `E_LIMIT`.

mod float_text;
mod locate;
mod numbers;
mod parser;
mod scan;
mod splice;
mod tape;
mod writer;

pub use locate::{line_column, locate};
pub use numbers::keep_number_texts;
pub(crate) use parser::parse_member;
pub use parser::{parse, parse_args, parse_argument, parse_as_written, parse_str};
pub(crate) use splice::{Room, Splice};
pub use tape::{Tape, TapeValue, Token, Tokens};

use crate::error::{child_path, Code, Error, Result};
use crate::value::{Json, JsonKind};
use crate::{Number, Value};

/// Maximum nesting depth of arrays and objects. `[]` has depth 1; depth 128 is accepted,
/// depth 129 is `E_LIMIT`.
pub const MAX_DEPTH: usize = 128;
/// Maximum size of a document's text, in bytes (32 MiB).
pub const MAX_DOCUMENT_BYTES: usize = 32 * 1024 * 1024;
/// Maximum length of one string (key or value) after unescaping, in UTF-8 bytes (16 MiB).
pub const MAX_STRING_BYTES: usize = 16 * 1024 * 1024;
/// The largest integer every host represents exactly (2^53 − 1, `Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: u64 = 9_007_199_254_740_991;

/// Canonical text of a document: 2-space indent, `\n` line ends, a trailing newline, UTF-8,
/// no BOM. The same document always gives the same bytes.
pub fn serialize(value: &Value) -> String {
    let mut out = String::with_capacity(writer::capacity_hint(value));
    writer::write(value, true, &mut out);
    out.push('\n');
    out
}

/// [`serialize`] of a tape's document (the same bytes for the same document), from one pass over its nodes, into a buffer of
/// `capacity` bytes to start with (an update's new text is about as long as the file's).
pub fn serialize_tape(tape: &Tape<'_>, capacity: usize) -> String {
    let mut out = String::with_capacity(capacity);
    writer::write_tape(tape, &mut out);
    out.push('\n');
    out
}

/// Compact one-line text of a document (no newline), as used for JSONL log lines.
pub fn serialize_compact(value: &Value) -> String {
    let mut out = String::with_capacity(writer::capacity_hint(value));
    writer::write(value, false, &mut out);
    out
}

/// The end of the run of plain string bytes of `bytes` from `from`: the index of the first `"`,
/// `\` or control character (what a JSON string escapes, and where the parser stops), or the
/// length. Eight bytes at a time while none of the eight is one.
pub(crate) fn plain_end(bytes: &[u8], mut from: usize) -> usize {
    while let Some(chunk) = bytes
        .get(from..from.saturating_add(8))
        .and_then(|c| <[u8; 8]>::try_from(c).ok())
    {
        let marks = special(u64::from_le_bytes(chunk));
        if marks != 0 {
            return from.saturating_add((marks.trailing_zeros() / 8) as usize);
        }
        from = from.saturating_add(8);
    }
    while let Some(&b) = bytes.get(from) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        from = from.saturating_add(1);
    }
    from
}

/// The bytes of `x` (eight of the text) that end a run of plain string bytes: `"`, `\` or a
/// control character, each marked by its high bit. Bytes above the first marked one may be
/// marked wrongly (a borrow), so only the lowest mark is used.
fn special(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_bytes = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    (x.wrapping_sub(ONES.wrapping_mul(0x20)) & !x & HIGHS)
        | zero_bytes(x ^ ONES.wrapping_mul(u64::from(b'"')))
        | zero_bytes(x ^ ONES.wrapping_mul(u64::from(b'\\')))
}

/// The entity tag of a file's bytes: their 128-bit XXH3 hash as 32 hex digits. It detects
/// any change between a read and a write (compare-and-swap); it is not a security hash.
pub fn etag(bytes: &[u8]) -> String {
    format!("{:032x}", xxhash_rust::xxh3::xxh3_128(bytes))
}

/// Checks that every number in `value` can be held exactly by a JavaScript number: an
/// integer that is a double written out in full or in its shortest form (every integer within
/// ±(2^53 − 1), `100000000000000000000`, `1152921504606847000`), or a finite float. Otherwise `E_PRECISION` with the path
/// of the first offending number: a host that cannot keep it exactly must refuse, not round.
pub fn check_js_safe<'a, J: Json<'a>>(value: J) -> Result<()> {
    check_numbers(value, &is_js_safe)
}

/// Checks that every float keeps its value as a 64-bit float, neither overflowing nor
/// underflowing to zero (integers of any size pass): what a Python host needs (`int` is exact,
/// `float` is f64). Otherwise `E_PRECISION`.
pub fn check_float_range<'a, J: Json<'a>>(value: J) -> Result<()> {
    check_numbers(value, &|n: &Number| {
        is_integer_text(n.as_str()) || is_float_kept(n)
    })
}

/// A number's text without the sign of a negative zero (`-0` → `0`, `-0.0e3` → `0.0e3`):
/// JSON gives `-0` no meaning of its own and a JavaScript host cannot write it back, so every
/// surface reads it as zero (docs/api.md § Host values).
pub fn without_negative_zero(text: &str) -> &str {
    match text.strip_prefix('-') {
        Some(rest) if mantissa(rest).bytes().all(|b| b == b'0' || b == b'.') => rest,
        _ => text,
    }
}

/// A host's double as a JSON number, read as the parser reads text: negative zero is zero;
/// `None` for NaN and ±infinity, which JSON cannot hold.
pub fn float_number(f: f64) -> Option<Number> {
    Number::from_f64(if f == 0.0 { 0.0 } else { f })
}

/// The digits of a number's text before its exponent.
fn mantissa(text: &str) -> &str {
    text.split(['e', 'E']).next().unwrap_or(text)
}

/// True when a float's text reads as a finite double that keeps its value: not beyond the
/// double range (`1e400`), and not a non-zero number that rounds to zero (`1e-400`). Both
/// are `E_PRECISION`: a host must refuse, not change, a number.
fn is_float_kept(n: &Number) -> bool {
    n.as_f64().is_some_and(|f| keeps_value(n.as_str(), f))
}

/// True when `f`, the double read from the number text `text`, keeps its value: finite, and
/// zero only when the text is a zero (the rule of [`check_float_range`], for a host that has
/// already read the double).
pub fn keeps_value(text: &str, f: f64) -> bool {
    f.is_finite() && (f != 0.0 || mantissa(text).bytes().all(|b| !(b'1'..=b'9').contains(&b)))
}

/// An error found in a result that carries a document (`{document, etag, ...}`) points into
/// the document, as the same error from `parse` does: the `/document` prefix is dropped.
pub fn document_relative(result: &Value, mut error: Error) -> Error {
    if result.get("document").is_some() {
        if let Some(rest) = error.path.strip_prefix("/document") {
            if rest.is_empty() || rest.starts_with('/') {
                error.path = rest.to_owned();
            }
        }
    }
    error
}

/// True when the number's text is an integer literal (no fraction, no exponent).
pub fn is_integer_text(text: &str) -> bool {
    !text.contains(['.', 'e', 'E'])
}

fn is_js_safe(n: &Number) -> bool {
    let text = n.as_str();
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.len() <= 15 && digits.bytes().all(|b| b.is_ascii_digit()) {
        return true; // an integer below 10^15 < 2^53: always exact (the common case, first)
    }
    if !is_integer_text(text) {
        return is_float_kept(n);
    }
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.len() <= 15 {
        return true; // below 10^15 < 2^53: always exact
    }
    // Safe when the nearest double, written out in full (`{:.0}`) or in its shortest form
    // (`{}`, what JavaScript writes: 2^60 is `1152921504606847000`), is this text (both
    // written without Rust's float formatting: `float_text`).
    crate::value::float::parse_f64(text).is_some_and(|f| {
        float_text::exact_whole(f).is_some_and(|t| t == text)
            || float_text::shortest_whole(f).is_some_and(|t| t == text)
    })
}

/// For a host that reads integers no double holds as big integers (JS `BigInt`): the pointer
/// and the text of each such integer, in document order (none: the fast check passed). A
/// float the host's double cannot keep is still `E_PRECISION`.
pub fn big_integers<'a, J: Json<'a>>(value: J) -> Result<Vec<(String, String)>> {
    if check_js_safe(value).is_ok() {
        return Ok(Vec::new());
    }
    check_numbers(value, &|n: &Number| {
        is_integer_text(n.as_str()) || is_js_safe(n)
    })?;
    fn collect<'a, J: Json<'a>>(value: J, at: &str, found: &mut Vec<(String, String)>) {
        match value.kind() {
            JsonKind::Number => {
                if let Some(n) = value.number().filter(|n| !is_js_safe(n)) {
                    found.push((at.to_owned(), n.as_str().to_owned()));
                }
            }
            JsonKind::Array => {
                for (i, item) in value.items().enumerate() {
                    collect(item, &child_path(at, &i.to_string()), found);
                }
            }
            JsonKind::Object => {
                for (key, item) in value.members() {
                    collect(item, &child_path(at, key), found);
                }
            }
            _ => {}
        }
    }
    let mut found = Vec::new();
    collect(value, "", &mut found);
    Ok(found)
}

/// True when every number of `value` passes `ok` (a walk that tracks no path).
fn all_numbers<'a, J: Json<'a>>(value: J, ok: &dyn Fn(&Number) -> bool) -> bool {
    if let Some(pass) = value.numbers_pass(ok) {
        return pass;
    }
    match value.kind() {
        JsonKind::Number => value.number().is_some_and(|n| ok(&n)),
        JsonKind::Array => value.items().all(|item| all_numbers(item, ok)),
        JsonKind::Object => value.members().all(|(_, item)| all_numbers(item, ok)),
        _ => true,
    }
}

/// Walks the numbers of `value`; the path is built only for the one that fails (a second
/// walk, which tracks it, finds it).
fn check_numbers<'a, J: Json<'a>>(value: J, ok: &dyn Fn(&Number) -> bool) -> Result<()> {
    if all_numbers(value, ok) {
        return Ok(());
    }
    fn find<'a, J: Json<'a>>(
        value: J,
        ok: &dyn Fn(&Number) -> bool,
        path: &mut Vec<Segment<'a>>,
    ) -> Option<Number> {
        match value.kind() {
            JsonKind::Number => value.number().filter(|n| !ok(n)).map(|n| n.into_owned()),
            JsonKind::Array => value.items().enumerate().find_map(|(i, item)| {
                path.push(Segment::Index(i));
                let found = find(item, ok, path);
                if found.is_none() {
                    path.pop();
                }
                found
            }),
            JsonKind::Object => value.members().find_map(|(k, v)| {
                path.push(Segment::Key(k));
                let found = find(v, ok, path);
                if found.is_none() {
                    path.pop();
                }
                found
            }),
            _ => None,
        }
    }
    let mut path = Vec::new();
    match find(value, ok, &mut path) {
        None => Ok(()),
        Some(n) => Err(Error::new(
            Code::Precision,
            pointer(&path),
            format!(
                "the number {} cannot be represented exactly by this host; \
                 use the text API to keep it, or store it as a string",
                n.as_str()
            ),
        )
        .with_detail("number", n.as_str())),
    }
}

/// One step of a path being walked; turned into a JSON pointer only when an error needs it.
enum Segment<'a> {
    Key(&'a str),
    Index(usize),
}

fn pointer(path: &[Segment<'_>]) -> String {
    path.iter().fold(String::new(), |acc, seg| match seg {
        Segment::Key(k) => child_path(&acc, k),
        Segment::Index(i) => child_path(&acc, &i.to_string()),
    })
}

/// Checks a value built by a host against the limits: depth and string length.
pub fn check_limits(value: &Value) -> Result<()> {
    /// True when `value`, at `depth`, is within the limits (a first walk that keeps no path:
    /// nearly every value is).
    fn within(value: &Value, depth: usize) -> bool {
        let deeper = depth.saturating_add(1);
        match value {
            Value::String(s) => s.len() <= MAX_STRING_BYTES,
            Value::Array(items) => depth < MAX_DEPTH && items.iter().all(|v| within(v, deeper)),
            Value::Object(map) => {
                depth < MAX_DEPTH
                    && map
                        .iter()
                        .all(|(k, v)| k.len() <= MAX_STRING_BYTES && within(v, deeper))
            }
            _ => true,
        }
    }
    fn walk<'v>(value: &'v Value, path: &mut Vec<Segment<'v>>) -> Result<()> {
        let here = |path: &[Segment<'_>]| pointer(path);
        match value {
            Value::String(s) if s.len() > MAX_STRING_BYTES => {
                check_string_len(s.len(), &here(path))
            }
            Value::Array(items) => {
                if path.len() >= MAX_DEPTH {
                    return check_depth(path.len().saturating_add(1), &here(path));
                }
                for (i, item) in items.iter().enumerate() {
                    path.push(Segment::Index(i));
                    walk(item, path)?;
                    path.pop();
                }
                Ok(())
            }
            Value::Object(map) => {
                if path.len() >= MAX_DEPTH {
                    return check_depth(path.len().saturating_add(1), &here(path));
                }
                for (k, v) in map {
                    path.push(Segment::Key(k));
                    if k.len() > MAX_STRING_BYTES {
                        return check_string_len(k.len(), &here(path));
                    }
                    walk(v, path)?;
                    path.pop();
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }
    if within(value, 0) {
        return Ok(());
    }
    walk(value, &mut Vec::new())
}

/// `E_LIMIT` when `depth` exceeds [`MAX_DEPTH`].
pub fn check_depth(depth: usize, path: &str) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::new(
            Code::Limit,
            path,
            format!("nesting depth exceeds the limit of {MAX_DEPTH} levels"),
        )
        .with_detail("limit", "depth")
        .with_detail("max", MAX_DEPTH as u64));
    }
    Ok(())
}

/// `E_LIMIT` when `what` (`"document"`, `"the new document"`, `"a log line"`) of `len` bytes
/// exceeds [`MAX_DOCUMENT_BYTES`]: the one size rule of readers and writers, so a writer never
/// creates what a reader refuses. A host reads at most the limit + 1 bytes, so a larger file
/// is reported as "more than" the limit.
pub fn check_document_size(len: usize, what: &str) -> Result<()> {
    if len <= MAX_DOCUMENT_BYTES {
        return Ok(());
    }
    let size = if len == MAX_DOCUMENT_BYTES.saturating_add(1) {
        "more than the limit".to_owned()
    } else {
        format!("{len} bytes")
    };
    Err(Error::new(
        Code::Limit,
        "",
        format!("{what} is {size}; the limit is {MAX_DOCUMENT_BYTES} bytes"),
    )
    .with_detail("limit", "document_bytes")
    .with_detail("max", MAX_DOCUMENT_BYTES as u64))
}

/// `E_LIMIT` when a string of `len` bytes exceeds [`MAX_STRING_BYTES`].
pub fn check_string_len(len: usize, path: &str) -> Result<()> {
    check_string_len_within(len, path, MAX_STRING_BYTES)
}

/// The most bytes of one string in an operation's arguments, the bound of all of them
/// (`parse_args`): a string may be a whole file's text (the command line's request carries
/// each file it read as a string), which the core then parses as a document and refuses, when
/// it is over [`MAX_DOCUMENT_BYTES`], naming the file and that limit. A document given as an
/// argument is still held to [`MAX_STRING_BYTES`] for each of its strings when the operation
/// binds it (`check_limits`).
pub const MAX_ARGUMENT_STRING_BYTES: usize = MAX_DOCUMENT_BYTES.saturating_mul(4);

/// `E_LIMIT` when a string of `len` bytes in an operation's arguments exceeds
/// [`MAX_ARGUMENT_STRING_BYTES`] (the document limit, which the message names).
pub fn check_argument_string_len(len: usize, path: &str) -> Result<()> {
    check_string_len_within(len, path, MAX_ARGUMENT_STRING_BYTES)
}

/// `E_LIMIT` when a string of `len` bytes exceeds `max`.
fn check_string_len_within(len: usize, path: &str, max: usize) -> Result<()> {
    if len > max {
        let what = if max == MAX_STRING_BYTES {
            "string_bytes"
        } else {
            "document_bytes"
        };
        return Err(Error::new(
            Code::Limit,
            path,
            format!("string of {len} bytes exceeds the limit of {max} bytes"),
        )
        .with_detail("limit", what)
        .with_detail("max", max as u64));
    }
    Ok(())
}
