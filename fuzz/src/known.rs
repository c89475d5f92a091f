//! Known findings: long runs keep fuzzing past a bug that is already recorded.
//!
//! `fuzz/known-findings.txt` lists, one per line, `<target> <text of the panic message>`.
//! When `FUZZ_KNOWN_FILE` names that file (scripts/fuzz.sh sets it for `long` runs only), a
//! panic whose message contains a listed text for the running target is not a crash: the
//! input is dropped and fuzzing goes on. Short runs, `cargo test` and `replay` never read the
//! file, so the bug's input in `fuzz/regressions/` keeps failing `make test` until it is fixed;
//! then delete its line.

use std::panic::{self, AssertUnwindSafe};
use std::sync::{Once, OnceLock};

fn patterns(target: &str) -> &'static [String] {
    static PATTERNS: OnceLock<Vec<String>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        let Some(text) =
            std::env::var_os("FUZZ_KNOWN_FILE").and_then(|p| std::fs::read_to_string(p).ok())
        else {
            return Vec::new();
        };
        text.lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .filter_map(|l| l.split_once(' '))
            .filter(|(t, _)| *t == target)
            .map(|(_, text)| text.trim().to_owned())
            .filter(|text| !text.is_empty())
            .collect()
    })
}

fn message(payload: &(dyn std::any::Any + Send)) -> &str {
    payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or_default()
}

/// Runs `run` on `data` as the libFuzzer entry of `target`: a panic is a crash, unless it is a
/// known finding of the target (then it is silent and the input is ignored).
pub fn fuzz(target: &str, run: fn(&[u8]), data: &[u8]) {
    let known = patterns(target);
    if known.is_empty() {
        return run(data);
    }
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let crash = panic::take_hook(); // libfuzzer-sys's: print, then abort
        panic::set_hook(Box::new(move |info| {
            if !known
                .iter()
                .any(|k| message(info.payload()).contains(k.as_str()))
            {
                crash(info);
            }
        }));
    });
    let _ = panic::catch_unwind(AssertUnwindSafe(|| run(data)));
}
