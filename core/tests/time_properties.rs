//! The core's own timestamp reader and writer (core/src/time/civil.rs) against the date
//! library it replaced (chrono, kept as a dev-dependency for this test only): on random
//! timestamps, near-timestamps (one character changed, cut, lengthened) and random text,
//! each accepts and refuses exactly what the library did, with the same reason in the
//! message, reads the same instant, and writes the same text.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use chrono::{DateTime, NaiveDateTime, SecondsFormat, Utc};
use proptest::prelude::*;
use statecore::time::{
    format_date, format_timestamp, is_local_datetime, is_timestamp, parse_timestamp,
};

/// What `parse_timestamp` gave when chrono read the text: the instant, or the message.
fn chrono_parse(text: &str) -> Result<i64, String> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.timestamp_millis())
        .map_err(|e| {
            format!(
                "{text:?} is not an RFC 3339 timestamp with a time zone \
                 (like 2026-01-19T12:00:00Z): {e}"
            )
        })
}

fn chrono_local(text: &str) -> bool {
    NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f").is_ok()
}

fn chrono_format(millis: i64) -> Option<String> {
    DateTime::<Utc>::from_timestamp_millis(millis)
        .map(|t| t.to_rfc3339_opts(SecondsFormat::Millis, true))
}

fn chrono_date(millis: i64) -> Option<String> {
    DateTime::<Utc>::from_timestamp_millis(millis).map(|t| t.format("%Y-%m-%d").to_string())
}

fn same_reading(text: &str) -> Result<(), TestCaseError> {
    let ours = parse_timestamp(text).map_err(|e| e.message);
    prop_assert_eq!(&ours, &chrono_parse(text), "text {:?}", text);
    prop_assert_eq!(is_timestamp(text), ours.is_ok());
    prop_assert_eq!(
        is_local_datetime(text),
        chrono_local(text),
        "local {:?}",
        text
    );
    Ok(())
}

/// A timestamp of any form the readers meet: the year, month, day, time, fraction and zone
/// drawn from ranges a little wider than the valid ones.
fn stamp() -> impl Strategy<Value = String> {
    (
        (
            0u32..10_000,
            0u32..14,
            0u32..33,
            0u32..26,
            0u32..62,
            0u32..62,
        ),
        prop::sample::select(vec!["T", "t", " ", "_"]),
        prop::option::of("[0-9]{0,12}"),
        prop::sample::select(vec![
            "Z",
            "z",
            "",
            "+00:00",
            "-00:00",
            "+02:00",
            "-07:30",
            "+23:59",
            "+24:00",
            "-99:59",
            "+05:60",
            "+05:99",
            "\u{2212}03:00",
            "+0200",
            "+02",
            "+02:0",
            "+2:00",
            "Zx",
            "+02:00 ",
        ]),
    )
        .prop_map(|((y, mo, d, h, mi, s), sep, fraction, zone)| {
            let fraction = fraction.map_or(String::new(), |f| format!(".{f}"));
            format!("{y:04}-{mo:02}-{d:02}{sep}{h:02}:{mi:02}:{s:02}{fraction}{zone}")
        })
}

/// A date and time without a zone as `show` meets them, with the variations chrono's
/// format reader allowed (white space before a number, short or signed numbers).
fn local() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec!["", " ", "+", "-", " -", "+0", "00"]),
        (
            0u32..100_000,
            0u32..14,
            0u32..33,
            0u32..26,
            0u32..62,
            0u32..62,
        ),
        prop::sample::select(vec!["", " ", "  ", "\t"]),
        prop::sample::select(vec!["%02", "%01"]),
        prop::option::of("[0-9]{0,11}"),
        prop::sample::select(vec!["", "Z", " ", "x"]),
    )
        .prop_map(
            |(sign, (y, mo, d, h, mi, s), space, width, fraction, tail)| {
                let n = |v: u32| {
                    if width == "%02" {
                        format!("{space}{v:02}")
                    } else {
                        format!("{space}{v}")
                    }
                };
                let fraction = fraction.map_or(String::new(), |f| format!(".{f}"));
                format!(
                    "{sign}{y:04}-{}-{}T{}:{}:{}{fraction}{tail}",
                    n(mo),
                    n(d),
                    n(h),
                    n(mi),
                    n(s)
                )
            },
        )
}

/// `text` with the character at `at` (modulo its length) replaced by `with`, or removed
/// when `with` is `None`, or cut there when `cut`.
fn mutate(text: &str, at: usize, with: Option<char>, cut: bool) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return with.map(String::from).unwrap_or_default();
    }
    let at = at % chars.len();
    if cut {
        return chars[..at].iter().collect();
    }
    let mut out: Vec<char> = chars[..at].to_vec();
    out.extend(with);
    out.extend(&chars[at + 1..]);
    out.into_iter().collect()
}

fn any_char() -> impl Strategy<Value = Option<char>> {
    prop::option::of(prop::sample::select(vec![
        '0', '1', '5', '6', '9', '-', ':', 'T', 't', 'Z', 'z', '+', '.', ' ', '\u{2212}', 'é',
        '\t', 'a',
    ]))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4000, ..ProptestConfig::default() })]

    #[test]
    fn stamps_read_as_chrono_read_them(text in stamp()) {
        same_reading(&text)?;
    }

    #[test]
    fn near_stamps_read_as_chrono_read_them(
        text in prop_oneof![stamp(), local()],
        at in 0usize..40,
        with in any_char(),
        cut in any::<bool>(),
    ) {
        same_reading(&mutate(&text, at, with, cut))?;
    }

    #[test]
    fn local_times_read_as_chrono_read_them(text in local()) {
        same_reading(&text)?;
    }

    #[test]
    fn random_text_reads_as_chrono_read_it(text in "[0-9T:Z+. \u{2212}-]{0,32}") {
        same_reading(&text)?;
    }

    #[test]
    fn timestamps_write_as_chrono_wrote_them(millis in prop_oneof![
        any::<i64>(),
        -100_000_000_000_000i64..300_000_000_000_000,
        -62_167_219_200_000i64..-62_104_060_800_000,
        // Around the first and the last instant of the range.
        -8_334_601_228_900_000i64..-8_334_601_228_700_000,
        8_210_266_876_700_000i64..8_210_266_876_900_000,
    ]) {
        let ours = format_timestamp(millis).ok();
        prop_assert_eq!(&ours, &chrono_format(millis));
        prop_assert_eq!(format_date(millis), chrono_date(millis));
        if let Some(text) = ours {
            // What is written reads back as the same instant.
            prop_assert_eq!(parse_timestamp(&text).ok().filter(|_| text.len() == 24), (text.len() == 24).then_some(millis));
        }
    }
}

#[test]
fn the_edges_read_and_write_as_chrono_did() {
    for text in [
        "",
        "2026-01-19T12:00:00Z",
        "2026-01-19t12:00:00.250+02:00",
        "2026-01-19 12:00:00-00:00",
        "2016-12-31T23:59:60Z",
        "2016-12-31T23:59:60.999999999999Z",
        "2016-12-31T23:58:60Z",
        "2024-02-29T00:00:00Z",
        "2023-02-29T00:00:00Z",
        "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999+23:59",
        "0000-01-01T00:00:00-23:59",
        "2026-01-19T12:00:00.Z",
        "2026-01-19T12:00:00.",
        "2026-01-19T12:00:00",
        "2026-01-19T12:00:00+",
        "2026-01-19T12:00:00+0",
        "2026-01-19T12:00:00+02:",
        "2026-01-19T12:00:00\u{2212}02:00",
        "2026-01-19T12:00:00\u{2212}",
        "2026-01-19T24:00:00Z",
        "2026-13-01T00:00:00Z",
        "2026-01-19T12:00",
        " 2026-01-19T12:00:00",
        "-2026-01-19T12:00:00",
        "+002026-01-19T12:00:00",
        "2026-01-19T12:00:00.123456789",
        "2026-1-9T1:2:3",
        "2026-01-19T12:00:60.5",
        "262143-01-01T00:00:00",
        "+262142-12-31T00:00:00",
        "-262143-01-01T00:00:00",
        "-262144-12-31T00:00:00",
        "99999999999999999999-01-01T00:00:00",
    ] {
        same_reading(text).unwrap();
    }
    for millis in [
        0,
        -1,
        1,
        i64::MIN,
        i64::MAX,
        -62_167_219_200_001,
        253_402_300_800_000,
        -8_334_601_228_800_001,
        -8_334_601_228_800_000,
        8_210_266_876_799_999,
        8_210_266_876_800_000,
    ] {
        assert_eq!(
            format_timestamp(millis).ok(),
            chrono_format(millis),
            "{millis}"
        );
        assert_eq!(format_date(millis), chrono_date(millis), "{millis}");
    }
}
