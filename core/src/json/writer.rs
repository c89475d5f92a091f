//! The canonical writer: a document's text, 2-space indented or compact, written straight
//! into one buffer (no serde machinery). Byte for byte what serde_json writes for the same
//! `Value` (`core/tests/writer.rs` checks it on generated documents): `"`, `\` and control
//! characters escaped (`\b \f \n \r \t` short, others `\u00xx`), everything else as is;
//! numbers as their kept text. Written once over [`Json`], so a tree and a read text (a tape,
//! or an update's merged tape) are written by the same code.

use crate::value::{Json, JsonKind};

/// Appends the text of `value` to `out`: indented by two spaces per level when `pretty`.
pub(super) fn write<'a, J: Json<'a>>(value: J, pretty: bool, out: &mut String) {
    Writer { out, pretty }.value(value, 0);
}

/// A size hint for the text of `value` (its top level only), to size the buffer once.
pub(super) fn capacity_hint<'a, J: Json<'a>>(value: J) -> usize {
    match value.kind() {
        JsonKind::Object => value.len().saturating_mul(48).saturating_add(16),
        JsonKind::Array => value.len().saturating_mul(32).saturating_add(16),
        _ => 32,
    }
}

/// Spaces for the indentation of up to 32 levels at once.
const INDENT: &str = "                                                                ";

struct Writer<'o> {
    out: &'o mut String,
    pretty: bool,
}

impl Writer<'_> {
    fn value<'a, J: Json<'a>>(&mut self, value: J, depth: usize) {
        match value.kind() {
            JsonKind::Null => self.out.push_str("null"),
            JsonKind::Bool => self.out.push_str(if value.as_bool().unwrap_or_default() {
                "true"
            } else {
                "false"
            }),
            JsonKind::Number => {
                if let Some(n) = value.number() {
                    self.out.push_str(n.as_str());
                }
            }
            JsonKind::String => string(value.as_str().unwrap_or_default(), self.out),
            JsonKind::Array => {
                if value.is_empty() {
                    self.out.push_str("[]");
                    return;
                }
                self.out.push('[');
                let inner = depth.saturating_add(1);
                for (i, item) in value.items().enumerate() {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.newline(inner);
                    self.value(item, inner);
                }
                self.newline(depth);
                self.out.push(']');
            }
            JsonKind::Object => {
                if value.is_empty() {
                    self.out.push_str("{}");
                    return;
                }
                self.out.push('{');
                let inner = depth.saturating_add(1);
                for (i, (key, item)) in value.members().enumerate() {
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
