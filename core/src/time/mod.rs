//! Timestamps and durations. The core never reads a clock: hosts pass `now` in, either as an
//! RFC 3339 string or as epoch milliseconds.

mod civil;

use crate::error::{Code, Error, Result};
use crate::Value;

/// Parses an RFC 3339 / ISO 8601 timestamp with a time zone (`2026-01-19T12:00:00Z`,
/// `2026-01-19T12:00:00.250+02:00`) into epoch milliseconds.
pub fn parse_timestamp(text: &str) -> Result<i64> {
    civil::parse_rfc3339(text).map_err(|refusal| {
        Error::new(
            Code::Timestamp,
            "",
            format!(
                "{text:?} is not an RFC 3339 timestamp with a time zone \
                 (like 2026-01-19T12:00:00Z): {}",
                refusal.message()
            ),
        )
    })
}

/// Orders two RFC 3339 timestamps by the time they name: byte by byte when both are UTC in
/// the one form statecore writes and readers mostly meet (`YYYY-MM-DDTHH:MM:SS[.fff…]Z`, the
/// same length: then the text's order is the time's), else by parsing both. `None` when one
/// does not parse. The fast path assumes both are timestamps (callers compare stamps that
/// passed validation).
pub fn compare_timestamps(a: &str, b: &str) -> Option<std::cmp::Ordering> {
    if a.len() == b.len() && canonical_utc(a.as_bytes()) && canonical_utc(b.as_bytes()) {
        return Some(compare_words(a.as_bytes(), b.as_bytes()));
    }
    Some(parse_timestamp(a).ok()?.cmp(&parse_timestamp(b).ok()?))
}

/// The byte order of `a` and `b` (`a.cmp(b)`), eight bytes at a time: big-endian words order as
/// their bytes do. No call to `memcmp`, which is a byte loop in wasm, for the short texts the
/// hive replay compares on every event (timestamps, worker names).
pub(crate) fn compare_words(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let word = |w: &[u8]| u64::from_be_bytes(<[u8; 8]>::try_from(w).unwrap_or_default());
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        let order = word(x).cmp(&word(y));
        if order.is_ne() {
            return order;
        }
    }
    // The bytes after the words both have, one at a time.
    let done = (a.len().min(b.len()) / 8).saturating_mul(8);
    let (x, y) = (a.get(done..).unwrap_or_default(), b.get(done..));
    x.iter().cmp(y.unwrap_or_default().iter())
}

/// The separators of `YYYY-MM-DDTHH:MM:SS[.f…]Z` in place, and the `Z` (the digits are not
/// looked at: both texts compared are timestamps, checked when they were read).
pub(crate) fn canonical_utc(text: &[u8]) -> bool {
    let at = |i: usize, b: u8| text.get(i) == Some(&b);
    let fraction = text.len() == 20 || (text.len() > 21 && at(19, b'.'));
    fraction
        && text.last() == Some(&b'Z')
        && at(4, b'-')
        && at(7, b'-')
        && at(10, b'T')
        && at(13, b':')
        && at(16, b':')
}

/// True when `text` is an RFC 3339 timestamp with a time zone.
pub fn is_timestamp(text: &str) -> bool {
    civil::parse_rfc3339(text).is_ok()
}

/// True when `text` is a date and time without a zone (`2026-01-19T12:00:00[.fff]`; each
/// number may follow white space, the year may be signed).
pub fn is_local_datetime(text: &str) -> bool {
    civil::is_local_datetime(text)
}

/// The UTC date (`YYYY-MM-DD`) of epoch milliseconds; `None` beyond the supported range
/// (years −262,143 to 262,142).
pub fn format_date(millis: i64) -> Option<String> {
    civil::write_date(millis)
}

/// Formats epoch milliseconds as RFC 3339 UTC with milliseconds (`2026-01-19T12:00:00.000Z`).
pub fn format_timestamp(millis: i64) -> Result<String> {
    civil::write_rfc3339_millis(millis).ok_or_else(|| {
        Error::new(
            Code::Timestamp,
            "",
            format!("{millis} ms since the epoch is outside the supported range"),
        )
    })
}

/// [`format_timestamp`] of a JSON number: `E_VALUE` when it is not a whole number,
/// `E_TIMESTAMP` when it is one beyond the supported range.
pub fn format_millis_value(millis: &Value) -> Result<String> {
    match millis {
        Value::Number(n) => match n.as_i64() {
            Some(ms) => format_timestamp(ms),
            None if crate::json::is_integer_text(n.as_str()) => Err(Error::new(
                Code::Timestamp,
                "",
                format!("{n} milliseconds is outside the range of timestamps"),
            )),
            None => Err(Error::new(
                Code::Value,
                "",
                format!("{n} is not a whole number of epoch milliseconds"),
            )),
        },
        other => Err(Error::new(
            Code::Value,
            "",
            format!(
                "millis must be a whole number of epoch milliseconds, not {}",
                crate::merge::type_name(other)
            ),
        )),
    }
}

/// Milliseconds in a minute, an hour, a day.
const MINUTE_MS: i64 = 60_000;
const HOUR_MS: i64 = 60 * MINUTE_MS;
const DAY_MS: i64 = 24 * HOUR_MS;

/// A duration as every surface shows a stall or an elapsed time (whole units, rounded down;
/// a negative one as 0): `45m` under an hour; `2h`, `2h15m` under 48 hours; from 48 hours on,
/// days and hours, `2d`, `282d15h` (the minutes no longer matter there).
pub fn format_duration(ms: i64) -> String {
    let ms = ms.max(0);
    if ms >= 2 * DAY_MS {
        let (days, hours) = (ms / DAY_MS, (ms % DAY_MS) / HOUR_MS);
        return match hours {
            0 => format!("{days}d"),
            h => format!("{days}d{h}h"),
        };
    }
    let minutes = ms / MINUTE_MS;
    match (minutes / 60, minutes % 60) {
        (0, m) => format!("{m}m"),
        (h, 0) => format!("{h}h"),
        (h, m) => format!("{h}h{m}m"),
    }
}

/// [`format_duration`] of a JSON number of milliseconds (a fraction is dropped): `E_VALUE`
/// when it is not a number.
pub fn format_duration_value(ms: &Value) -> Result<String> {
    match ms.as_f64() {
        Some(n) if n.is_finite() => {
            // Saturating float-to-int conversion: beyond i64 is shown as its maximum.
            #[allow(clippy::cast_possible_truncation)]
            let whole = n as i64;
            Ok(format_duration(whole))
        }
        _ => Err(Error::new(
            Code::Value,
            "",
            format!(
                "ms must be a number of milliseconds, not {}",
                crate::merge::type_name(ms)
            ),
        )),
    }
}

/// A host-supplied `now`: an RFC 3339 string (kept exactly as given) or epoch milliseconds
/// (formatted with [`format_timestamp`]). Returns the text to store and the epoch ms.
pub fn normalize_now(now: &Value) -> Result<(String, i64)> {
    match now {
        Value::String(text) => Ok((text.to_string(), parse_timestamp(text)?)),
        Value::Number(n) => {
            let millis = n.as_i64().ok_or_else(|| {
                Error::new(
                    Code::Timestamp,
                    "",
                    format!("now = {n} is not a whole number of epoch milliseconds"),
                )
            })?;
            Ok((format_timestamp(millis)?, millis))
        }
        _ => Err(Error::new(
            Code::Timestamp,
            "",
            "now must be an RFC 3339 string or epoch milliseconds",
        )),
    }
}

#[cfg(test)]
mod word_tests {
    use super::compare_words;
    use proptest::prelude::*;

    proptest! {
        /// Eight bytes at a time, the order of the bytes: texts of any lengths, mostly sharing
        /// a prefix (as timestamps do), differing anywhere.
        #[test]
        fn compare_words_is_the_byte_order(
            common in prop::collection::vec(any::<u8>(), 0..40),
            a in prop::collection::vec(any::<u8>(), 0..12),
            b in prop::collection::vec(any::<u8>(), 0..12),
        ) {
            let a = [common.as_slice(), &a].concat();
            let b = [common.as_slice(), &b].concat();
            prop_assert_eq!(compare_words(&a, &b), a.cmp(&b));
            prop_assert_eq!(compare_words(&a, &a), std::cmp::Ordering::Equal);
        }
    }
}
