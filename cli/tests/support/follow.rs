//! The Rust host's side of the commands that go on (docs/cli.md § Commands that go on), for
//! the command-line corpus: it does what the packages' hosts do, with no clock. A case's
//! `changes` are its steps; after each step, one event per changed file (in the byte order
//! of the paths; the command's own writes included), and after the last step the timers, in
//! the order they fall due (tests/README.md).

use statecore::{Map, Value};
use std::collections::BTreeMap;
use std::path::Path;

/// What a watched file holds (`None`: there is none).
type Kept = BTreeMap<String, Option<Vec<u8>>>;

/// True when a file named `name` is one of `names`: a name, or a pattern `*.jsonl`.
fn wanted(names: &[String], name: &str) -> bool {
    names.iter().any(|w| match w.strip_prefix('*') {
        Some(tail) => name.len() > tail.len() && name.ends_with(tail),
        None => w == name,
    })
}

/// The files `watch` and `names` name now, by path as the hosts list them.
pub fn look(root: &Path, watch: &[String], names: Option<&[String]>) -> Kept {
    fn walk(dir: &Path, shown: &str, names: Option<&[String]>, out: &mut Kept) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let kind = entry.file_type().unwrap();
            let below = format!("{shown}/{name}");
            if kind.is_dir() && name != ".git" && name != "node_modules" {
                walk(&entry.path(), &below, names, out);
            } else if kind.is_file() && names.is_none_or(|n| wanted(n, &name)) {
                out.insert(below, std::fs::read(entry.path()).ok());
            }
        }
    }
    let mut out = Kept::new();
    for path in watch {
        let full = root.join(path);
        if full.is_dir() {
            walk(&full, path.trim_end_matches('/'), names, &mut out);
        } else {
            out.insert(path.clone(), std::fs::read(&full).ok());
        }
    }
    out
}

/// Writes (or, for `null`, removes) a step's files.
fn apply(root: &Path, step: &Value) {
    for (file, text) in step["files"].as_object().unwrap() {
        let full = root.join(file.as_str());
        match text.as_str() {
            Some(text) => {
                std::fs::create_dir_all(full.parent().unwrap()).unwrap();
                std::fs::write(full, text).unwrap();
            }
            None => std::fs::remove_file(full).unwrap(),
        }
    }
}

/// The strings of `then[key]`.
pub fn strings(then: &Value, key: &str) -> Option<Vec<String>> {
    then.get(key).and_then(Value::as_array).map(|list| {
        list.iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect()
    })
}

/// Runs a case's command to its end: `call(wake)` answers one call (`wake`: the facts'
/// `event` and `state`); the output printed and the exit code.
pub fn drive(
    root: &Path,
    case: &Value,
    mut call: impl FnMut(&Map) -> Value,
) -> (String, String, u64) {
    let name = case["name"].as_str().unwrap();
    let steps = case
        .get("changes")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    let (mut stdout, mut stderr) = (String::new(), String::new());
    let mut kept: Option<Kept> = None;
    let mut timers: Vec<(u64, usize, String)> = Vec::new();
    let (mut clock, mut armed, mut step) = (0u64, 0usize, 0usize);
    let mut answer = call(&Map::new());
    loop {
        stdout.push_str(answer["stdout"].as_str().unwrap());
        stderr.push_str(answer["stderr"].as_str().unwrap());
        let code = answer["code"].as_u64().unwrap();
        let Some(then) = answer.get("then") else {
            return (stdout, stderr, code);
        };
        let watch = strings(then, "watch").unwrap_or_default();
        let names = strings(then, "names");
        let kept = kept.get_or_insert_with(|| look(root, &watch, names.as_deref()));
        for timer in then
            .get("timers")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let due = clock + timer["after_ms"].as_u64().unwrap();
            timers.push((due, armed, timer["name"].as_str().unwrap().to_owned()));
            armed += 1;
        }
        let event = loop {
            if watch.is_empty() && timers.is_empty() {
                return (stdout, stderr, code);
            }
            let now = look(root, &watch, names.as_deref());
            let changed = now
                .keys()
                .chain(kept.keys())
                .filter(|p| now.get(*p).cloned().flatten() != kept.get(*p).cloned().flatten())
                .min()
                .cloned();
            if let Some(path) = changed {
                match now.get(&path).cloned().flatten() {
                    Some(bytes) => kept.insert(path.clone(), Some(bytes)),
                    None => kept.remove(&path),
                };
                break statecore::json!({"path": path});
            }
            if let Some(next) = steps.get(step) {
                apply(root, next);
                step += 1;
                continue;
            }
            timers.sort();
            assert!(
                !timers.is_empty(),
                "{name}: the command would wait for ever (end it with --count)\n{stdout}{stderr}"
            );
            let (due, _, timer) = timers.remove(0);
            clock = due;
            break statecore::json!({"timer": timer});
        };
        let mut wake = Map::new();
        wake.insert("event".into(), event);
        if let Some(state) = then.get("state") {
            wake.insert("state".into(), state.clone());
        }
        answer = call(&wake);
    }
}
