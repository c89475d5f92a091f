//! An event's time and the typed session's stamps held inline ([`Time`]): the text of a UTC
//! timestamp in the form statecore writes (`YYYY-MM-DDTHH:MM:SS[.f…]Z`, at most 32 bytes) as
//! four big-endian words, so that two of one length compare as four integers and a stamp is
//! advanced by a copy of them: no heap string (a compact string holds only 12 bytes inline on
//! wasm32), no `memcmp`, and the form checked once per event ([`Now`]) instead of on both
//! sides of every comparison (docs/performance.md § The hive replay: typed lines, a typed
//! session, one fold).

use crate::time::{canonical_utc, compare_timestamps};
use crate::Str;
use std::cmp::Ordering;

/// The longest text held.
const MOST: usize = 32;

/// A timestamp's text held inline, in statecore's UTC form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Time {
    /// The text's bytes, eight to a word, big-endian (zeros after the text).
    words: [u64; MOST / 8],
    len: u8,
}

/// An event's time, as the fold advances the stamps to it: its text, and the [`Time`] it
/// is when it is in the form held (made once per event).
#[derive(Debug, Clone, Copy)]
pub(super) struct Now<'a> {
    /// The event's `timestamp`.
    pub(super) text: &'a str,
    /// The same, held inline, when it is in statecore's UTC form (read by the typed session,
    /// which the browser's modules have not got).
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub(super) time: Option<Time>,
}

impl<'a> Now<'a> {
    /// The time of an event whose `timestamp` is `text`. The browser's module (without the
    /// `full` feature) folds into the tree only, which takes the text: it is not held there.
    pub(super) fn of(text: &'a str) -> Now<'a> {
        Now {
            text,
            time: if cfg!(feature = "full") {
                Time::of(text)
            } else {
                None
            },
        }
    }
}

impl Time {
    /// `text` held, when it is in statecore's UTC form and at most 32 bytes long.
    pub(super) fn of(text: &str) -> Option<Time> {
        let bytes = text.as_bytes();
        let mut padded = [0u8; MOST];
        padded.get_mut(..bytes.len())?.copy_from_slice(bytes);
        if !canonical_utc(bytes) {
            return None;
        }
        let mut words = [0u64; MOST / 8];
        for (word, chunk) in words.iter_mut().zip(padded.chunks_exact(8)) {
            *word = u64::from_be_bytes(<[u8; 8]>::try_from(chunk).unwrap_or_default());
        }
        Some(Time {
            words,
            len: u8::try_from(bytes.len()).unwrap_or(0),
        })
    }

    /// The text's bytes, and how many there are.
    fn bytes(&self) -> ([u8; MOST], usize) {
        let mut bytes = [0u8; MOST];
        for (chunk, word) in bytes.chunks_exact_mut(8).zip(self.words) {
            chunk.copy_from_slice(&word.to_be_bytes());
        }
        (bytes, usize::from(self.len))
    }

    /// The text as a string of the tree.
    pub(super) fn text(&self) -> Str {
        let (bytes, len) = self.bytes();
        let text = bytes.get(..len).unwrap_or_default();
        Str::from(std::str::from_utf8(text).unwrap_or_default())
    }

    /// Sets the stamp to `now` unless it holds a later time already, as
    /// [`super::state::advance_text`] does to a string.
    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub(super) fn advance(&mut self, now: &Time) {
        if self.len == now.len {
            // One form, one length: the text's order is the time's, and equal words are
            // equal texts.
            if self.words < now.words {
                *self = *now;
            }
            return;
        }
        let (mine, theirs) = (self.text(), now.text());
        let write = match compare_timestamps(&mine, &theirs) {
            Some(Ordering::Greater) => false,
            Some(Ordering::Less) => true,
            _ => mine != theirs,
        };
        if write {
            *self = *now;
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::Time;
    use crate::hive::state::advance_text;
    use proptest::prelude::*;

    fn stamp() -> impl Strategy<Value = String> {
        prop_oneof![
            (0..3u8, 0..60u8, 0..1000u16)
                .prop_map(|(h, s, ms)| format!("2026-11-24T1{h}:00:{s:02}.{ms:03}Z")),
            (0..3u8, 0..60u8).prop_map(|(h, s)| format!("2026-11-24T1{h}:00:{s:02}Z")),
            (0..3u8, 0..60u8).prop_map(|(h, s)| format!("2026-11-24T1{h}:00:{s:02}+01:00")),
            (0..60u8).prop_map(|s| format!("2026-11-24T10:00:{s:02}.123456789012345Z")),
            Just("not a time".to_owned()),
        ]
    }

    proptest! {
        /// A held stamp advances as a string stamp does (`advance_text`), in every form:
        /// the same text after any sequence of times held inline (a time in another form is
        /// not held: the string takes it).
        #[test]
        fn a_held_stamp_advances_as_a_string_does(
            first in stamp(),
            nows in prop::collection::vec(stamp(), 0..20),
        ) {
            let mut text = crate::Str::from(first.as_str());
            let mut held = Time::of(&first);
            for now in &nows {
                advance_text(&mut text, now);
                match (held.as_mut(), Time::of(now)) {
                    (Some(time), Some(now)) => time.advance(&now),
                    _ => held = Time::of(&text),
                }
                if let Some(time) = held {
                    let held = time.text();
                    prop_assert_eq!(held.as_str(), text.as_str());
                }
            }
        }
    }
}
