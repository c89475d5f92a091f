//! The few date and time texts the core reads and writes, by hand: an RFC 3339 timestamp
//! with a zone (read), a date and time without one (recognised), and UTC timestamps with
//! milliseconds and dates (written). Each accepts, refuses and writes exactly what the
//! general-purpose date library the core used before accepted, refused and wrote (a
//! differential property test holds them to it), in a small part of its code: the browser's
//! module carries every byte (docs/performance.md § wasm size).
//!
//! The calendar is the proleptic Gregorian one, years −262,143 to 262,142 (the range the
//! library had); every sum below stays far inside `i64` for those years and for any `i64`
//! of milliseconds divided down to days, which is why these functions may use plain integer
//! arithmetic.
#![allow(clippy::arithmetic_side_effects)]

/// The earliest and latest year a date may have.
const MIN_YEAR: i64 = -262_143;
const MAX_YEAR: i64 = 262_142;
/// Days from 0000-03-01 to 1970-01-01 (the epoch of [`days_from_civil`]'s count).
const EPOCH_SHIFT: i64 = 719_468;

/// Why a timestamp does not read, in the words every message has given so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// A field is outside its range (month 13, day 31 of April, minute 60, offset ≥ 24 h).
    OutOfRange,
    /// A character where another one belongs.
    Invalid,
    /// The text ends before the timestamp does.
    TooShort,
    /// Something follows the timestamp.
    TooLong,
}

impl Refusal {
    /// The reason as the timestamp messages state it.
    pub fn message(self) -> &'static str {
        match self {
            Refusal::OutOfRange => "input is out of range",
            Refusal::Invalid => "input contains invalid characters",
            Refusal::TooShort => "premature end of input",
            Refusal::TooLong => "trailing input",
        }
    }
}

/// Days from 1970-01-01 to `year-month-day` (negative before it).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y.rem_euclid(400);
    let shifted_month = if month > 2 { month - 3 } else { month + 9 };
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - EPOCH_SHIFT
}

/// The year, month and day `days` after 1970-01-01.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + EPOCH_SHIFT;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// True when `year-month-day` is a date of the calendar's range.
fn is_date(year: i64, month: i64, day: i64) -> bool {
    let leap = year.rem_euclid(4) == 0 && (year.rem_euclid(100) != 0 || year.rem_euclid(400) == 0);
    let last = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (MIN_YEAR..=MAX_YEAR).contains(&year) && (1..=last).contains(&day)
}

/// The ASCII digit at `index` of `bytes` as a number.
fn digit(bytes: &[u8], index: usize) -> Result<i64, Refusal> {
    match bytes.get(index) {
        Some(b) if b.is_ascii_digit() => Ok(i64::from(b - b'0')),
        _ => Err(Refusal::Invalid),
    }
}

/// The two-digit number at `index` of `bytes`.
fn two(bytes: &[u8], index: usize) -> Result<i64, Refusal> {
    Ok(digit(bytes, index)? * 10 + digit(bytes, index + 1)?)
}

/// A number of at least one and at most `max` ASCII digits at the start of `text`, and the
/// text after it.
fn number(text: &str, max: usize) -> Result<(i64, &str), Refusal> {
    let bytes = text.as_bytes();
    if bytes.is_empty() {
        return Err(Refusal::TooShort);
    }
    let mut value = 0i64;
    for (i, &b) in bytes.iter().take(max).enumerate() {
        if !b.is_ascii_digit() {
            return match i {
                0 => Err(Refusal::Invalid),
                _ => Ok((value, text.get(i..).unwrap_or_default())),
            };
        }
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(i64::from(b - b'0')))
            .ok_or(Refusal::OutOfRange)?;
    }
    Ok((value, text.get(max.min(bytes.len())..).unwrap_or_default()))
}

/// A fraction of a second after its `.`, as nanoseconds (digits past the ninth are read and
/// dropped), and the text after it.
fn nanoseconds(text: &str) -> Result<(i64, &str), Refusal> {
    const SCALE: [i64; 10] = [
        0,
        100_000_000,
        10_000_000,
        1_000_000,
        100_000,
        10_000,
        1_000,
        100,
        10,
        1,
    ];
    let (value, rest) = number(text, 9)?;
    let used = text.len() - rest.len();
    let nanos = value * SCALE.get(used).copied().unwrap_or(1);
    Ok((nanos, rest.trim_start_matches(|c: char| c.is_ascii_digit())))
}

/// A zone offset (`Z`, `z`, `+hh:mm`, `-hh:mm`, `−hh:mm` with U+2212) in seconds east of UTC,
/// and the text after it.
fn offset(text: &str) -> Result<(i64, &str), Refusal> {
    if let Some(rest) = text.strip_prefix(['Z', 'z']) {
        return Ok((0, rest));
    }
    let (negative, rest) = if let Some(rest) = text.strip_prefix('+') {
        (false, rest)
    } else if let Some(rest) = text.strip_prefix(['-', '\u{2212}']) {
        (true, rest)
    } else if text.is_empty() {
        return Err(Refusal::TooShort);
    } else {
        return Err(Refusal::Invalid);
    };
    let bytes = rest.as_bytes();
    if bytes.len() < 2 {
        return Err(Refusal::TooShort);
    }
    let hours = two(bytes, 0)?;
    match bytes.get(2) {
        Some(b':') => {}
        Some(_) => return Err(Refusal::Invalid),
        None => return Err(Refusal::TooShort),
    }
    let minutes = match (bytes.get(3), bytes.get(4)) {
        (Some(&m1 @ b'0'..=b'5'), Some(&m2 @ b'0'..=b'9')) => {
            i64::from((m1 - b'0') * 10 + (m2 - b'0'))
        }
        (Some(b'6'..=b'9'), Some(b'0'..=b'9')) => return Err(Refusal::OutOfRange),
        (Some(_), Some(_)) => return Err(Refusal::Invalid),
        _ => return Err(Refusal::TooShort),
    };
    let seconds = hours * 3600 + minutes * 60;
    Ok((
        if negative { -seconds } else { seconds },
        rest.get(5..).unwrap_or_default(),
    ))
}

/// Reads an RFC 3339 timestamp with a zone (`2026-01-19T12:00:00Z`,
/// `2026-01-19 12:00:00.250+02:00`; `T` or `t` or a space between date and time, any number
/// of digits of a second's fraction, a leap second `:60`) into epoch milliseconds.
pub fn parse_rfc3339(text: &str) -> Result<i64, Refusal> {
    let bytes = text.as_bytes();
    if bytes.len() < 19 {
        return Err(Refusal::TooShort);
    }
    let year = two(bytes, 0)? * 100 + two(bytes, 2)?;
    let separator = |i: usize, b: u8| {
        if bytes.get(i) == Some(&b) {
            Ok(())
        } else {
            Err(Refusal::Invalid)
        }
    };
    separator(4, b'-')?;
    let month = two(bytes, 5)?;
    separator(7, b'-')?;
    let day = two(bytes, 8)?;
    if !is_date(year, month, day) {
        return Err(Refusal::OutOfRange);
    }
    if !matches!(bytes.get(10), Some(b't' | b'T' | b' ')) {
        return Err(Refusal::Invalid);
    }
    let hour = two(bytes, 11)?;
    separator(13, b':')?;
    let minute = two(bytes, 14)?;
    separator(16, b':')?;
    let second = two(bytes, 17)?;
    let (second, leap) = if second == 60 {
        (59, 1_000_000_000)
    } else {
        (second, 0)
    };
    let (nanos, rest) = match bytes.get(19) {
        Some(b'.') => nanoseconds(text.get(20..).unwrap_or_default())?,
        _ => (0, text.get(19..).unwrap_or_default()),
    };
    let nanos = nanos + leap;
    if hour >= 24 || minute >= 60 || second >= 60 || (nanos >= 1_000_000_000 && second != 59) {
        return Err(Refusal::OutOfRange);
    }
    let (offset, rest) = offset(rest)?;
    if !rest.is_empty() {
        return Err(Refusal::TooLong);
    }
    if offset.abs() >= 86_400 {
        return Err(Refusal::OutOfRange);
    }
    let seconds =
        days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
    Ok(seconds * 1000 + nanos / 1_000_000)
}

/// True when `text` is a date and time without a zone as `show` has always recognised it:
/// `2026-01-19T12:00:00`, an optional fraction of a second, each number after optional
/// leading white space, the year optionally signed (then of any length), a leap second `:60`.
pub fn is_local_datetime(text: &str) -> bool {
    local_datetime(text).is_some()
}

/// [`is_local_datetime`]: `Some` when `text` is one.
fn local_datetime(text: &str) -> Option<()> {
    let s = text.trim_start();
    let (year, s) = if let Some(rest) = s.strip_prefix('-') {
        let (v, rest) = number(rest, usize::MAX).ok()?;
        (0i64.checked_sub(v)?, rest)
    } else if let Some(rest) = s.strip_prefix('+') {
        number(rest, usize::MAX).ok()?
    } else {
        number(s, 4).ok()?
    };
    let (month, s) = field_after(s, '-')?;
    let (day, s) = field_after(s, '-')?;
    let (hour, s) = field_after(s, 'T')?;
    let (minute, s) = field_after(s, ':')?;
    let (second, s) = field_after(s, ':')?;
    let s = match s.strip_prefix('.') {
        Some(fraction) => nanoseconds(fraction).ok()?.1,
        None => s,
    };
    let fits = s.is_empty()
        && i32::try_from(year).is_ok()
        && (1..=31).contains(&day)
        && is_date(year, month, day)
        && hour <= 23
        && minute <= 59
        && second <= 60;
    fits.then_some(())
}

/// The number (at most two digits, after optional white space) that follows `before` at the
/// start of `text`, and the text after it.
fn field_after(text: &str, before: char) -> Option<(i64, &str)> {
    number(text.strip_prefix(before)?.trim_start(), 2).ok()
}

/// Appends `n` (0–99) as two digits.
fn push_two(out: &mut String, n: i64) {
    out.push(char::from(b'0' + (n / 10 % 10) as u8));
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// Appends a year: four digits within 0–9999, else signed and at least four digits
/// (`-0001`, `+10000`).
fn push_year(out: &mut String, year: i64) {
    if (0..=9999).contains(&year) {
        push_two(out, year / 100);
        push_two(out, year % 100);
        return;
    }
    out.push(if year < 0 { '-' } else { '+' });
    let digits = year.unsigned_abs().to_string();
    for _ in digits.len()..4 {
        out.push('0');
    }
    out.push_str(&digits);
}

/// The date and time of epoch milliseconds: `(days since 1970-01-01, ms into the day)`,
/// `None` beyond the calendar's range.
fn split(millis: i64) -> Option<(i64, i64)> {
    let days = millis.div_euclid(86_400_000);
    let first = days_from_civil(MIN_YEAR, 1, 1);
    let last = days_from_civil(MAX_YEAR, 12, 31);
    (first..=last)
        .contains(&days)
        .then(|| (days, millis.rem_euclid(86_400_000)))
}

/// Appends `YYYY-MM-DD` of a day count since 1970-01-01.
fn push_date(out: &mut String, days: i64) {
    let (year, month, day) = civil_from_days(days);
    push_year(out, year);
    out.push('-');
    push_two(out, month);
    out.push('-');
    push_two(out, day);
}

/// Epoch milliseconds as RFC 3339 UTC with milliseconds (`2026-01-19T12:00:00.000Z`), `None`
/// beyond the calendar's range.
pub fn write_rfc3339_millis(millis: i64) -> Option<String> {
    let (days, ms) = split(millis)?;
    let mut out = String::with_capacity(24);
    push_date(&mut out, days);
    out.push('T');
    push_two(&mut out, ms / 3_600_000);
    out.push(':');
    push_two(&mut out, ms / 60_000 % 60);
    out.push(':');
    push_two(&mut out, ms / 1000 % 60);
    out.push('.');
    let fraction = ms % 1000;
    out.push(char::from(b'0' + (fraction / 100) as u8));
    push_two(&mut out, fraction % 100);
    out.push('Z');
    Some(out)
}

/// The UTC date (`YYYY-MM-DD`) of epoch milliseconds, `None` beyond the calendar's range.
pub fn write_date(millis: i64) -> Option<String> {
    let (days, _) = split(millis)?;
    let mut out = String::with_capacity(10);
    push_date(&mut out, days);
    Some(out)
}
