//! A lock job run over answers given in advance: how the conformance corpus drives a job the
//! same way on every surface (and how a tool checks its own driver against the core).

use super::{acquire_job, release_job, sweep_job};
use crate::error::{Code, Error, Result};
use crate::job::Job;
use crate::Value;

/// The steps a `kind` job (`acquire`, `release`) started from `setup` asks for when it is given
/// `answers` in turn: every step up to its end (`done`, `raise`), then `{"do": "error",
/// "error"}` when it ended with its own error; the list stops at the last step asked when the
/// answers run out first.
pub fn script(kind: &str, setup: &Value, answers: &[Value]) -> Result<Value> {
    Ok(crate::job::script(start(kind, setup)?, answers))
}

/// The job of `kind` from `setup` (its shape is checked by the caller).
fn start(kind: &str, setup: &Value) -> Result<Job> {
    let field = |key: &str| setup.get(key).cloned().unwrap_or(Value::Null);
    let text = |key: &str| field(key).as_str().unwrap_or_default().to_owned();
    let seed = hex(&text("seed"), "/setup/seed")?;
    if seed.len() < super::TOKEN_BYTES {
        return Err(Error::new(
            Code::Argument,
            "/setup/seed",
            format!(
                "seed must hold at least {} random bytes",
                super::TOKEN_BYTES
            ),
        ));
    }
    let now_ms = field("now_ms").as_i64().unwrap_or(0);
    let mono_ms = field("mono_ms").as_f64().unwrap_or(0.0);
    let probe = field("probe").as_bool().unwrap_or(false);
    match kind {
        "acquire" => acquire_job(
            text("lock"),
            field("identity"),
            probe,
            field("watching").as_bool().unwrap_or(false),
            field("timeout_ms").as_f64().unwrap_or(0.0),
            seed,
            now_ms,
            mono_ms,
        ),
        "release" => release_job(
            text("lock"),
            text("text"),
            field("identity"),
            probe,
            seed,
            now_ms,
            mono_ms,
        ),
        "sweep" => {
            let entries = field("entries")
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .map(|e| {
                    let part = |k: &str| {
                        e.get(k)
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned()
                    };
                    (part("name"), part("path"))
                })
                .collect();
            sweep_job(
                text("lock"),
                text("name"),
                entries,
                field("identity"),
                probe,
                seed,
                now_ms,
                mono_ms,
            )
        }
        other => Err(Error::new(
            Code::Argument,
            "/job",
            format!("{other:?} is not a lock job: acquire, release or sweep"),
        )),
    }
}

/// The bytes of a hex string (`E_ARGUMENT` at `path` when it is not one).
pub(crate) fn hex(text: &str, path: &str) -> Result<Vec<u8>> {
    let digit = |c: u8| char::from(c).to_digit(16);
    let bad = || {
        Error::new(
            Code::Argument,
            path,
            "seed must be hex digits, two per byte",
        )
    };
    if !text.len().is_multiple_of(2) {
        return Err(bad());
    }
    text.as_bytes()
        .chunks_exact(2)
        .map(|pair| match pair {
            [high, low] => match (digit(*high), digit(*low)) {
                (Some(h), Some(l)) => {
                    u8::try_from(h.saturating_mul(16).saturating_add(l)).map_err(|_| bad())
                }
                _ => Err(bad()),
            },
            _ => Err(bad()),
        })
        .collect()
}
