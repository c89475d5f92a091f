//! An event line as the fold reads it ([`Event`]), in either of two forms: the generic tree
//! (a [`Map`], what a step builds and what the generic parser gives) or the replay's typed
//! line ([`Line`]), read in place from the bytes of a line in the one form statecore's steps
//! write (`{"timestamp":…,"type":…,"agent":…,"details":…}`, compact, nothing else). The fold
//! is written once, over [`Event`]; a line the typed reader does not take whole (another key
//! order, an `id`, an escape, spaces, anything odd) goes the generic way, which gives the
//! verdict and the error (docs/performance.md § The hive replay: typed lines, a typed
//! session, one fold).

use crate::error::Result;
use crate::json::{parse_member, plain_end};
use crate::time::is_timestamp;
use crate::value::Number;
use crate::{Map, Value};
use std::cell::{OnceCell, RefCell};

/// What the fold reads of an event line.
pub(super) trait Event {
    /// `type` (`""` when absent).
    fn kind(&self) -> &str;
    /// `timestamp` (`""` when absent).
    fn timestamp(&self) -> &str;
    /// `agent` (`""` when absent).
    fn agent(&self) -> &str;
    /// `details` (`null` when absent).
    fn details(&self) -> &Value;
    /// The worker a worker event names: `details.worker` when it is a string, else `agent`.
    fn worker(&self) -> &str {
        super::lines::worker_name(self.details(), self.agent())
    }
    /// A progress's fields ([`super::progress::progress_values`]: each object of `details`
    /// among `metrics` and `protocol_compliance`, empty ones left out; `None` when `details`
    /// is not an object). Asked once per line.
    fn progress(&self) -> Result<Option<Fields<'_>>> {
        super::progress::progress_values(self.details())
    }
}

pub(super) use super::progress::{Fields, Pairs};

/// `null`, for a line without `details`.
static NULL: Value = Value::Null;

/// The string field `key` of an event line (`""` when absent).
fn text<'a>(line: &'a Map, key: &str) -> &'a str {
    line.get(key).and_then(Value::as_str).unwrap_or("")
}

impl Event for Map {
    fn kind(&self) -> &str {
        text(self, "type")
    }
    fn timestamp(&self) -> &str {
        text(self, "timestamp")
    }
    fn agent(&self) -> &str {
        text(self, "agent")
    }
    fn details(&self) -> &Value {
        self.get("details").unwrap_or(&NULL)
    }
}

/// A line read in its typed form: the three strings borrowed from the line's bytes, `details`
/// read in place when it has a fixed shape (`{"worker":"…"}`, a heartbeat's, or a string, a
/// note's: the fold reads the worker or nothing, and a tree is made only if a rule asks for
/// one) and otherwise parsed (by the generic parser, one level deep). Only a line that is a
/// valid `hive.event` with no other field is read this way, so a replay needs no event check
/// and no id lookup for it.
#[derive(Debug)]
pub(super) struct Line<'a> {
    timestamp: &'a str,
    kind: &'a str,
    agent: &'a str,
    /// `details` read in place, when it has a fixed shape.
    fixed: Fixed<'a>,
    /// `details` as a tree: parsed at once, or made from [`Line::fixed`] when asked for.
    details: OnceCell<Value>,
    /// A progress's fields read in place ([`Fixed::Progress`]), until the fold takes them.
    fields: RefCell<Option<Fields<'a>>>,
}

/// The fixed shapes of `details` read in place.
#[derive(Debug, Clone, Copy)]
enum Fixed<'a> {
    /// `{"worker":"<name>"}`.
    Worker(&'a str),
    /// A string.
    Text(&'a str),
    /// A progress's `{"worker":"<name>","metrics":{…},"protocol_compliance":{…}}` (either
    /// object or both, in any order), each object's values whole numbers or booleans: the
    /// name, and the whole text of `details` (parsed only if a rule asks for the tree).
    Progress(&'a str, &'a str),
    /// Another shape (parsed).
    No,
}

impl Event for Line<'_> {
    fn kind(&self) -> &str {
        self.kind
    }
    fn timestamp(&self) -> &str {
        self.timestamp
    }
    fn agent(&self) -> &str {
        self.agent
    }
    fn details(&self) -> &Value {
        self.details.get_or_init(|| match self.fixed {
            Fixed::Worker(name) => {
                let mut map = Map::with_capacity(1);
                map.insert("worker".into(), name.into());
                Value::Object(map)
            }
            Fixed::Text(text) => text.into(),
            Fixed::Progress(_, body) => parse_member(body, 1).unwrap_or_default(),
            Fixed::No => Value::Null,
        })
    }
    fn worker(&self) -> &str {
        match self.fixed {
            Fixed::Worker(name) | Fixed::Progress(name, _) => name,
            Fixed::Text(_) => self.agent,
            Fixed::No => super::lines::worker_name(self.details(), self.agent),
        }
    }
    fn progress(&self) -> Result<Option<Fields<'_>>> {
        match self.fields.borrow_mut().take() {
            Some(fields) => Ok(Some(fields)),
            None => super::progress::progress_values(self.details()),
        }
    }
}

/// The longest line read in the typed form (a longer one goes the generic way).
const MOST: usize = 64 * 1024;

/// `line` in the typed form, or `None` to read it the generic way. Taken only when the
/// generic parser and the `hive.event` check would accept it and give the same fields: the
/// exact frame `{"timestamp":"…","type":"…","agent":"…","details":…}`, the three strings
/// without escapes or control characters, the timestamp an RFC 3339 one, `details` an
/// object, a list or a string that the parser reads whole at depth 1.
pub(super) fn read<'a>(line: &'a [u8], checked: &mut String) -> Option<Line<'a>> {
    if line.len() > MOST {
        return None;
    }
    // Checked once: every string below is a slice of it.
    let line = simdutf8::basic::from_utf8(line).ok()?;
    let rest = line.strip_prefix("{\"timestamp\":")?;
    let (timestamp, rest) = string(rest)?;
    let (kind, rest) = string(rest.strip_prefix(",\"type\":")?)?;
    let (agent, rest) = string(rest.strip_prefix(",\"agent\":")?)?;
    let body = rest.strip_prefix(",\"details\":")?.strip_suffix('}')?;
    if !matches!(body.as_bytes().first(), Some(b'{' | b'[' | b'"')) {
        return None;
    }
    let details = OnceCell::new();
    let fields = RefCell::new(None);
    let fixed = match fixed(body, &fields) {
        Fixed::No => {
            // At depth 1, as in the whole line: the depth limit holds exactly.
            details.set(parse_member(body, 1)?).ok()?;
            Fixed::No
        }
        fixed => fixed,
    };
    if !valid_time(timestamp, checked) {
        return None;
    }
    Some(Line {
        timestamp,
        kind,
        agent,
        fixed,
        details,
        fields,
    })
}

/// `details` in a fixed shape read in place (a string, `{"worker":…}` or a progress's, without
/// escapes, spaces or control characters: JSON the parser takes as it is, giving the same
/// values), or [`Fixed::No`]. A progress's fields go to `fields`.
fn fixed<'a>(body: &'a str, fields: &RefCell<Option<Fields<'a>>>) -> Fixed<'a> {
    if let Some((text, "")) = string(body) {
        return Fixed::Text(text);
    }
    let Some((name, rest)) = body.strip_prefix("{\"worker\":").and_then(string) else {
        return Fixed::No;
    };
    if rest == "}" {
        return Fixed::Worker(name);
    }
    match progress(rest) {
        Some(read) => {
            *fields.borrow_mut() = Some(read);
            Fixed::Progress(name, body)
        }
        None => Fixed::No,
    }
}

/// A progress's fields after its `"worker":"…"`: `,"metrics":{…}` and
/// `,"protocol_compliance":{…}`, each at most once, then the closing `}`; `None` for anything
/// else (another key, a key twice, a value of another kind: read the generic way). The keys
/// are borrowed from the line (no map, no key made per line).
fn progress(mut rest: &str) -> Option<Fields<'_>> {
    let mut fields = Fields::default();
    let mut seen = [false; 2];
    while rest != "}" {
        let (key, after) = string(rest.strip_prefix(',')?)?;
        let slot = match key {
            "metrics" => 0,
            "protocol_compliance" => 1,
            _ => return None,
        };
        if std::mem::replace(seen.get_mut(slot)?, true) {
            return None;
        }
        rest = flat_object(after.strip_prefix(':')?, fields.get_mut(slot)?)?;
    }
    Some(fields)
}

/// An object of whole numbers (digits, no leading zero) and booleans at the start of `text`,
/// as the parser reads it, into `pairs`, and what follows it; `None` for any other value or
/// a key twice.
fn flat_object<'a>(text: &'a str, pairs: &mut Pairs<'a>) -> Option<&'a str> {
    let mut rest = text.strip_prefix('{')?;
    if let Some(after) = rest.strip_prefix('}') {
        return Some(after);
    }
    loop {
        let (key, after) = string(rest)?;
        let (value, after) = scalar(after.strip_prefix(':')?)?;
        // A key twice is the parser's error (a short list: compared in place).
        if pairs.iter().any(|(k, _)| *k == key) {
            return None;
        }
        pairs.push((key, value));
        if let Some(after) = after.strip_prefix('}') {
            return Some(after);
        }
        rest = after.strip_prefix(',')?;
    }
}

/// The longest whole number read in place (its value exact on every host past this is a
/// matter for the parser and the checks, which the generic way gives).
const MOST_DIGITS: usize = 15;

/// A whole number or a boolean at the start of `text`, and what follows it.
fn scalar(text: &str) -> Option<(Value, &str)> {
    let bytes = text.as_bytes();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits > 0 {
        let leading_zero = digits > 1 && bytes.first() == Some(&b'0');
        let follows = bytes.get(digits);
        if leading_zero || digits > MOST_DIGITS || matches!(follows, Some(b'.' | b'e' | b'E')) {
            return None;
        }
        let (number, rest) = text.split_at_checked(digits)?;
        return Some((Value::Number(Number::from_canonical(number)), rest));
    }
    if let Some(rest) = text.strip_prefix("true") {
        return Some((Value::Bool(true), rest));
    }
    text.strip_prefix("false")
        .map(|rest| (Value::Bool(false), rest))
}

/// True when `time` is an RFC 3339 timestamp: without parsing it when it is in statecore's UTC
/// form (`YYYY-MM-DDTHH:MM:SS[.f…]Z`) and differs from the last one parsed (`checked`) only
/// in its seconds (00 to 59) and its fraction (digits), which no calendar refuses; otherwise
/// parsed, and kept in `checked` when it is one.
fn valid_time(time: &str, checked: &mut String) -> bool {
    let (t, c) = (time.as_bytes(), checked.as_bytes());
    let digits = |b: &[u8]| b.iter().all(u8::is_ascii_digit);
    let same_minute = t.len() == c.len()
        && t.len() >= 20
        && t.get(..17) == c.get(..17)
        && matches!(t.get(17), Some(b'0'..=b'5'))
        && t.get(18).is_some_and(u8::is_ascii_digit)
        && t.last() == Some(&b'Z')
        && c.last() == Some(&b'Z')
        && t.get(19) == c.get(19)
        && match t.get(19) {
            Some(b'Z') => t.len() == 20,
            Some(b'.') => t.len() > 21 && t.get(20..t.len().saturating_sub(1)).is_some_and(digits),
            _ => false,
        };
    if same_minute {
        return true;
    }
    if !is_timestamp(time) {
        return false;
    }
    checked.clear();
    checked.push_str(time);
    true
}

/// A JSON string without escapes or control characters at the start of `text`, and what
/// follows it.
fn string(text: &str) -> Option<(&str, &str)> {
    let rest = text.strip_prefix('"')?;
    // Eight bytes at a time, as the parser scans a string.
    let end = plain_end(rest.as_bytes(), 0);
    if rest.as_bytes().get(end) != Some(&b'"') {
        return None;
    }
    Some((rest.get(..end)?, rest.get(end.saturating_add(1)..)?))
}
