//! [`Number`]: a JSON number kept exactly as its text, without a heap allocation for the
//! numbers state files hold (up to 22 characters: every 64-bit integer, every double in its
//! shortest form).

use std::fmt;
use std::hash::{Hash, Hasher};

/// The longest number text kept inline.
const INLINE: usize = 22;

/// A JSON number, exactly as written (`1.0`, `12345678901234567890` and `1e+5` stay as they
/// are; the parser writes an exponent `e` with a sign, as `docs/merge.md` § Documents says).
#[derive(Clone)]
pub struct Number {
    text: Text,
}

#[derive(Clone)]
enum Text {
    Inline(u8, [u8; INLINE]),
    Heap(Box<str>),
}

impl Number {
    /// A number from text the caller has checked is a JSON number in canonical form (the
    /// parser's output, or digits it wrote itself).
    pub(crate) fn from_canonical(text: &str) -> Number {
        let bytes = text.as_bytes();
        if bytes.len() <= INLINE {
            let mut buf = [0u8; INLINE];
            if let Some(slot) = buf.get_mut(..bytes.len()) {
                slot.copy_from_slice(bytes);
                return Number {
                    text: Text::Inline(bytes.len() as u8, buf),
                };
            }
        }
        Number {
            text: Text::Heap(text.into()),
        }
    }

    /// The number's text, exactly as kept.
    pub fn as_str(&self) -> &str {
        match &self.text {
            Text::Inline(len, buf) => buf
                .get(..usize::from(*len))
                .and_then(|b| std::str::from_utf8(b).ok())
                .unwrap_or("0"),
            Text::Heap(text) => text,
        }
    }

    /// The number's text as bytes, exactly as kept (what [`Number::as_str`] gives, without
    /// checking again that it is UTF-8).
    fn as_bytes(&self) -> &[u8] {
        match &self.text {
            Text::Inline(len, buf) => buf.get(..usize::from(*len)).unwrap_or(b"0"),
            Text::Heap(text) => text.as_bytes(),
        }
    }

    /// A finite double as a number, in its shortest form (`1.0`, `1e300`); `None` for NaN and
    /// ±infinity, which JSON cannot hold.
    pub fn from_f64(f: f64) -> Option<Number> {
        f.is_finite()
            .then(|| Number::from_canonical(zmij::Buffer::new().format_finite(f)))
    }

    /// The number as an `i64`, when it is a whole number within range: an integer literal, or
    /// a number whose fraction is zero (`5.0`, `5e0`, `1.5e1`: JSON Schema's `integer`).
    pub fn as_i64(&self) -> Option<i64> {
        let text = self.as_str();
        if let Ok(n) = text.parse() {
            return Some(n);
        }
        let (negative, magnitude) = whole(text)?;
        if negative {
            0i64.checked_sub_unsigned(magnitude)
        } else {
            i64::try_from(magnitude).ok()
        }
    }

    /// The number as a `u64`, when it is a non-negative whole number within range (an integer
    /// literal, or a number whose fraction is zero, as for [`Number::as_i64`]; `-0.0` is 0).
    pub fn as_u64(&self) -> Option<u64> {
        // Up to 19 digits (no sign: the text is a JSON number) cannot overflow: summed here,
        // from the bytes kept (no UTF-8 check of them, a call per number in wasm), without
        // the general parse's checks (a counter is read on every event of a replay).
        let bytes = self.as_bytes();
        if (1..=19).contains(&bytes.len()) && bytes.iter().all(u8::is_ascii_digit) {
            return Some(bytes.iter().fold(0u64, |n, b| {
                n.wrapping_mul(10)
                    .wrapping_add(u64::from(b.wrapping_sub(b'0')))
            }));
        }
        let text = self.as_str();
        if let Ok(n) = text.parse() {
            return Some(n);
        }
        match whole(text)? {
            (true, n) if n != 0 => None,
            (_, n) => Some(n),
        }
    }

    /// The number as a finite double (rounded to the nearest), else `None`.
    pub fn as_f64(&self) -> Option<f64> {
        super::float::parse_f64(self.as_str()).filter(|f| f.is_finite())
    }

    /// True when [`Number::as_i64`] gives the value.
    pub fn is_i64(&self) -> bool {
        self.as_i64().is_some()
    }

    /// True when [`Number::as_u64`] gives the value.
    pub fn is_u64(&self) -> bool {
        self.as_u64().is_some()
    }

    /// True when the text has a fraction or an exponent and reads as a finite double.
    pub fn is_f64(&self) -> bool {
        let text = self.as_str();
        text.contains(['.', 'e', 'E']) && super::float::parse_f64(text).is_some_and(f64::is_finite)
    }
}

/// The sign and magnitude of a JSON number's text when its value is whole (its digits past
/// the decimal point, after the exponent is applied, are all zeros) and the magnitude fits a
/// `u64`; read exactly from the digits, never through a double.
fn whole(text: &str) -> Option<(bool, u64)> {
    let (negative, text) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (text.get(..at)?, text.get(at.saturating_add(1)..)?),
        None => (text, "0"),
    };
    let exponent: i64 = exponent
        .strip_prefix('+')
        .unwrap_or(exponent)
        .parse()
        .ok()?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = || int.bytes().chain(frac.bytes());
    if !digits().all(|b| b.is_ascii_digit()) || int.is_empty() {
        return None;
    }
    // Where the decimal point falls among the digits once the exponent is applied.
    let point = i64::try_from(int.len()).ok()?.checked_add(exponent)?;
    let mut value: u64 = 0;
    let mut at: i64 = 0;
    for digit in digits() {
        let d = u64::from(digit.saturating_sub(b'0'));
        if at < point {
            value = value.checked_mul(10)?.checked_add(d)?;
        } else if d != 0 {
            return None;
        }
        at = at.checked_add(1)?;
    }
    // Trailing zeros the exponent adds past the last digit (more than 19 overflow a u64).
    if value == 0 || at >= point {
        return Some((negative, value));
    }
    if point.checked_sub(at)? > 19 {
        return None;
    }
    while at < point {
        value = value.checked_mul(10)?;
        at = at.checked_add(1)?;
    }
    Some((negative, value))
}

/// Writes the digits of an integer into a number, without formatting machinery.
fn integer(negative: bool, mut magnitude: u64) -> Number {
    let mut buf = [0u8; 21];
    let mut at = buf.len();
    loop {
        at = at.saturating_sub(1);
        if let Some(slot) = buf.get_mut(at) {
            *slot = b'0'.saturating_add((magnitude % 10) as u8);
        }
        magnitude /= 10;
        if magnitude == 0 {
            break;
        }
    }
    if negative {
        at = at.saturating_sub(1);
        if let Some(slot) = buf.get_mut(at) {
            *slot = b'-';
        }
    }
    let text = buf
        .get(at..)
        .and_then(|b| std::str::from_utf8(b).ok())
        .unwrap_or("0");
    Number::from_canonical(text)
}

macro_rules! from_unsigned {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(n: $t) -> Number {
                integer(false, n as u64)
            }
        }
    )*};
}
macro_rules! from_signed {
    ($($t:ty)*) => {$(
        impl From<$t> for Number {
            fn from(n: $t) -> Number {
                integer(n < 0, (n as i64).unsigned_abs())
            }
        }
    )*};
}
from_unsigned!(u8 u16 u32 u64 usize);
from_signed!(i8 i16 i32 i64 isize);

impl PartialEq for Number {
    fn eq(&self, other: &Number) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Number {}

impl Hash for Number {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Number({})", self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::Number;
    use proptest::prelude::*;

    proptest! {
        /// `as_u64` of a whole number's text is the general parse's (and past 19 digits or
        /// 2^64, the same refusal or value).
        #[test]
        fn as_u64_is_the_parse_of_its_digits(digits in "[0-9]{1,22}") {
            let number = Number::from_canonical(&digits);
            prop_assert_eq!(number.as_u64(), digits.parse::<u64>().ok());
        }
    }
}
