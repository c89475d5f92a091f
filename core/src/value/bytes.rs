//! Byte-string equality a word at a time: in wasm, `memcmp` compares a byte at a time, and
//! comparing strings (keys, values, a file's text) is much of what an update does
//! (docs/performance.md § Documents).

use super::Value;

/// True when `a` and `b` hold the same bytes.
#[inline]
pub fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut x = a.chunks_exact(8);
    let mut y = b.chunks_exact(8);
    x.by_ref().zip(y.by_ref()).all(|(p, q)| word(p) == word(q))
        && x.remainder().iter().eq(y.remainder())
}

/// An 8-byte chunk as a word.
#[inline]
fn word(chunk: &[u8]) -> u64 {
    chunk.try_into().map_or(0, u64::from_ne_bytes)
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Null, Value::Null) => true,
            (Value::Bool(a), Value::Bool(b)) => a == b,
            (Value::Number(a), Value::Number(b)) => a == b,
            (Value::String(a), Value::String(b)) => same_bytes(a.as_bytes(), b.as_bytes()),
            (Value::Array(a), Value::Array(b)) => a == b,
            (Value::Object(a), Value::Object(b)) => a == b,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::same_bytes;

    #[test]
    fn bytes_compare_at_every_length_and_place() {
        let base: Vec<u8> = (0u8..40).collect();
        for len in 0..base.len() {
            let a = base.get(..len).unwrap_or_default();
            assert!(same_bytes(a, a));
            for at in 0..len {
                let mut b = a.to_vec();
                if let Some(byte) = b.get_mut(at) {
                    *byte ^= 1;
                }
                assert!(!same_bytes(a, &b), "{len} {at}");
            }
            assert!(!same_bytes(
                a,
                base.get(..len.saturating_add(1)).unwrap_or_default()
            ));
        }
    }
}
