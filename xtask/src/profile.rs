//! `xtask profile <kind> <file> <patch> [iterations]`: where the time of one pure update goes
//! natively (parse, limits, merge, validate, serialize, etag), in microseconds per phase, for
//! docs/performance.md. A maintainer's tool: no host, no boundary crossing.

use statecore::document::{self, Precondition};
use statecore::merge::{merge_owned, merge_read, MergeOptions};
use statecore::{json, kinds};
use std::hint::black_box;
use std::time::Instant;

/// Runs the phases `iterations` times, 15 samples each, and prints the fastest sample of each
/// (the least disturbed by other processes on a shared machine).
/// `only`: run just the phase of that name (to count its instructions with `perf stat`).
pub fn profile(
    kind: &str,
    file: &str,
    patch: &str,
    iterations: usize,
    only: Option<&str>,
) -> Result<(), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
    let patch_text = std::fs::read(patch).map_err(|e| format!("{patch}: {e}"))?;
    let patch = json::parse(&patch_text).map_err(|e| e.message)?;
    let options = MergeOptions::default();
    let doc = json::parse(&bytes).map_err(|e| e.message)?;
    let merged = merge_owned(doc.clone(), &patch, &options).map_err(|e| e.message)?;
    let text = json::serialize(&merged);
    let (tape, _) = json::Tape::parse(&bytes).map_err(|e| e.message)?;
    let merged_tape = merge_read(&tape, &patch, &options)
        .map_err(|e| e.message)?
        .ok_or("this merge takes the tree path")?;
    let rules = kinds::kind(kind)
        .map_err(|e| e.message)?
        .validate_read
        .ok_or("this kind's rules run on trees only")?;
    type Phase<'a> = (&'a str, Box<dyn Fn() + 'a>);
    let phases: Vec<Phase> = vec![
        (
            "parse",
            Box::new(|| drop(black_box(json::parse(black_box(&bytes))))),
        ),
        (
            "limits",
            Box::new(|| drop(black_box(json::check_limits(black_box(&doc))))),
        ),
        ("clone", Box::new(|| drop(black_box(doc.clone())))),
        (
            "merge (owned)",
            Box::new(|| drop(black_box(merge_owned(doc.clone(), &patch, &options)))),
        ),
        (
            "validate",
            Box::new(|| drop(black_box(kinds::validate(kind, &merged)))),
        ),
        (
            "serialize",
            Box::new(|| drop(black_box(json::serialize(&merged)))),
        ),
        (
            "etag",
            Box::new(|| drop(black_box(json::etag(text.as_bytes())))),
        ),
        (
            "tape: read",
            Box::new(|| drop(black_box(json::Tape::parse(black_box(&bytes))))),
        ),
        (
            "tape: merge",
            Box::new(|| drop(black_box(merge_read(&tape, &patch, &options)))),
        ),
        (
            "tape: validate",
            Box::new(|| drop(black_box(rules(merged_tape.root())))),
        ),
        (
            "tape: serialize",
            Box::new(|| drop(black_box(json::serialize_tape(&merged_tape, bytes.len())))),
        ),
        (
            "tape: tree of the result",
            Box::new(|| {
                drop(black_box(statecore::value::Json::to_value(
                    merged_tape.root(),
                )))
            }),
        ),
        (
            "document::update_read (all)",
            Box::new(|| {
                drop(black_box(document::update_read(
                    kind,
                    Some(&bytes),
                    &patch,
                    &options,
                    Precondition::default(),
                )))
            }),
        ),
        (
            "document::update (all)",
            Box::new(|| {
                drop(black_box(document::update(
                    kind,
                    Some(&bytes),
                    &patch,
                    &options,
                    Precondition::default(),
                )))
            }),
        ),
    ];
    println!(
        "{} bytes in, {} bytes out, {iterations} iterations",
        bytes.len(),
        text.len()
    );
    for (name, run) in phases
        .iter()
        .filter(|(name, _)| only.is_none_or(|o| o == *name))
    {
        let mut samples = Vec::with_capacity(15);
        for _ in 0..15 {
            let start = Instant::now();
            for _ in 0..iterations {
                run();
            }
            samples.push(start.elapsed().as_secs_f64() * 1e6 / iterations as f64);
        }
        samples.sort_by(f64::total_cmp);
        println!(
            "{name:>24}: {:8.2} µs",
            samples.get(7).copied().unwrap_or_default()
        );
    }
    Ok(())
}
