//! The canonical writer: a document's text, 2-space indented or compact, written straight
//! into one buffer (no serde machinery). Byte for byte what serde_json writes for the same
//! `Value` (`core/tests/writer.rs` checks it on generated documents): `"`, `\` and control
//! characters escaped (`\b \f \n \r \t` short, others `\u00xx`), everything else as is;
//! numbers as their kept text. A tape (an update's merged document) is written by one pass
//! over its nodes ([`write_tape`]), to the same bytes (`core/tests/update_tape_properties.rs`
//! compares them on random documents).

use super::scan::{Kind, Node};
use super::Tape;
use crate::Value;

/// Appends the text of `value` to `out`: indented by two spaces per level when `pretty`.
pub(super) fn write(value: &Value, pretty: bool, out: &mut String) {
    Writer { out, pretty }.value(value, 0);
}

/// A size hint for the text of `value` (its top level only), to size the buffer once.
pub(super) fn capacity_hint(value: &Value) -> usize {
    match value {
        Value::Object(map) => map.len().saturating_mul(48).saturating_add(16),
        Value::Array(items) => items.len().saturating_mul(32).saturating_add(16),
        _ => 32,
    }
}

/// Appends the indented text of a tape's document to `out`: [`write`]'s bytes, from one pass
/// over the nodes. A plain string's text is written as it is (the scan made it plain only
/// when it holds nothing a JSON string escapes); a number's text as the tape reads it.
pub(super) fn write_tape(tape: &Tape<'_>, out: &mut String) {
    /// An open container: an object's members or an array's items left to write.
    struct Open {
        object: bool,
        left: u32,
        first: bool,
    }
    let mut writer = Writer { out, pretty: true };
    let mut open: Vec<Open> = Vec::new();
    let mut at = 0usize;
    loop {
        if let Some(top) = open.last_mut() {
            if top.left == 0 {
                let object = top.object;
                open.pop();
                writer.newline(open.len());
                writer.out.push(if object { '}' } else { ']' });
                if open.is_empty() {
                    return;
                }
                continue;
            }
            if !top.first {
                writer.out.push(',');
            }
            top.first = false;
            top.left = top.left.saturating_sub(1);
            let object = top.object;
            writer.newline(open.len());
            if object {
                let Some(&key) = tape.nodes.get(at) else {
                    return;
                };
                tape_string(tape, key, writer.out);
                writer.out.push_str(": ");
                at = at.saturating_add(1);
            }
        }
        let Some(&node) = tape.nodes.get(at) else {
            return;
        };
        at = at.saturating_add(1);
        match node.kind {
            Kind::Object | Kind::Array => {
                let object = node.kind == Kind::Object;
                if node.count == 0 {
                    writer.out.push_str(if object { "{}" } else { "[]" });
                } else {
                    writer.out.push(if object { '{' } else { '[' });
                    open.push(Open {
                        object,
                        left: node.count,
                        first: true,
                    });
                }
            }
            Kind::Plain | Kind::Escaped => tape_string(tape, node, writer.out),
            Kind::Number => {
                let text = tape
                    .text
                    .get(node.start as usize..node.end as usize)
                    .unwrap_or_default();
                let text = super::without_negative_zero(text);
                // Already as the tape reads it unless its exponent is `E` or has no sign.
                let canonical = text.find(['e', 'E']).is_none_or(|e| {
                    text.as_bytes().get(e) == Some(&b'e')
                        && matches!(text.as_bytes().get(e.saturating_add(1)), Some(b'+' | b'-'))
                });
                if canonical {
                    writer.out.push_str(text);
                } else {
                    writer
                        .out
                        .push_str(super::parser::canonical_number(text).as_str());
                }
            }
            Kind::True => writer.out.push_str("true"),
            Kind::False => writer.out.push_str("false"),
            Kind::Null => writer.out.push_str("null"),
        }
        if open.is_empty() {
            return;
        }
    }
}

/// A string node of a tape as JSON: a plain one's text as it is, an escaped one's decoded
/// text escaped.
fn tape_string(tape: &Tape<'_>, node: Node, out: &mut String) {
    let range = node.start as usize..node.end as usize;
    match node.kind {
        Kind::Plain => {
            out.push('"');
            out.push_str(tape.text.get(range).unwrap_or_default());
            out.push('"');
        }
        _ => string(tape.decoded.get(range).unwrap_or_default(), out),
    }
}

/// Spaces for the indentation of up to 32 levels at once.
const INDENT: &str = "                                                                ";

struct Writer<'o> {
    out: &'o mut String,
    pretty: bool,
}

impl Writer<'_> {
    fn value(&mut self, value: &Value, depth: usize) {
        match value {
            Value::Null => self.out.push_str("null"),
            Value::Bool(true) => self.out.push_str("true"),
            Value::Bool(false) => self.out.push_str("false"),
            Value::Number(n) => self.out.push_str(n.as_str()),
            Value::String(s) => string(s, self.out),
            Value::Array(items) => {
                if items.is_empty() {
                    self.out.push_str("[]");
                    return;
                }
                self.out.push('[');
                let inner = depth.saturating_add(1);
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.newline(inner);
                    self.value(item, inner);
                }
                self.newline(depth);
                self.out.push(']');
            }
            Value::Object(map) => {
                if map.is_empty() {
                    self.out.push_str("{}");
                    return;
                }
                self.out.push('{');
                let inner = depth.saturating_add(1);
                for (i, (key, item)) in map.iter().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.newline(inner);
                    string(key, self.out);
                    self.out.push_str(if self.pretty { ": " } else { ":" });
                    self.value(item, inner);
                }
                self.newline(depth);
                self.out.push('}');
            }
        }
    }

    /// A line break and the indentation of `depth` (nothing when compact).
    fn newline(&mut self, depth: usize) {
        if self.pretty {
            self.out.push('\n');
            let mut width = depth.saturating_mul(2);
            while width > 0 {
                let step = width.min(INDENT.len());
                self.out.push_str(INDENT.get(..step).unwrap_or_default());
                width = width.saturating_sub(step);
            }
        }
    }
}

/// What byte `b` becomes in a JSON string: 0 as is, `u` a `\u00xx` escape, else the letter
/// of its short escape.
const fn escape_of(b: u8) -> u8 {
    match b {
        0x08 => b'b',
        0x09 => b't',
        0x0a => b'n',
        0x0c => b'f',
        0x0d => b'r',
        0x00..=0x1f => b'u',
        b'"' => b'"',
        b'\\' => b'\\',
        _ => 0,
    }
}

/// [`escape_of`] of every byte, looked up once per byte.
static ESCAPE: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b: u8 = 0;
    loop {
        // In a constant, an index out of range stops the build: this cannot fail at run time.
        #[allow(clippy::indexing_slicing)]
        {
            table[b as usize] = escape_of(b);
        }
        if b == u8::MAX {
            break;
        }
        b = b.wrapping_add(1);
    }
    table
};

/// Appends `s` as a JSON string: runs of plain characters copied at once.
fn string(s: &str, out: &mut String) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut plain = 0;
    loop {
        let at = super::plain_end(bytes, plain);
        // `at` is the length or the index of an ASCII byte: both are character boundaries.
        out.push_str(s.get(plain..at).unwrap_or_default());
        let Some(&b) = bytes.get(at) else { break };
        plain = at.saturating_add(1);
        out.push('\\');
        let escape = ESCAPE.get(usize::from(b)).copied().unwrap_or(0);
        if escape == b'u' {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("u00");
            out.push(char::from(
                HEX.get(usize::from(b >> 4)).copied().unwrap_or(b'0'),
            ));
            out.push(char::from(
                HEX.get(usize::from(b & 0xf)).copied().unwrap_or(b'0'),
            ));
        } else {
            out.push(char::from(escape));
        }
    }
    out.push('"');
}

/// The compact JSON text (`{:#}`: the canonical, indented text without its final newline).
impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if f.alternate() {
            f.write_str(super::serialize(self).trim_end_matches('\n'))
        } else {
            f.write_str(&super::serialize_compact(self))
        }
    }
}
