//! The replay's window of recent lines ([`Window`]): a line equal to one of them is a duplicate
//! (the same line appended twice) and is applied once (docs/hive.md § Recovery).

/// How many recent lines a replay remembers: a line equal to one of them is a duplicate
/// (the same line appended twice) and is applied once.
pub const DUPLICATE_WINDOW: usize = 1024;

/// The recent lines, by hash ([`window_hash`]), to find a duplicate (compared byte for byte
/// on a hash match).
/// The lines sit in a ring of [`DUPLICATE_WINDOW`] slots whose buffers are reused once it is
/// full; each bucket of hashes (an array, no hash map) chains the slots of its lines, newest
/// first, so a lookup reads one bucket and the few lines in it, never the whole window.
#[derive(Debug)]
pub(super) struct Window {
    /// `(hash, bytes)` of each line held, in the order of the ring.
    slots: Vec<(u64, Vec<u8>)>,
    /// The slot the next line goes to (the oldest line's, once the ring is full).
    next: usize,
    /// Per bucket: 1 + the slot of its newest line (0: none).
    heads: Box<[u16; BUCKETS]>,
    /// Per slot: 1 + the slot of the next older line of the same bucket (0: none).
    links: Vec<u16>,
}

/// The hash of a line, by which the window finds it (and a replay's ids their line): 64-bit
/// multiplies only, in four independent lanes of eight bytes, then mixed (MurmurHash3's
/// finalizer). xxh3, the hash before it, multiplies 64 by 64 into 128 bits, which wasm32 has
/// no instruction for (`__multi3`, emulated: 4 % of the replay in wasm). A collision costs
/// only a comparison of the lines' bytes. A replay's carry holds these hashes (its ids'), so
/// a change of this function is a new carry version ([`super::replay`], `CARRY_VERSION`).
pub(super) fn line_hash(line: &[u8]) -> u64 {
    const K: [u64; 4] = [
        0x9E37_79B9_7F4A_7C15,
        0xC2B2_AE3D_27D4_EB4F,
        0x1656_67B1_9E37_79F9,
        0xD6E8_FEB8_6659_FD93,
    ];
    let step = |lane: u64, word: &[u8], k: u64| {
        // A whole word is read as it is (no copy: a call to `memcpy` in wasm); the last one,
        // shorter, padded with zeros.
        let word = <[u8; 8]>::try_from(word).unwrap_or_else(|_| {
            let mut bytes = [0u8; 8];
            if let Some(slot) = bytes.get_mut(..word.len()) {
                slot.copy_from_slice(word);
            }
            bytes
        });
        (lane ^ u64::from_le_bytes(word))
            .wrapping_mul(k)
            .rotate_left(31)
    };
    let mut lanes = K;
    let mut blocks = line.chunks_exact(32);
    for block in blocks.by_ref() {
        for ((lane, word), k) in lanes.iter_mut().zip(block.chunks_exact(8)).zip(K) {
            *lane = step(*lane, word, k);
        }
    }
    // The rest, a word (the last one padded with zeros) to each lane in turn.
    for ((lane, word), k) in lanes.iter_mut().zip(blocks.remainder().chunks(8)).zip(K) {
        *lane = step(*lane, word, k);
    }
    let mut hash = (line.len() as u64).wrapping_mul(K[0]);
    for (lane, k) in lanes.into_iter().zip(K) {
        hash = (hash ^ lane.wrapping_mul(k))
            .rotate_left(27)
            .wrapping_mul(K[1]);
    }
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    hash ^ (hash >> 33)
}

/// The hash by which the window files a line ([`Window`]'s own: never written out, a carry
/// holds the window's lines and [`Replay::resume`](super::Replay::resume) files them again).
/// Made for speed, not to reach every byte: a line of a log differs from its neighbours
/// in its first bytes (statecore's lines: the timestamp, bytes 13 to 37; another writer's:
/// an id or a timestamp near the start), so it reads the first five words (40 bytes), one
/// in the middle, the last two and the length: seven 64-bit multiplies for a line of any
/// length, against [`line_hash`]'s one per word (twenty for the bench's lines of 160 bytes,
/// 5 % of the replay in wasm). Lines alike in every byte it reads share a bucket and are
/// told apart by comparing their bytes: a collision costs time, never a wrong answer. The
/// browser's modules (built without the `full` feature) file lines by [`line_hash`]: no
/// second hash function in them (docs/performance.md § wasm size).
pub(super) fn window_hash(line: &[u8]) -> u64 {
    if !cfg!(feature = "full") {
        return line_hash(line);
    }
    const K: [u64; 2] = [0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F];
    // The word at `at` (padded with zeros past the line's end: only short lines reach it).
    let word = |at: usize| {
        let bytes = line.get(at..).unwrap_or_default();
        <[u8; 8]>::try_from(bytes.get(..8).unwrap_or(bytes)).map_or_else(
            |_| {
                let mut padded = [0u8; 8];
                if let Some(slot) = padded.get_mut(..bytes.len()) {
                    slot.copy_from_slice(bytes);
                }
                u64::from_le_bytes(padded)
            },
            u64::from_le_bytes,
        )
    };
    let len = line.len();
    // Short lines (up to 64 bytes) are read whole; longer ones at eight places.
    let at: [usize; 8] = if len <= 64 {
        [0, 8, 16, 24, 32, 40, 48, 56]
    } else {
        let end = len.saturating_sub(8);
        [0, 8, 16, 24, 32, (len / 2) & !7, end.saturating_sub(8), end]
    };
    // Two independent lanes (the multiplies of one overlap the other's).
    let [mut a, mut b] = K;
    for pair in at.chunks_exact(2) {
        if let [x, y] = pair {
            a = (a ^ word(*x)).wrapping_mul(K[0]).rotate_left(31);
            b = (b ^ word(*y)).wrapping_mul(K[1]).rotate_left(31);
        }
    }
    let mut hash = (len as u64).wrapping_mul(K[0]) ^ a;
    hash = hash.rotate_left(27).wrapping_mul(K[1]) ^ b;
    hash ^= hash >> 33;
    hash = hash.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    hash ^ (hash >> 33)
}

/// The buckets of [`Window`] (a power of two, four per line held).
const BUCKETS: usize = DUPLICATE_WINDOW * 4;

impl Default for Window {
    fn default() -> Self {
        Window {
            slots: Vec::new(),
            next: 0,
            heads: Box::new([0; BUCKETS]),
            links: Vec::new(),
        }
    }
}

/// The bucket of a line's hash.
fn bucket(hash: u64) -> usize {
    (hash as usize) & (BUCKETS - 1)
}

/// A slot's link value (1 + the slot).
fn link(slot: usize) -> u16 {
    u16::try_from(slot.saturating_add(1)).unwrap_or(0)
}

impl Window {
    /// The slots of the lines hashed `hash`, newest first.
    fn chain(&self, hash: u64) -> impl Iterator<Item = &(u64, Vec<u8>)> {
        let mut at = self.heads.get(bucket(hash)).copied().unwrap_or(0);
        std::iter::from_fn(move || {
            let slot = usize::from(at).checked_sub(1)?;
            at = self.links.get(slot).copied().unwrap_or(0);
            self.slots.get(slot)
        })
        .filter(move |(h, _)| *h == hash)
    }

    /// True when the window holds `line` (`hash`: its [`window_hash`]).
    pub(super) fn contains(&self, hash: u64, line: &[u8]) -> bool {
        self.chain(hash).any(|(_, l)| l.as_slice() == line)
    }

    /// The bytes of the oldest recent line whose [`line_hash`] is `hash`, if the window holds
    /// one. The window files its lines by [`window_hash`], so this reads its lines in turn:
    /// it is asked only for an id met again with other bytes (a rewritten retry, or two
    /// events under one id), not on a log's usual lines.
    pub(super) fn find(&self, hash: u64) -> Option<&[u8]> {
        self.lines().find(|line| line_hash(line) == hash)
    }

    /// The lines held, oldest first.
    pub(super) fn lines(&self) -> impl Iterator<Item = &[u8]> {
        let (newer, older) = self.slots.split_at(self.next.min(self.slots.len()));
        older.iter().chain(newer).map(|(_, l)| l.as_slice())
    }

    /// Holds `line` (`hash`: its [`window_hash`]), forgetting the oldest line when the window
    /// is full.
    pub(super) fn remember(&mut self, hash: u64, line: &[u8]) {
        let slot = self.next;
        if self.slots.len() < DUPLICATE_WINDOW {
            self.slots.push((hash, line.to_vec()));
            self.links.push(0);
        } else if let Some((old, buffer)) = self.slots.get_mut(slot) {
            let old = *old;
            buffer.clear();
            buffer.extend_from_slice(line);
            self.unlink(old, slot);
            if let Some((h, _)) = self.slots.get_mut(slot) {
                *h = hash;
            }
        }
        if let Some(head) = self.heads.get_mut(bucket(hash)) {
            if let Some(next) = self.links.get_mut(slot) {
                *next = *head;
            }
            *head = link(slot);
        }
        self.next = slot.saturating_add(1) % DUPLICATE_WINDOW;
    }

    /// Takes `slot` (its line hashed `hash`) out of its bucket's chain.
    fn unlink(&mut self, hash: u64, slot: usize) {
        let after = self.links.get(slot).copied().unwrap_or(0);
        let target = link(slot);
        let Some(head) = self.heads.get_mut(bucket(hash)) else {
            return;
        };
        if *head == target {
            *head = after;
            return;
        }
        let mut at = *head;
        while let Some(prev) = usize::from(at).checked_sub(1) {
            let Some(next) = self.links.get_mut(prev) else {
                return;
            };
            if *next == target {
                *next = after;
                return;
            }
            at = *next;
        }
    }
}

#[cfg(test)]
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
mod tests {
    use super::{Window, BUCKETS};
    use crate::hive::DUPLICATE_WINDOW;
    use proptest::prelude::*;
    use std::collections::VecDeque;

    /// Lines as a log has them (differing in a digit or two, one length) spread over the
    /// buckets as random hashes would (4,096 lines in 4,096 buckets fill about 63 % of them),
    /// by the window's hash and by the ids' line hash; and so do another writer's lines,
    /// which differ in an id near their start.
    #[test]
    fn similar_lines_spread_over_the_buckets() {
        let ours = |i: usize| {
            format!(
                r#"{{"timestamp":"2026-11-24T10:{:02}:{:02}.{:03}Z","type":"worker_heartbeat","agent":"w-1","details":{{"worker":"w-1"}}}}"#,
                i / 60000 % 60,
                i / 1000 % 60,
                i % 1000
            )
        };
        let theirs = |i: usize| {
            format!(
                r#"{{"id":"evt-{i:06}","type":"note","agent":"w-1","timestamp":"2026-11-24T10:00:00Z","details":"same"}}"#
            )
        };
        let short = |i: usize| format!(r#"{{"n":{i}}}"#);
        let lines: [&dyn Fn(usize) -> String; 3] = [&ours, &theirs, &short];
        let hashes: [fn(&[u8]) -> u64; 2] = [super::window_hash, super::line_hash];
        for line in lines {
            for hash in hashes {
                let mut used = vec![false; BUCKETS];
                for i in 0..BUCKETS {
                    used[super::bucket(hash(line(i).as_bytes()))] = true;
                }
                let filled = used.iter().filter(|u| **u).count();
                assert!(
                    filled > BUCKETS * 58 / 100,
                    "{filled} of {BUCKETS}: {}",
                    line(1)
                );
            }
        }
    }

    /// Lines the window's hash cannot tell apart (alike in every byte it reads, different in
    /// the middle) are still told apart: the window compares bytes.
    #[test]
    fn lines_alike_where_the_hash_reads_are_told_apart() {
        let line = |i: usize| {
            let mut line = vec![b'x'; 300];
            line[100] = b'0' + (i % 10) as u8;
            line[101] = b'0' + (i / 10 % 10) as u8;
            line
        };
        assert_eq!(
            super::window_hash(&line(1)),
            super::window_hash(&line(2)),
            "the test's lines must collide"
        );
        let mut window = Window::default();
        for i in 0..50 {
            assert!(!window.contains(super::window_hash(&line(i)), &line(i)));
            window.remember(super::window_hash(&line(i)), &line(i));
            assert!(window.contains(super::window_hash(&line(i)), &line(i)));
            assert_eq!(window.find(super::line_hash(&line(i))), Some(&line(i)[..]));
        }
        assert!(!window.contains(super::window_hash(&line(77)), &line(77)));
    }

    proptest! {
        /// Any change of a line's bytes or length changes its hash (each byte reaches it,
        /// in every lane and in the padded last word).
        #[test]
        fn every_byte_of_a_line_reaches_its_hash(
            line in prop::collection::vec(any::<u8>(), 0..200),
            at in any::<prop::sample::Index>(),
            flip in 1..=255u8,
        ) {
            let hash = super::line_hash(&line);
            if !line.is_empty() {
                let mut changed = line.clone();
                changed[at.index(line.len())] ^= flip;
                prop_assert_ne!(super::line_hash(&changed), hash);
            }
            let mut longer = line.clone();
            longer.push(0);
            prop_assert_ne!(super::line_hash(&longer), hash);
        }

        /// The window answers as a plain list of the last lines would, hashes colliding in
        /// a bucket or whole (a few hashes for many lines), past many turns of the ring.
        #[test]
        fn the_window_is_a_list_of_the_last_lines(
            lines in prop::collection::vec((0..6u64, 0..3u64, 0..400u16), 0..3000),
        ) {
            let mut window = Window::default();
            let mut model: VecDeque<(u64, Vec<u8>)> = VecDeque::new();
            for (bucket, turn, body) in lines {
                // The same bucket for hashes differing only above it; equal hashes for
                // different bytes.
                let hash = bucket + turn * BUCKETS as u64;
                let line = body.to_le_bytes().repeat(usize::from(body % 3));
                let held = model.iter().any(|(h, l)| *h == hash && *l == line);
                prop_assert_eq!(window.contains(hash, &line), held);
                // `find` reads the window's lines in turn: asked of one line in eight.
                if body % 8 == 0 {
                    let ids = super::line_hash(&line);
                    let oldest = model.iter().find(|(_, l)| super::line_hash(l) == ids);
                    prop_assert_eq!(window.find(ids), oldest.map(|(_, l)| l.as_slice()));
                }
                if !held {
                    window.remember(hash, &line);
                    model.push_back((hash, line));
                    if model.len() > DUPLICATE_WINDOW {
                        model.pop_front();
                    }
                }
            }
            let listed: Vec<&[u8]> = window.lines().collect();
            let expected: Vec<&[u8]> = model.iter().map(|(_, l)| l.as_slice()).collect();
            prop_assert_eq!(listed, expected);
        }
    }
}
