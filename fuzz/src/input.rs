//! How a fuzz input's bytes become a target's arguments.
//!
//! Inputs are text-friendly so that seeds made from the conformance corpus stay readable and
//! a regression file can be edited by hand: an input is a list of *pieces* separated by NUL
//! bytes (`\0`). A NUL cannot occur in JSON text (not even inside a string, where control
//! characters must be escaped), so JSON pieces never need quoting. A *selector* piece names
//! an item (an operation, a document kind); a selector that names nothing picks an item by
//! its first two bytes, so every byte string selects something and the table can grow
//! without invalidating old inputs that use names.

use statecore::Value;

/// The piece separator.
pub const SEP: u8 = 0;

/// Splits `data` into at most `n` pieces at NUL bytes; the last piece keeps the rest
/// (NULs included). Fewer pieces come back when there are fewer separators.
pub fn split(data: &[u8], n: usize) -> Vec<&[u8]> {
    data.splitn(n.max(1), |&b| b == SEP).collect()
}

/// Joins pieces with NUL separators (the inverse of [`split`] for pieces without NULs).
pub fn join<I, P>(pieces: I) -> Vec<u8>
where
    I: IntoIterator<Item = P>,
    P: AsRef<[u8]>,
{
    let mut out = Vec::new();
    for (i, piece) in pieces.into_iter().enumerate() {
        if i > 0 {
            out.push(SEP);
        }
        out.extend_from_slice(piece.as_ref());
    }
    out
}

/// The item a selector piece names: the one whose name is the selector, or else the one at
/// index `(b0 + 256 * b1) % len` (`None` only when there are no items).
pub fn select<'a, T>(
    selector: &[u8],
    items: &'a [T],
    name: impl Fn(&T) -> String,
) -> Option<&'a T> {
    if let Some(found) = items.iter().find(|item| name(item).as_bytes() == selector) {
        return Some(found);
    }
    if items.is_empty() {
        return None;
    }
    let b0 = usize::from(selector.first().copied().unwrap_or(0));
    let b1 = usize::from(selector.get(1).copied().unwrap_or(0));
    items.get((b0 + 256 * b1) % items.len())
}

/// The JSON value of a piece, `None` when it is not JSON (statecore's strict parser).
pub fn json(piece: &[u8]) -> Option<Value> {
    statecore::json::parse(piece).ok()
}

/// The JSON value of a piece; an empty piece is `null`, text that is not JSON is a string
/// holding the text (so a mutated piece still gives an interesting value).
pub fn json_or_text(piece: &[u8]) -> Value {
    if piece.is_empty() {
        return Value::Null;
    }
    json(piece).unwrap_or_else(|| Value::from(String::from_utf8_lossy(piece)))
}

/// The compact JSON text of a value, for building seeds.
pub fn text(value: &Value) -> Vec<u8> {
    statecore::json::serialize_compact(value).into_bytes()
}
