//! A stamp of the replay's typed session held inline ([`Time`]): the text of a UTC timestamp
//! in the form statecore writes (`YYYY-MM-DDTHH:MM:SS[.f…]Z`, at most 32 bytes) in a fixed
//! buffer, compared eight bytes at a time and replaced by a copy into the same buffer: no
//! heap string (a compact string holds only 12 bytes inline on wasm32), no `memcmp`, and the
//! form checked once per text instead of on both sides of every comparison
//! (docs/performance.md § The hive replay: typed lines, a typed session, one fold).

use crate::time::{canonical_utc, compare_timestamps};
use crate::Str;
use std::cmp::Ordering;

/// The longest text held.
const MOST: usize = 32;

/// A timestamp's text held inline, in statecore's UTC form.
#[derive(Debug, Clone, Copy)]
pub(super) struct Time {
    bytes: [u8; MOST],
    len: u8,
}

impl Time {
    /// `text` held, when it is in statecore's UTC form and at most 32 bytes long.
    pub(super) fn of(text: &str) -> Option<Time> {
        let mut time = Time {
            bytes: [0; MOST],
            len: 0,
        };
        time.set(text).then_some(time)
    }

    /// The text.
    pub(super) fn as_str(&self) -> &str {
        let bytes = self.bytes.get(..usize::from(self.len)).unwrap_or_default();
        std::str::from_utf8(bytes).unwrap_or_default()
    }

    /// The text as a string of the tree.
    pub(super) fn text(&self) -> Str {
        Str::from(self.as_str())
    }

    /// Holds `text` instead, when it is in the form held (`false`: nothing changed).
    fn set(&mut self, text: &str) -> bool {
        let bytes = text.as_bytes();
        let Some(slot) = self.bytes.get_mut(..bytes.len()) else {
            return false;
        };
        if !canonical_utc(bytes) {
            return false;
        }
        slot.copy_from_slice(bytes);
        // Zeros after the text: two texts of one length compare word by word.
        if let Some(rest) = self.bytes.get_mut(bytes.len()..) {
            rest.fill(0);
        }
        self.len = u8::try_from(bytes.len()).unwrap_or(0);
        true
    }

    /// Sets the stamp to `now` unless it holds a later time already (as
    /// [`super::state::advance_text`] does to a string). `false` when `now` must be written
    /// but is not in the form held: the caller writes it into the tree instead.
    pub(super) fn advance(&mut self, now: &str) -> bool {
        let n = now.as_bytes();
        if n.len() == usize::from(self.len) && canonical_utc(n) {
            // Both in the one form, one length: the text's order is the time's.
            return match self.compare_same_length(n) {
                Ordering::Less => self.set(now),
                Ordering::Equal | Ordering::Greater => true,
            };
        }
        let write = match compare_timestamps(self.as_str(), now) {
            Some(Ordering::Greater) => false,
            Some(Ordering::Less) => true,
            _ => self.as_str() != now,
        };
        !write || self.set(now)
    }

    /// The order of the text held and `other`, a text of the same length, eight bytes at a
    /// time (big-endian words order as their bytes do).
    fn compare_same_length(&self, other: &[u8]) -> Ordering {
        let word = |w: &[u8]| u64::from_be_bytes(<[u8; 8]>::try_from(w).unwrap_or_default());
        let mut mine = self.bytes.chunks_exact(8);
        let mut theirs = other.chunks_exact(8);
        for (x, y) in mine.by_ref().zip(theirs.by_ref()) {
            let order = word(x).cmp(&word(y));
            if order.is_ne() {
                return order;
            }
        }
        let done = other.len().saturating_sub(theirs.remainder().len());
        let rest = self.bytes.get(done..other.len()).unwrap_or_default();
        rest.cmp(theirs.remainder())
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
        /// the same text after any sequence, or handed back to the string when it cannot
        /// hold `now`.
        #[test]
        fn a_held_stamp_advances_as_a_string_does(
            first in stamp(),
            nows in prop::collection::vec(stamp(), 0..20),
        ) {
            let mut text = crate::Str::from(first.as_str());
            let mut held = Time::of(&first);
            for now in &nows {
                advance_text(&mut text, now);
                if let Some(time) = held.as_mut() {
                    if !time.advance(now) {
                        held = None;
                    }
                }
                if let Some(time) = held {
                    prop_assert_eq!(time.as_str(), text.as_str());
                }
                if held.is_none() {
                    held = Time::of(&text);
                }
            }
        }
    }
}
