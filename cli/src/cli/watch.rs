//! `watch PATH...` (docs/cli.md § watch): the files `validate` would check, checked once,
//! then again each time one is created, written or removed, each result printed as it comes
//! with the time (the host watches; docs/cli.md § Commands that go on).

use super::checked_text::CheckedText;
use super::command::{Call, Command, Opt, JSON};
use super::follow::{self, Then, COUNT};
use super::host::{File, Host};
use super::out::{clean, Output, Style, INVALID, USAGE};
use super::validate::{self, forced_kind, unreadable};
use statecore::checked::{Checked, Target};
use statecore::{json, Map, Value};

/// `watch PATH...`.
pub const WATCH: Command = Command {
    name: "watch",
    operands: "PATH...",
    min: 1,
    max: None,
    summary: "Check protocol files live: each change printed with its validation result.",
    about: "First prints what `validate PATH...` prints, then, each time one of the files \
            (or a file statecore knows under a directory PATH) is created, written or \
            removed, its problems and its verdict line, led by the local time \
            (`12:00:01 .fctry/state.json: valid (fctry.state)`). A burst of writes is one \
            change. Runs until Ctrl-C (exit 130), or --count changes (then exit 0 when \
            the last file printed is valid, 1 when it is not). Exit 2 at once for a path \
            that cannot be read or whose kind cannot be told.",
    options: &[
        Opt {
            name: "kind",
            value: Some("KIND"),
            help: "The document kind of the files (see `statecore kinds`), instead of the \
                   kind found from each file's path.",
        },
        COUNT,
        JSON,
    ],
    values: None,
    run: watch,
};

/// `statecore watch PATH...`.
fn watch(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let count = match follow::count(call) {
        Ok(count) => count,
        Err(usage) => return usage,
    };
    let forced = match forced_kind(call) {
        Ok(kind) => kind,
        Err(usage) => return usage,
    };
    let seen = follow::seen(host);
    let then = |seen: u64| {
        Then {
            watch: call.operands.clone(),
            names: Some(statecore::checked::places::protocol_names()),
            seen: Some(seen),
            ..Then::default()
        }
        .value(count)
    };
    let Some((path, _)) = host.event() else {
        let (files, mut out) = validate::check_paths(call, host, forced);
        if host.wants() || out.code == USAGE {
            return out;
        }
        out.stdout = if call.flag("json") {
            let clock = host.clock();
            files
                .iter()
                .map(|f| json_line(f.to_value(), &clock))
                .collect()
        } else {
            validate::verdicts(&files, style)
        };
        out.then = then(0);
        return out;
    };
    let path = path.unwrap_or("");
    let explicit = call.operands.iter().any(|p| p == path);
    // A file found under a directory named is what `validate` finds there (one list of
    // protocol files); `--kind` applies to the files named, and to those found with it given.
    let under = || {
        call.operands
            .iter()
            .filter(|dir| path.starts_with(&format!("{}/", dir.trim_end_matches('/'))))
            .find_map(|dir| validate::found_target(dir, path))
    };
    let target = match (explicit, forced) {
        (false, None) => under(),
        _ => Target::of(path, forced, explicit),
    };
    let Some(target) = target else {
        // A file with a known name that is not a protocol file where it is.
        return Output {
            then: then(seen),
            ..Output::default()
        };
    };
    let shown = shown(call, path);
    let clock = host.clock();
    let mut out = match host.read(path) {
        None => return Output::default(),
        Some(File::Text(text)) => changed(call, Checked::check(shown, target, text), &clock, style),
        Some(File::Missing) if call.flag("json") => {
            let mut map = Map::new();
            map.insert("time".into(), Value::from(clock.as_str()));
            map.insert("file".into(), Value::from(shown));
            map.insert("removed".into(), Value::Bool(true));
            Output::text(format!(
                "{}\n",
                json::serialize_compact(&Value::Object(map))
            ))
        }
        Some(File::Missing) => Output::text(format!("{clock} {}: removed\n", clean(shown))),
        Some(other) => Output {
            stderr: format!("{clock} statecore: {}\n", unreadable(shown, other)),
            code: USAGE,
            ..Output::default()
        },
    };
    out.then = then(seen.saturating_add(1));
    out
}

/// A file found under the directory `.` is shown as the path below it, as `validate` shows it.
fn shown<'p>(call: &Call, path: &'p str) -> &'p str {
    if call.operands.iter().any(|p| p == ".") {
        path.strip_prefix("./").unwrap_or(path)
    } else {
        path
    }
}

/// A changed file's result: its problems, then its verdict led by the time (`--json`: one
/// line, `validate --json`'s object with `time`).
fn changed(call: &Call, checked: Checked, clock: &str, style: Style) -> Output {
    let mut out = Output::default();
    if !checked.valid() {
        out.worst(INVALID);
    }
    if call.flag("json") {
        out.stdout = json_line(checked.to_value(), clock);
    } else {
        out.stdout = format!(
            "{}{clock} {}",
            checked.problems(style),
            checked.verdict(style)
        );
    }
    out
}

/// `object` with the time added, as one line.
fn json_line(object: Value, clock: &str) -> String {
    let mut map = Map::new();
    map.insert("time".into(), Value::from(clock));
    if let Value::Object(fields) = object {
        for (key, value) in fields {
            map.insert(key, value);
        }
    }
    format!("{}\n", json::serialize_compact(&Value::Object(map)))
}
