//! `hivelog`: a hive session's `EVENTS.jsonl` replayed (`statecore::hive::Replay`, the
//! streaming replay every read and step of a session uses), fed in arbitrary pieces.
//!
//! Input: `cuts \0 log bytes`: the first piece's bytes are chunk lengths (each byte + 1, used in
//! turn and cycled; an empty first piece: one byte at a time), the rest is the log (NULs
//! allowed); no NUL at all: the whole input is the log, fed in 7-byte pieces. Laws:
//! - a replay never panics, whatever the bytes and however they are cut;
//! - the replay fed in pieces agrees with the replay of the whole log: the same result (state,
//!   counts, torn tail, skipped lines, warnings) or the same error (code, message, details),
//!   with bad lines stopping the replay and with them skipped;
//! - the replay that reads lines in their typed form and folds them into the typed session
//!   (the default) agrees with the replay that reads every line as a generic tree and folds it
//!   into the generic state tree (`Replay::read_typed(false)`), byte for byte;
//! - errors have stable codes and pointer paths; a line error names a line of the log;
//! - a result's `log_offset` is at most the log's length, and its state is a valid
//!   `hive.state` that records that offset;
//! - the session repair (`ops` `session_log_repair`) never panics, its ranges are in order,
//!   cover the log exactly once, and the kept lines replay without a refused line.

use crate::input::{self, SEP};
use crate::laws;
use crate::seeds::Case;
use statecore::hive::{recover_state, Replay};
use statecore::{Result, Value};
use statecore_cli::TABLE;

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let (cuts, log): (&[u8], &[u8]) = match data.iter().position(|&b| b == SEP) {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (&[6u8][..], data),
    };
    for skip in [false, true] {
        let whole = recover_state(log, "s1", skip);
        let pieces = chunked(log, cuts, skip, true);
        let generic = chunked(log, cuts, skip, false);
        match (&whole, &generic) {
            (Ok(a), Ok(b)) => assert!(
                statecore::json::serialize(a) == statecore::json::serialize(b),
                "the typed replay differs from the generic one:\n{a:?}\n{b:?}"
            ),
            (Err(a), Err(b)) => assert!(
                a == b,
                "the typed replay fails differently from the generic one: {a:?} vs {b:?}"
            ),
            _ => panic!("typed and generic replays disagree: {whole:?} vs {generic:?}"),
        }
        match (&whole, &pieces) {
            (Ok(a), Ok(b)) => assert!(
                a == b,
                "chunked replay differs from the whole:\n{a:?}\n{b:?}"
            ),
            (Err(a), Err(b)) => {
                assert!(
                    a.code == b.code && a.message == b.message && a.details == b.details,
                    "chunked replay fails differently: {a:?} vs {b:?}"
                );
                laws::error("recover_state", a);
                if let Some(line) = a.details.get("line").and_then(Value::as_u64) {
                    let lines = log.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
                    assert!(
                        line >= 1 && line <= lines,
                        "line {line} of a {lines}-line log"
                    );
                }
            }
            _ => panic!("whole and chunked replays disagree: {whole:?} vs {pieces:?}"),
        }
        if let Ok(result) = &whole {
            let offset = result["log_offset"].as_u64().unwrap_or(u64::MAX);
            assert!(offset <= log.len() as u64, "log_offset past the log's end");
            let state = &result["state"];
            assert!(
                state
                    .pointer("/session_metadata/log_offset")
                    .and_then(Value::as_u64)
                    == Some(offset),
                "the state records another offset"
            );
            let report = statecore::kinds::validate("hive.state", state);
            assert!(
                report.is_ok_and(|r| r.valid()),
                "a replayed state is invalid"
            );
        }
    }
    repair(log);
}

/// The replay of `log` fed in the pieces `cuts` gives (`typed`: lines read in their typed
/// form where they have one, else every line as a generic tree).
fn chunked(log: &[u8], cuts: &[u8], skip: bool, typed: bool) -> Result<Value> {
    let mut replay = Replay::new("s1", None, 0, skip)?;
    replay.read_typed(typed);
    let mut at = 0usize;
    let mut i = 0usize;
    while at < log.len() {
        let size = cuts
            .get(i % cuts.len().max(1))
            .map_or(1, |&b| usize::from(b) + 1);
        let end = (at + size).min(log.len());
        replay.feed(&log[at..end])?;
        at = end;
        i += 1;
    }
    replay.finish()
}

/// The repair's laws.
fn repair(log: &[u8]) {
    let op = TABLE.find("session_log_repair").expect("the op exists");
    let args = statecore::ops::Args::values(vec![
        "hive.state".into(),
        "s1".into(),
        Value::from(String::from_utf8_lossy(log).as_ref()),
    ]);
    // The bytes as text (lossy): the op's ranges are checked against what it was given.
    let given = String::from_utf8_lossy(log).into_owned().into_bytes();
    let out = match TABLE.call(op, args) {
        Ok(out) => out.into_value(),
        Err(e) => {
            laws::error("session_log_repair", &e);
            return;
        }
    };
    let ranges = |key: &str| -> Vec<(u64, u64)> {
        out[key]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| match r {
                Value::Array(p) => (p[0].as_u64().unwrap(), p[1].as_u64().unwrap()),
                other => (
                    other["start"].as_u64().unwrap(),
                    other["end"].as_u64().unwrap(),
                ),
            })
            .collect()
    };
    let (keep, aside) = (ranges("keep"), ranges("set_aside"));
    if aside.is_empty() {
        assert!(keep.is_empty(), "nothing set aside, yet ranges to keep");
        return;
    }
    let mut all: Vec<(u64, u64)> = keep.iter().chain(&aside).copied().collect();
    all.sort_unstable();
    let mut at = 0;
    for (start, end) in &all {
        assert!(
            *start == at && end > start,
            "the ranges do not cover the log once: {all:?}"
        );
        at = *end;
    }
    assert!(
        at == given.len() as u64,
        "the ranges stop before the log's end"
    );
    let kept: Vec<u8> = keep
        .iter()
        .flat_map(|(s, e)| given[*s as usize..*e as usize].iter().copied())
        .collect();
    if let Ok(replayed) = recover_state(&kept, "s1", true) {
        let skipped = replayed["skipped"].as_array().map_or(0, Vec::len);
        assert!(skipped == 0, "a kept line is refused: {replayed:?}");
    }
}

/// Seeds from a conformance case: the logs of the hive corpus (a `log_replay`'s chunks, a
/// `recover_state`'s log), whole and cut in a few ways.
pub fn seeds(case: &Case, out: &mut Vec<Vec<u8>>) {
    let log: Vec<u8> = match case.op.as_str() {
        "log_replay" => case
            .args
            .get(5)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .flat_map(|s| s.as_bytes().to_vec())
            .collect(),
        "hive_recover_state" => match case.args.first() {
            Some(Value::String(s)) => s.as_bytes().to_vec(),
            _ => return,
        },
        _ => return,
    };
    if log.is_empty() {
        return;
    }
    for cuts in [&b""[..], &[0u8][..], &[6, 40, 200][..], &[255][..]] {
        out.push(input::join([cuts, log.as_slice()]));
    }
}
