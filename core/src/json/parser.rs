//! The strict RFC 8259 parser: positioned errors, the limits enforced while reading, duplicate
//! keys and lone surrogates refused, numbers kept as written.

use super::{check_depth, check_document_size, check_string_len, MAX_STRING_BYTES};
use crate::error::{child_path, Code, Error, Result};
use crate::{Map, Number, Str, Value};

/// Parses JSON text (UTF-8 bytes) into a document, preserving key order and exact numbers.
pub fn parse(bytes: &[u8]) -> Result<Value> {
    parse_as_written(bytes).map(|(value, _)| value)
}

/// [`parse`], and whether the document is the text's value as written: true unless a number
/// was read differently from its text (a negative zero, read as zero). When true, a host's own
/// JSON reader gives the same document from the same text (a leading BOM removed).
pub fn parse_as_written(bytes: &[u8]) -> Result<(Value, bool)> {
    check_document_size(bytes.len(), "the document")?;
    let start = if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        3
    } else {
        0
    };
    let mut parser = Parser {
        bytes,
        // Valid UTF-8 throughout (nearly always): strings are sliced from it without another
        // check. Otherwise each string is checked, which reports where the bad byte is.
        text: std::str::from_utf8(bytes).ok(),
        pos: start,
        allowance: 0,
        rewritten: false,
        max_string: MAX_STRING_BYTES,
    };
    let result = parser.document();
    result
        .map(|value| (value, !parser.rewritten))
        .map_err(|e| parser.locate(*e))
}

/// Parses the JSON text of an argument list (an array of documents, as a host sends a call's
/// arguments): each item within the limits of a document, the list itself not counted in the
/// depth, and the text at most four documents long.
pub fn parse_args(text: &str) -> Result<Value> {
    parse_argument_text(text, 1)
}

/// Parses the JSON text of one argument that may hold documents' texts (a job's answer with
/// the files a host read): held to the limits of an argument list's text
/// ([`parse_args`]), not to a document's.
pub fn parse_argument(text: &str) -> Result<Value> {
    parse_argument_text(text, 0)
}

/// [`parse_args`] and [`parse_argument`]: `allowance` levels not counted in the depth.
fn parse_argument_text(text: &str, allowance: usize) -> Result<Value> {
    let limit = super::MAX_ARGUMENT_STRING_BYTES;
    if text.len() > limit {
        return Err(Error::new(
            Code::Limit,
            "",
            format!(
                "the arguments are {} bytes; the limit is {limit} bytes",
                text.len()
            ),
        )
        .with_detail("limit", "document_bytes")
        .with_detail("max", limit as u64));
    }
    let mut parser = Parser {
        bytes: text.as_bytes(),
        text: Some(text),
        pos: 0,
        allowance,
        rewritten: false,
        max_string: super::MAX_ARGUMENT_STRING_BYTES,
    };
    let result = parser.document();
    result.map_err(|e| parser.locate(*e))
}

/// Parses the value that is all of `text` (whitespace around it allowed) as a member nested
/// `depth` levels deep in a document (its depth counted from there), or `None` when it is not
/// one. For a reader that takes the frame of a document in place and falls back to [`parse`]
/// of the whole document, which reports the error, when this declines.
pub(crate) fn parse_member(text: &str, depth: usize) -> Option<Value> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        text: Some(text),
        pos: 0,
        allowance: 0,
        rewritten: false,
        max_string: MAX_STRING_BYTES,
    };
    parser.skip_ws();
    let value = parser.value(depth).ok()?;
    parser.skip_ws();
    parser.peek().is_none().then_some(value)
}

/// Parses JSON text given as a string.
pub fn parse_str(text: &str) -> Result<Value> {
    parse(text.as_bytes())
}

/// A parse failure before its position is turned into line/column details.
struct Failure {
    error: Error,
    offset: usize,
}

/// Boxed: the error is large, and the result of every value passes through every level.
type Parsed<T> = std::result::Result<T, Box<Failure>>;

struct Parser<'a> {
    bytes: &'a [u8],
    /// The same bytes as text, when they are valid UTF-8.
    text: Option<&'a str>,
    pos: usize,
    /// Levels of nesting that do not count toward [`MAX_DEPTH`] (an argument list's array).
    allowance: usize,
    /// True once a number was read differently from its text (a negative zero).
    rewritten: bool,
    /// The most bytes of one string: a document's limit, or an argument list's (which may
    /// carry a whole document's text as a string).
    max_string: usize,
}

impl<'a> Parser<'a> {
    /// `E_LIMIT` for a string of `len` bytes over this parse's limit.
    fn check_len(&self, len: usize) -> Result<()> {
        if self.max_string == MAX_STRING_BYTES {
            check_string_len(len, "")
        } else {
            super::check_argument_string_len(len, "")
        }
    }

    fn fail(&self, code: Code, message: impl Into<String>) -> Box<Failure> {
        Box::new(Failure {
            error: Error::new(code, "", message),
            offset: self.pos,
        })
    }

    fn locate(&self, failure: Failure) -> Error {
        let offset = failure.offset.min(self.bytes.len());
        let before = self.bytes.get(..offset).unwrap_or_default();
        let line = before
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            .saturating_add(1);
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p.saturating_add(1));
        let column = String::from_utf8_lossy(before.get(line_start..).unwrap_or_default())
            .chars()
            .count()
            .saturating_add(1);
        let mut error = failure.error;
        error.message = format!("{} at line {line}, column {column}", error.message);
        error
            .with_detail("line", line as u64)
            .with_detail("column", column as u64)
            .with_detail("offset", offset as u64)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn bump(&mut self) {
        self.pos = self.pos.saturating_add(1);
    }

    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.bump();
        }
    }

    fn document(&mut self) -> Parsed<Value> {
        self.skip_ws();
        if self.peek().is_none() {
            return Err(self.fail(Code::Parse, "empty document: expected a JSON value"));
        }
        let value = self.value(0)?;
        self.skip_ws();
        if self.peek().is_some() {
            return Err(self.fail(
                Code::Parse,
                "unexpected data after the JSON value (only whitespace may follow)",
            ));
        }
        Ok(value)
    }

    fn value(&mut self, depth: usize) -> Parsed<Value> {
        match self.peek() {
            Some(b'{') => self.object(depth.saturating_add(1)),
            Some(b'[') => self.array(depth.saturating_add(1)),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(b't') => self.literal(b"true", Value::Bool(true)),
            Some(b'f') => self.literal(b"false", Value::Bool(false)),
            Some(b'n') => self.literal(b"null", Value::Null),
            Some(other) => Err(self.fail(
                Code::Parse,
                format!("unexpected {}: expected a JSON value", describe(other)),
            )),
            None => Err(self.fail(Code::Parse, "unexpected end of input: expected a value")),
        }
    }

    fn enter(&self, depth: usize) -> Parsed<()> {
        check_depth(depth.saturating_sub(self.allowance), "").map_err(|error| {
            Box::new(Failure {
                error,
                offset: self.pos,
            })
        })
    }

    fn object(&mut self, depth: usize) -> Parsed<Value> {
        self.enter(depth)?;
        self.bump(); // '{'
        let mut map = Map::new();
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.bump();
            return Ok(Value::Object(map));
        }
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                return Err(self.fail(Code::Parse, "expected a string key in double quotes"));
            }
            let key_offset = self.pos;
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.fail(Code::Parse, "expected ':' after the object key"));
            }
            self.bump();
            self.skip_ws();
            let value = self.value(depth).map_err(|f| prefix(f, &key))?;
            if let Err((key, _)) = map.insert_new(key, value) {
                return Err(Box::new(Failure {
                    error: Error::new(
                        Code::DuplicateKey,
                        child_path("", &key),
                        format!("duplicate key {key:?} in object; keep one of them"),
                    )
                    .with_detail("key", key),
                    offset: key_offset,
                }));
            }
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.bump(),
                Some(b'}') => {
                    self.bump();
                    return Ok(Value::Object(map));
                }
                _ => return Err(self.fail(Code::Parse, "expected ',' or '}' in object")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Parsed<Value> {
        self.enter(depth)?;
        self.bump(); // '['
        let mut items = Vec::new();
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.bump();
            return Ok(Value::Array(items));
        }
        loop {
            self.skip_ws();
            let index = items.len();
            items.push(
                self.value(depth)
                    .map_err(|f| prefix(f, &index.to_string()))?,
            );
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.bump(),
                Some(b']') => {
                    self.bump();
                    return Ok(Value::Array(items));
                }
                _ => return Err(self.fail(Code::Parse, "expected ',' or ']' in array")),
            }
        }
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Parsed<Value> {
        let end = self.pos.saturating_add(word.len());
        if self.bytes.get(self.pos..end) == Some(word) {
            self.pos = end;
            Ok(value)
        } else {
            Err(self.fail(
                Code::Parse,
                format!(
                    "invalid literal: expected `{}`",
                    String::from_utf8_lossy(word)
                ),
            ))
        }
    }

    fn digits(&mut self) -> usize {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.bump();
        }
        self.pos.saturating_sub(start)
    }

    fn number(&mut self) -> Parsed<Value> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.bump();
        }
        match self.peek() {
            Some(b'0') => {
                self.bump();
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.fail(Code::Parse, "numbers must not have leading zeros"));
                }
            }
            Some(b'1'..=b'9') => {
                self.digits();
            }
            _ => return Err(self.fail(Code::Parse, "invalid number: expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.bump();
            if self.digits() == 0 {
                return Err(self.fail(Code::Parse, "invalid number: expected a digit after '.'"));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.bump();
            if let Some(b'+' | b'-') = self.peek() {
                self.bump();
            }
            if self.digits() == 0 {
                return Err(self.fail(
                    Code::Parse,
                    "invalid number: expected a digit in the exponent",
                ));
            }
        }
        let text = self.bytes.get(start..self.pos).unwrap_or_default();
        self.check_len(text.len()).map_err(|error| Failure {
            error,
            offset: start,
        })?;
        let written = std::str::from_utf8(text).unwrap_or("0");
        let text = super::without_negative_zero(written);
        if text.len() != written.len() {
            self.rewritten = true;
        }
        Ok(Value::Number(canonical_number(text)))
    }

    /// Moves past the plain bytes of a string (not `"`, `\\` or a control character), eight
    /// at a time while none of the eight is special.
    fn skip_plain(&mut self) {
        self.pos = super::plain_end(self.bytes, self.pos);
    }

    fn string(&mut self) -> Parsed<Str> {
        self.bump(); // opening quote
        let start = self.pos;
        self.skip_plain();
        if self.peek() == Some(b'"') {
            // Fast path: no escapes, one UTF-8 check over the slice.
            let slice = self.bytes.get(start..self.pos).unwrap_or_default();
            self.check_len(slice.len()).map_err(|error| Failure {
                error,
                offset: start,
            })?;
            // Both ends are at ASCII quotes: character boundaries of valid text.
            if let Some(text) = self.text.and_then(|t| t.get(start..self.pos)) {
                self.bump();
                return Ok(Str::new(text));
            }
            let text = std::str::from_utf8(slice).map_err(|e| Failure {
                error: Error::new(Code::Parse, "", "invalid UTF-8 in string"),
                offset: start.saturating_add(e.valid_up_to()),
            })?;
            self.bump();
            return Ok(Str::new(text));
        }
        self.pos = start;
        let mut out: Vec<u8> = Vec::new();
        loop {
            let run_start = self.pos;
            self.skip_plain();
            out.extend_from_slice(self.bytes.get(run_start..self.pos).unwrap_or_default());
            if out.len() > self.max_string {
                return Err(Box::new(Failure {
                    error: self
                        .check_len(out.len())
                        .err()
                        .unwrap_or_else(|| Error::new(Code::Limit, "", "string too long")),
                    offset: run_start,
                }));
            }
            match self.peek() {
                Some(b'"') => {
                    self.bump();
                    return Str::from_utf8(&out).map_err(|e| {
                        let bad = run_start.saturating_add(e.valid_up_to());
                        Box::new(Failure {
                            error: Error::new(Code::Parse, "", "invalid UTF-8 in string"),
                            offset: bad.min(self.pos),
                        })
                    });
                }
                Some(b'\\') => {
                    self.bump();
                    self.escape(&mut out)?;
                }
                Some(_) => {
                    return Err(self.fail(
                        Code::Parse,
                        "control character in string: escape it (e.g. \\n, \\t, \\u0000)",
                    ))
                }
                None => return Err(self.fail(Code::Parse, "unterminated string")),
            }
        }
    }

    fn escape(&mut self, out: &mut Vec<u8>) -> Parsed<()> {
        let simple = match self.peek() {
            Some(b'"') => Some(b'"'),
            Some(b'\\') => Some(b'\\'),
            Some(b'/') => Some(b'/'),
            Some(b'b') => Some(0x08),
            Some(b'f') => Some(0x0c),
            Some(b'n') => Some(b'\n'),
            Some(b'r') => Some(b'\r'),
            Some(b't') => Some(b'\t'),
            Some(b'u') => None,
            _ => return Err(self.fail(Code::Parse, "invalid escape sequence in string")),
        };
        self.bump();
        if let Some(byte) = simple {
            out.push(byte);
            return Ok(());
        }
        let first = self.hex4()?;
        let code = if (0xD800..0xDC00).contains(&first) {
            if self.peek() != Some(b'\\')
                || self.bytes.get(self.pos.saturating_add(1)) != Some(&b'u')
            {
                return Err(self.fail(
                    Code::Parse,
                    "lone surrogate escape in string: a high surrogate must be followed by a low one",
                ));
            }
            self.pos = self.pos.saturating_add(2);
            let second = self.hex4()?;
            if !(0xDC00..0xE000).contains(&second) {
                return Err(self.fail(
                    Code::Parse,
                    "lone surrogate escape in string: expected a low surrogate",
                ));
            }
            let high = first.saturating_sub(0xD800);
            let low = second.saturating_sub(0xDC00);
            0x10000u32
                .saturating_add(high.saturating_mul(0x400))
                .saturating_add(low)
        } else if (0xDC00..0xE000).contains(&first) {
            return Err(self.fail(
                Code::Parse,
                "lone surrogate escape in string: a low surrogate without a high one",
            ));
        } else {
            first
        };
        let ch =
            char::from_u32(code).ok_or_else(|| self.fail(Code::Parse, "invalid unicode escape"))?;
        let mut buf = [0u8; 4];
        out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        Ok(())
    }

    fn hex4(&mut self) -> Parsed<u32> {
        let mut code = 0u32;
        for _ in 0..4 {
            let digit = match self.peek() {
                Some(b @ b'0'..=b'9') => b.saturating_sub(b'0'),
                Some(b @ b'a'..=b'f') => b.saturating_sub(b'a').saturating_add(10),
                Some(b @ b'A'..=b'F') => b.saturating_sub(b'A').saturating_add(10),
                _ => {
                    return Err(self.fail(Code::Parse, "invalid \\u escape: expected 4 hex digits"))
                }
            };
            code = code.saturating_mul(16).saturating_add(u32::from(digit));
            self.bump();
        }
        Ok(code)
    }
}

/// The number of a checked number literal: as written, except an exponent, written `e` with
/// an explicit sign (`1E5` → `1e+5`), one form for one value's notation.
pub(super) fn canonical_number(text: &str) -> Number {
    match text.find(['e', 'E']) {
        None => Number::from_canonical(text),
        Some(at) => {
            let (mantissa, exponent) = text.split_at(at);
            let digits = exponent.get(1..).unwrap_or_default();
            let sign = if digits.starts_with(['+', '-']) {
                ""
            } else {
                "+"
            };
            Number::from_canonical(&format!("{mantissa}e{sign}{digits}"))
        }
    }
}

/// Prefixes a failure's path with the token of the container member it happened in.
fn prefix(mut failure: Box<Failure>, token: &str) -> Box<Failure> {
    let tail = std::mem::take(&mut failure.error.path);
    let mut path = child_path("", token);
    path.push_str(&tail);
    failure.error.path = path;
    failure
}

fn describe(byte: u8) -> String {
    if byte.is_ascii_graphic() {
        format!("character '{}'", char::from(byte))
    } else {
        format!("byte 0x{byte:02x}")
    }
}

/// Parses a JSON number (exactly one, with the parser's rules); the error names what it is not.
impl std::str::FromStr for crate::Number {
    type Err = crate::Error;

    fn from_str(text: &str) -> crate::Result<crate::Number> {
        match super::parse_str(text)? {
            crate::Value::Number(n) => Ok(n),
            other => Err(crate::Error::new(
                crate::Code::Parse,
                "",
                format!("{} is not a JSON number", crate::value::type_name(&other)),
            )),
        }
    }
}
