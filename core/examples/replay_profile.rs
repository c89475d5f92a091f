//! A maintainer's tool: the native time per event of the hive replay (`recover_state` fed in
//! 1 MiB chunks, as the hosts feed it) on an `EVENTS.jsonl`, for docs/performance.md.
//!
//! Each run replays the log three times, interleaved: with the typed lines and the typed
//! session (the default), with the typed lines folded into the generic state tree
//! ([`Replay::typed_session`]`(false)`), and with every line read as a generic tree and folded
//! into the tree ([`Replay::read_typed`]`(false)`), for an A/B in one run. `whole` (only when
//! named) is the default with the whole state validated after every `state_updated`
//! ([`Replay::check_whole`]).
//!
//!     cargo run --release -p statecore --example replay_profile -- EVENTS.jsonl [runs] [typed|lines|generic|whole]

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::arithmetic_side_effects
)]

use statecore::hive::Replay;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: replay_profile EVENTS.jsonl [runs]");
    let runs: usize = args
        .next()
        .map_or(3, |n| n.parse().expect("runs: a number"));
    let log = std::fs::read(&path).expect("the log");
    let session = std::path::Path::new(&path)
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or("session")
        .to_owned();
    let only = args.next();
    let modes: Vec<&str> = match only.as_deref() {
        Some(mode) => vec![mode],
        None => vec!["typed", "lines", "generic"],
    };
    for (_, mode) in (0..runs).flat_map(|run| modes.iter().map(move |m| (run, *m))) {
        let start = Instant::now();
        let mut replay = Replay::new(&session, None, 0, false).expect("a replay");
        replay.read_typed(mode != "generic");
        replay.typed_session(matches!(mode, "typed" | "whole"));
        replay.check_whole(mode == "whole");
        for chunk in log.chunks(1 << 20) {
            replay.feed(chunk).expect("the log replays");
        }
        let out = replay.finish().expect("the log replays");
        let elapsed = start.elapsed();
        let events = out
            .get("events")
            .and_then(statecore::Value::as_u64)
            .unwrap_or(0);
        println!(
            "{:8} {events} events: {:.3} s, {:.3} µs/event",
            mode,
            elapsed.as_secs_f64(),
            elapsed.as_secs_f64() * 1e6 / events.max(1) as f64
        );
    }
}
