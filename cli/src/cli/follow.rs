//! What the commands that go on share (docs/cli.md § Commands that go on): `--count`, the
//! number of changes printed so far (kept in `facts.state`), and the answer's `then`.

use super::command::{Call, Opt};
use super::host::Host;
use super::out::{clean, Output};
use statecore::{Map, Value};

/// `--count N`, which the watching commands take.
pub const COUNT: Opt = Opt {
    name: "count",
    value: Some("N"),
    help: "Stop after N changes have been printed, with the last one's exit code (default: \
           run until Ctrl-C).",
};

/// `--count N` checked: `Ok(None)` without it, `Err` the usage error of one that is not a
/// whole number ≥ 1.
pub fn count(call: &Call) -> Result<Option<u64>, Output> {
    let Some(text) = call.value("count") else {
        return Ok(None);
    };
    match text.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(Some(n)),
        _ => Err(Output::usage(&format!(
            "--count takes a whole number ≥ 1 (got {:?})",
            clean(text)
        ))),
    }
}

/// How many changes were printed before this call (`facts.state.seen`; 0 on the first).
pub fn seen(host: &Host<'_>) -> u64 {
    host.state()
        .and_then(|s| s.get("seen"))
        .and_then(Value::as_u64)
        .unwrap_or(0)
}

/// How a command goes on: what it watches, the timers it arms, and what it keeps.
#[derive(Debug, Default)]
pub struct Then {
    /// Files and directories to watch.
    pub watch: Vec<String>,
    /// The names to watch for under a watched directory (`None`: every file).
    pub names: Option<Vec<&'static str>>,
    /// Timers to arm: `(name, after_ms)`.
    pub timers: Vec<(String, u64)>,
    /// Changes printed so far, kept as `state.seen` (`None`: nothing kept).
    pub seen: Option<u64>,
}

impl Then {
    /// The answer's `then` (a `CliThen`), or `None` once `count` changes were printed: the
    /// command then ends.
    pub fn value(self, count: Option<u64>) -> Option<Value> {
        if let (Some(seen), Some(count)) = (self.seen, count) {
            if seen >= count {
                return None;
            }
        }
        let mut map = Map::new();
        if !self.watch.is_empty() {
            let watch = self.watch.into_iter().map(Value::from).collect();
            map.insert("watch".into(), Value::Array(watch));
        }
        if let Some(names) = self.names {
            let names = names.into_iter().map(Value::from).collect();
            map.insert("names".into(), Value::Array(names));
        }
        if !self.timers.is_empty() {
            let timers = self.timers.into_iter().map(|(name, after_ms)| {
                let mut timer = Map::new();
                timer.insert("name".into(), Value::from(name));
                timer.insert("after_ms".into(), Value::from(after_ms));
                Value::Object(timer)
            });
            map.insert("timers".into(), Value::Array(timers.collect()));
        }
        if let Some(seen) = self.seen {
            let mut state = Map::new();
            state.insert("seen".into(), Value::from(seen));
            map.insert("state".into(), Value::Object(state));
        }
        Some(Value::Object(map))
    }
}
