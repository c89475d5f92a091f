//! The wait of a command that goes on (docs/cli.md § Commands that go on), decided once for
//! both hosts: which event comes next (a due timer first, then the first changed file in the
//! byte order of the paths), when to look at the watched files again, how long to sleep. The
//! host keeps the [`WAITING`] value it is given back, looks at the files when told (a record
//! per file: its modification time, size and inode, or `null` when missing) and sleeps; the
//! operations are `cli_wait_take` and `cli_wait_next`.

use statecore::error::{Code, Error, Result};
use statecore::shape::{Field, Shape, Ty};
use statecore::{Map, Value};
use std::collections::BTreeMap;

/// How often a host looks at the watched files, in ms.
pub const POLL_MS: i64 = 100;

const STRINGS: Ty = Ty::List(&Ty::Str);
/// Records of files by path (`null`: missing).
pub const RECORDS: Ty = Ty::Map(&Ty::Nullable(&Ty::Str));

/// A pending timer.
pub static DUE: Shape = Shape::exact(
    "CliDue",
    "A timer armed by a command that goes on, pending.",
    &[
        Field::req("name", Ty::Str, "Its name, given back in the event."),
        Field::req(
            "due",
            Ty::Number,
            "When it is due, in ms on the host's clock.",
        ),
    ],
);

/// What a command that goes on waits for, kept by the host between calls.
pub static WAITING: Shape = Shape::exact(
    "CliWaiting",
    "What a command that goes on waits for: the watched paths, the record of each watched file as last delivered, the records of the last look, and the pending timers in the order they were armed. The host keeps it and gives it back; it never reads it.",
    &[
        Field::req("watch", STRINGS, "The watched files and directories."),
        Field::opt(
            "names",
            STRINGS,
            "The file names watched under a watched directory (absent: every file).",
        ),
        Field::req(
            "kept",
            RECORDS,
            "The record of each watched file as last delivered, by path (absent: missing).",
        ),
        Field::req("last", RECORDS, "The records of the last look, by path."),
        Field::req(
            "last_look",
            Ty::Number,
            "When the files were last looked at, in ms on the host's clock.",
        ),
        Field::req(
            "timers",
            Ty::List(&Ty::Object(&DUE)),
            "The pending timers, in the order they were armed.",
        ),
    ],
);

/// What the host does next.
pub static STEP: Shape = Shape::exact(
    "CliWaitStep",
    "What the host of a command that goes on does next: call the core again with `event`, look at the watched files and call `cli_wait_next` with what it saw, sleep `sleep_ms` and call `cli_wait_next` again, or end (`idle`: nothing to wait for). `waiting` replaces the one kept.",
    &[
        Field::req("waiting", Ty::Object(&WAITING), "What is waited for now."),
        Field::opt(
            "event",
            Ty::Object(&super::shapes::EVENT),
            "The next event: call the core again with it in `facts.event`.",
        ),
        Field::opt(
            "look",
            Ty::Bool,
            "Look at the watched files (`look`: the records by path) and call again with them.",
        ),
        Field::opt(
            "sleep_ms",
            Ty::Whole(1),
            "Sleep this long (ms), then call again.",
        ),
        Field::opt("idle", Ty::Bool, "Nothing is watched and no timer pending: the command ends."),
    ],
);

/// The wait, read from its value.
struct Waiting {
    watch: Vec<String>,
    names: Option<Vec<String>>,
    kept: BTreeMap<String, String>,
    last: BTreeMap<String, String>,
    last_look: f64,
    timers: Vec<(String, f64)>,
}

impl Waiting {
    /// Nothing waited for yet.
    fn new() -> Waiting {
        Waiting {
            watch: Vec::new(),
            names: None,
            kept: BTreeMap::new(),
            last: BTreeMap::new(),
            last_look: 0.0,
            timers: Vec::new(),
        }
    }

    /// Read from a value checked against [`WAITING`].
    fn read(value: &Value) -> Waiting {
        let timers = list(value.get("timers"))
            .filter_map(|t| Some((text(t.get("name"))?, t.get("due")?.as_f64()?)))
            .collect();
        Waiting {
            watch: strings(value.get("watch")).unwrap_or_default(),
            names: strings(value.get("names")),
            kept: records(value.get("kept")),
            last: records(value.get("last")),
            last_look: value
                .get("last_look")
                .and_then(Value::as_f64)
                .unwrap_or(0.0),
            timers,
        }
    }

    /// As a [`WAITING`] value.
    fn value(&self) -> Value {
        let mut map = Map::new();
        let texts =
            |list: &[String]| Value::Array(list.iter().map(|s| Value::from(s.as_str())).collect());
        map.insert("watch".into(), texts(&self.watch));
        if let Some(names) = &self.names {
            map.insert("names".into(), texts(names));
        }
        map.insert("kept".into(), records_value(&self.kept));
        map.insert("last".into(), records_value(&self.last));
        map.insert("last_look".into(), number(self.last_look));
        let timers = self.timers.iter().map(|(name, due)| {
            let mut timer = Map::new();
            timer.insert("name".into(), Value::from(name.as_str()));
            timer.insert("due".into(), number(*due));
            Value::Object(timer)
        });
        map.insert("timers".into(), Value::Array(timers.collect()));
        Value::Object(map)
    }

    /// True when `path` is one of the paths `watch` and `names` make watched.
    fn watched(path: &str, watch: &[String], names: Option<&[String]>) -> bool {
        let name = path.rsplit('/').next().unwrap_or(path);
        let named = names.is_none_or(|names| names.iter().any(|w| name_wanted(w, name)));
        watch
            .iter()
            .any(|item| path == item || (named && path.starts_with(&under(item))))
    }

    /// Takes an answer's `then` with the records `seen` of its watched files now: its watched
    /// paths replace the previous ones, its timers are armed. A path watched before keeps its
    /// record (none: missing, so that a file that appeared meanwhile is still a change); a path
    /// watched anew is recorded as it is now.
    fn take(&mut self, then: &Value, seen: BTreeMap<String, String>, now: f64) {
        let watch = strings(then.get("watch")).unwrap_or_default();
        let names = strings(then.get("names"));
        let mut kept: BTreeMap<String, String> = std::mem::take(&mut self.kept)
            .into_iter()
            .filter(|(path, _)| Self::watched(path, &watch, names.as_deref()))
            .collect();
        for (path, record) in &seen {
            if !Self::watched(path, &self.watch, self.names.as_deref()) {
                kept.insert(path.clone(), record.clone());
            }
        }
        for timer in list(then.get("timers")) {
            let after = timer.get("after_ms").and_then(Value::as_f64).unwrap_or(0.0);
            if let Some(name) = text(timer.get("name")) {
                self.timers.push((name, now + after));
            }
        }
        (self.watch, self.names, self.kept, self.last, self.last_look) =
            (watch, names, kept, seen, now);
    }

    /// The index of the pending timer due first (the first armed among equals).
    fn first_timer(&self) -> Option<usize> {
        let mut first: Option<(usize, f64)> = None;
        for (index, (_, due)) in self.timers.iter().enumerate() {
            if first.is_none_or(|(_, at)| *due < at) {
                first = Some((index, *due));
            }
        }
        first.map(|(index, _)| index)
    }

    /// The records `seen` of a look at `now`: the first changed path in byte order (its record
    /// now kept), a path whose record differs from the one kept and is the same as at the
    /// previous look (a file still changing is delivered once it has stayed the same).
    fn looked(&mut self, seen: BTreeMap<String, String>, now: f64) -> Option<String> {
        let changed = self
            .kept
            .keys()
            .chain(seen.keys())
            .filter(|path| {
                let record = seen.get(*path);
                record != self.kept.get(*path) && record == self.last.get(*path)
            })
            .min()
            .cloned();
        if let Some(path) = &changed {
            match seen.get(path) {
                Some(record) => self.kept.insert(path.clone(), record.clone()),
                None => self.kept.remove(path), // the same to the next look, and nothing kept
            };
        }
        (self.last, self.last_look) = (seen, now);
        changed
    }

    /// What to do next at `now`.
    fn next(&mut self, now: f64) -> (Option<Value>, Map) {
        let mut step = Map::new();
        if self.watch.is_empty() && self.timers.is_empty() {
            step.insert("idle".into(), Value::Bool(true));
            return (None, step);
        }
        let first = self.first_timer();
        let due = first.and_then(|i| self.timers.get(i)).map(|(_, due)| *due);
        if let (Some(index), Some(due)) = (first, due) {
            if due <= now {
                let (name, _) = self.timers.remove(index);
                return (Some(event("timer", name)), step);
            }
        }
        let polling = !self.watch.is_empty();
        let poll_at = self.last_look + POLL_MS as f64;
        if polling && now >= poll_at {
            step.insert("look".into(), Value::Bool(true));
            return (None, step);
        }
        let until = match (polling, due) {
            (true, Some(due)) => poll_at.min(due),
            (true, None) => poll_at,
            (false, Some(due)) => due,
            (false, None) => now,
        };
        // A whole number of ms, at least 1 (a cast from a float saturates; it never wraps).
        let ms = (until - now).ceil().max(1.0) as u64;
        step.insert("sleep_ms".into(), Value::from(ms));
        (None, step)
    }
}

/// A time as JSON: a whole number without a fraction (`1000`, as JavaScript writes it), else
/// the shortest decimal that reads back as the same double.
fn number(ms: f64) -> Value {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53: every whole number below is exact
    if ms.fract() == 0.0 && ms.abs() < EXACT {
        Value::from(ms as i64) // exact: a whole number below 2^53
    } else {
        Value::from(ms)
    }
}

/// `{kind: value}`: an event.
fn event(kind: &str, value: String) -> Value {
    let mut map = Map::new();
    map.insert(kind.into(), Value::from(value));
    Value::Object(map)
}

/// A file named `name` is wanted by `wanted`: the name itself, or a pattern `*.jsonl` (any
/// name longer than it, ending in `.jsonl`).
fn name_wanted(wanted: &str, name: &str) -> bool {
    wanted == name
        || wanted
            .strip_prefix('*')
            .is_some_and(|end| name.len() > end.len() && name.ends_with(end))
}

/// What a listing puts before the path of a file found under `directory`.
fn under(directory: &str) -> String {
    match directory.trim_end_matches('/') {
        "" => "/".to_owned(),
        base => format!("{base}/"),
    }
}

fn list(value: Option<&Value>) -> impl Iterator<Item = &Value> {
    value.and_then(Value::as_array).into_iter().flatten()
}

fn text(value: Option<&Value>) -> Option<String> {
    value.and_then(Value::as_str).map(str::to_owned)
}

fn strings(value: Option<&Value>) -> Option<Vec<String>> {
    value
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(|s| text(Some(s))).collect())
}

/// Records by path, `null` (missing) left out.
fn records(value: Option<&Value>) -> BTreeMap<String, String> {
    value
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(path, record)| Some((path.to_string(), record.as_str()?.to_owned())))
        .collect()
}

fn records_value(records: &BTreeMap<String, String>) -> Value {
    let mut map = Map::new();
    for (path, record) in records {
        map.insert(path.as_str().into(), Value::from(record.as_str()));
    }
    Value::Object(map)
}

/// A time in ms on the host's clock (`E_ARGUMENT` when not a finite number).
fn clock(value: &Value) -> Result<f64> {
    value.as_f64().ok_or_else(|| {
        Error::new(
            Code::Argument,
            "",
            format!("at must be a number of ms on the host's clock, not {value}"),
        )
        .with_detail("argument", "at")
    })
}

/// The records a host saw, checked: an object whose values are strings or `null`
/// (`E_ARGUMENT` at the first that is not).
fn seen_records(value: &Value) -> Result<BTreeMap<String, String>> {
    let refused = |path: String, message: String| {
        Err(Error::new(Code::Argument, path, message).with_detail("argument", "seen"))
    };
    let Some(map) = value.as_object() else {
        return refused(
            String::new(),
            format!("seen must be an object of records by path, not {value}"),
        );
    };
    if let Some((path, record)) = map
        .iter()
        .find(|(_, record)| !matches!(record, Value::String(_) | Value::Null))
    {
        return refused(
            statecore::error::child_path("", path),
            format!("seen[{path:?}] must be a record (a string) or null (missing), not {record}"),
        );
    }
    Ok(records(Some(value)))
}

/// `cli_wait_take`: `waiting` (`null`: nothing waited for yet) after an answer's `then`, the
/// records `seen` of its watched files at `now` (the host looked at them before printing).
pub fn take(waiting: &Value, then: &Value, seen: &Value, now: &Value) -> Result<Value> {
    let mut w = match waiting {
        Value::Null => Waiting::new(),
        value => Waiting::read(value),
    };
    w.take(then, seen_records(seen)?, clock(now)?);
    Ok(w.value())
}

/// `cli_wait_next`: what to do next at `now`; `seen`, when given, are the records of the look
/// the previous step asked for.
pub fn next(waiting: &Value, now: &Value, seen: &Value) -> Result<Value> {
    let mut w = Waiting::read(waiting);
    let now = clock(now)?;
    let (event, mut step) = match seen {
        Value::Null => w.next(now),
        seen => match w.looked(seen_records(seen)?, now) {
            Some(path) => (Some(event("path", path)), Map::new()),
            None => w.next(now),
        },
    };
    if let Some(event) = event {
        step.insert("event".into(), event);
    }
    step.insert("waiting".into(), w.value());
    Ok(Value::Object(step))
}
