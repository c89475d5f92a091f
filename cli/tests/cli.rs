//! Runs the command-line corpus (`tests/cli/*.json`) through `statecore_cli::cli::job` (a
//! command that goes on: `cli::run` rounds) with a host written here (it reads and lists a
//! temporary directory as the packages' hosts do, and performs a locked update's system calls
//! on it: support/locked.rs), so the Rust surface gives the output the npm and Python commands
//! must give byte for byte (npm/test/cli.test.mjs, python/tests/test_cli.py run the same cases
//! as processes).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

#[path = "support/facts.rs"]
mod facts;
#[path = "support/follow.rs"]
mod follow;
#[path = "support/locked.rs"]
mod locked;
#[path = "support/writes.rs"]
mod writes;

use facts::{list_fact, page_fact, read_fact};

use statecore::{json, Map, Value};
use statecore_cli::cli;
use std::path::{Path, PathBuf};

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "statecore-cli-{}-{}",
        std::process::id(),
        name.chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect::<String>()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What a case gives its command besides files and variables.
struct Given<'c> {
    /// Standard input's text (null: a terminal).
    stdin: Value,
    /// Paths whose lock is held.
    locked: Vec<&'c str>,
    /// tmux's sessions.
    tmux: Vec<&'c str>,
}

/// The strings of a case's list `key`.
fn strings<'c>(case: &'c Value, key: &str) -> Vec<&'c str> {
    case.get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}

/// Sets the modification times a case gives (`mtimes`: path → RFC 3339).
fn set_mtimes(root: &Path, case: &Value) {
    for (file, time) in case
        .get("mtimes")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let ms = statecore::time::parse_timestamp(time.as_str().unwrap()).unwrap();
        let when = std::time::UNIX_EPOCH + std::time::Duration::from_millis(ms.try_into().unwrap());
        let handle = std::fs::File::options()
            .write(true)
            .open(root.join(file.as_str()))
            .unwrap();
        handle.set_modified(when).unwrap();
    }
}

/// The facts a host gathered: files read, directories listed, writes, variables, tmux's
/// sessions and random bytes, as `facts` holds them.
#[derive(Default)]
struct Facts {
    files: Map,
    dirs: Map,
    writes: Map,
    vars: Map,
    tmux: Option<Value>,
    random: Option<Value>,
}

impl Facts {
    /// The facts as a request's (or a `gather` answer's) `facts`.
    fn value(&self) -> Map {
        let mut facts = Map::new();
        facts.insert("files".into(), Value::Object(self.files.clone()));
        facts.insert("dirs".into(), Value::Object(self.dirs.clone()));
        facts.insert("writes".into(), Value::Object(self.writes.clone()));
        facts.insert("env".into(), Value::Object(self.vars.clone()));
        for (key, value) in [("tmux", &self.tmux), ("random", &self.random)] {
            if let Some(value) = value {
                facts.insert(key.into(), value.clone());
            }
        }
        facts
    }

    /// Gathers `need`'s fact in `root` (`env`: the case's variables).
    fn gather(&mut self, root: &Path, need: &Value, env: &Map, given: &Given<'_>) {
        let path = need["path"].as_str().unwrap();
        if let (true, Some(offset)) = (need["op"] == "read", need.get("offset")) {
            let offset = offset.as_u64().unwrap();
            let limit = need["limit"].as_u64().unwrap();
            self.files
                .insert(path.into(), page_fact(root, path, offset, limit));
        } else if need["op"] == "read" {
            let limit = need.get("limit").and_then(Value::as_u64);
            let limit = limit.map(|l| usize::try_from(l).unwrap());
            self.files.insert(path.into(), read_fact(root, path, limit));
        } else if need["op"] == "stdin" {
            // Given with every request (the case's `stdin`, else an empty pipe).
        } else if need["op"] == "env" {
            let value = env.get(path).cloned().unwrap_or(Value::Null);
            self.vars.insert(path.into(), value);
        } else if need["op"] == "random" {
            self.random = Some(Value::from("000102030405060708090a0b0c0d0e0f"));
        } else if need["op"] == "tmux" {
            self.tmux = Some(Value::Array(
                given.tmux.iter().map(|s| Value::from(*s)).collect(),
            ));
        } else if need["op"] != "list" {
            self.writes
                .insert(path.into(), writes::write_fact(root, need, &given.locked));
        } else {
            let names: Vec<&str> = need["names"]
                .as_array()
                .unwrap()
                .iter()
                .map(|n| n.as_str().unwrap())
                .collect();
            let with_dirs = need.get("dirs").and_then(Value::as_u64).unwrap_or(0) as usize;
            self.dirs
                .insert(path.into(), list_fact(root, path, &names, with_dirs));
        }
    }
}

/// The request's `env` for a case's variables.
fn request_env(root: &Path, env: &Map) -> Value {
    let no_color = env
        .get("NO_COLOR")
        .and_then(Value::as_str)
        .is_some_and(|v| !v.is_empty());
    let now = env
        .get("STATECORE_NOW")
        .cloned()
        .unwrap_or_else(|| Value::from("2026-01-01T00:00:00Z"));
    statecore::json!({"tty": false, "no_color": no_color, "now": now, "cwd": root.to_str().unwrap(), "platform": "linux"})
}

/// Runs `argv` in `root` as a host does: facts gathered until the core prints; `wake`: the
/// facts' `event` and `state` of a command that goes on. The answer without `needs`.
fn run(root: &Path, argv: &[Value], env: &Map, given: &Given<'_>, wake: &Map) -> Value {
    let mut facts = Facts::default();
    let mut carry = Value::Null;
    let (mut stdout, mut stderr) = (String::new(), String::new());
    let mut rounds = 0;
    while rounds < 16 {
        let mut gathered = facts.value();
        gathered.insert("stdin".into(), given.stdin.clone());
        for (key, value) in wake {
            gathered.insert(key.clone(), value.clone());
        }
        if !carry.is_null() {
            gathered.insert("carry".into(), carry.clone());
        }
        let request = statecore::json!({
            "argv": Value::Array(argv.to_vec()),
            "env": request_env(root, env),
            "facts": Value::Object(gathered),
        });
        let mut answer = cli::run(&request).unwrap();
        let text = |key: &str| answer.get(key).and_then(Value::as_str).unwrap_or("");
        stdout.push_str(text("stdout"));
        stderr.push_str(text("stderr"));
        let Some(needs) = answer.get("needs").and_then(Value::as_array) else {
            let map = answer.as_object_mut().unwrap();
            map.insert("stdout".into(), Value::from(stdout));
            map.insert("stderr".into(), Value::from(stderr));
            return answer;
        };
        // A round that reads a log on (it carries) is not one that keeps asking.
        carry = answer.get("carry").cloned().unwrap_or(Value::Null);
        if carry.is_null() {
            rounds += 1;
        }
        for need in needs {
            facts.gather(root, need, env, given);
        }
    }
    panic!("the command kept asking for more");
}

/// Runs `argv` in `root` as the packages' hosts do: the command line's job, each `gather`
/// answered with the facts of its needs, `look` with records of the watched files' bytes,
/// `sleep` on a clock of its own (a case without `changes` waits only for its timers). The
/// output and exit code.
fn run_job(root: &Path, argv: &[Value], env: &Map, given: &Given<'_>) -> (String, String, u64) {
    let request = statecore::json!({
        "argv": Value::Array(argv.to_vec()),
        "env": request_env(root, env),
        "facts": {"stdin": given.stdin.clone()},
    });
    let mut job = cli::job(&cli::STATECORE, &request).unwrap();
    let (mut stdout, mut stderr) = (String::new(), String::new());
    let mut answer = Value::Null;
    let mut bytes = None;
    let mut clock = 0.0_f64;
    // A locked file's lock is held by this process, a live writer; the update's own steps
    // are performed on the files, as the packages' performers do.
    for path in &given.locked {
        locked::hold(&root.join(path));
    }
    let mut writing = locked::Locked::default();
    loop {
        let step = job.next_with(answer, bytes.take()).unwrap();
        let text = |key: &str| {
            step.get(key)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        stdout.push_str(&text("stdout"));
        stderr.push_str(&text("stderr"));
        answer = match step["do"].as_str().unwrap() {
            "done" => return (stdout, stderr, step["code"].as_u64().unwrap()),
            "gather" => {
                let mut facts = Facts::default();
                for need in step["needs"].as_array().unwrap() {
                    facts.gather(root, need, env, given);
                }
                statecore::json!({"facts": Value::Object(facts.value())})
            }
            "print" => statecore::json!({"mono_ms": clock}),
            "look" => {
                let watch = follow::strings(&step, "watch").unwrap_or_default();
                let names = follow::strings(&step, "names");
                let mut seen = Map::new();
                for (path, bytes) in follow::look(root, &watch, names.as_deref()) {
                    let record = bytes.map_or(Value::Null, |b| Value::from(format!("{b:?}")));
                    seen.insert(path.into(), record);
                }
                statecore::json!({"seen": Value::Object(seen), "mono_ms": clock})
            }
            "sleep" => {
                clock += step["ms"].as_f64().unwrap();
                assert!(clock < 600_000.0, "waited ten minutes of its clock");
                statecore::json!({"mono_ms": clock})
            }
            "env" => statecore::json!({"env": request_env(root, env)}),
            _ => {
                let (answer, read) = writing.perform(&step, &mut clock);
                bytes = read;
                answer
            }
        };
    }
}

/// Checks one expectation (`stdout`, `stderr`: exact; `stdout_has`, `stderr_has`: contained
/// texts; `files`: the files' texts afterwards, `null` for none).
pub fn check(name: &str, expect: &Value, root: &Path, output: (&str, &str, u64)) {
    let (stdout, stderr, code) = output;
    assert_eq!(
        code,
        expect["code"].as_u64().unwrap(),
        "{name}: exit code\n{stdout}{stderr}"
    );
    if let Some(want) = expect.get("stdout").and_then(Value::as_str) {
        assert_eq!(stdout, want, "{name}: stdout");
    }
    if let Some(want) = expect.get("stderr").and_then(Value::as_str) {
        assert_eq!(stderr, want, "{name}: stderr");
    }
    for (key, text) in [("stdout_has", stdout), ("stderr_has", stderr)] {
        for part in expect
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let part = part.as_str().unwrap();
            assert!(text.contains(part), "{name}: {key} lacks {part:?}:\n{text}");
        }
    }
    for (file, want) in expect
        .get("files")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let got = std::fs::read_to_string(root.join(file.as_str())).ok();
        assert_eq!(
            got.as_deref(),
            want.as_str(),
            "{name}: the file {file} afterwards"
        );
    }
}

/// The variable that sets the size of a log's pages.
const PAGE_VAR: &str = "STATECORE_PAGE_BYTES";

/// Runs one case of the corpus with `env`, and checks what it expects.
fn run_case(case: &Value, env: &Map) {
    let name = case["name"].as_str().unwrap();
    let page = env.get(PAGE_VAR).and_then(Value::as_str).unwrap_or("");
    let label = format!("{name} (pages of {page} bytes)");
    let name = if page.is_empty() { name } else { &label };
    let root = scratch(name);
    for (file, text) in case
        .get("files")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let full = root.join(file.as_str());
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        std::fs::write(full, text.as_str().unwrap()).unwrap();
    }
    set_mtimes(&root, case);
    let given = Given {
        stdin: case
            .get("stdin")
            .cloned()
            .unwrap_or_else(|| Value::from("")),
        locked: strings(case, "locked"),
        tmux: strings(case, "tmux"),
    };
    let argv = case["argv"].as_array().unwrap();
    // A case runs as the packages run it, as a job; one with `changes` runs in rounds, its
    // events delivered after each change without a clock (`follow::drive`).
    let (stdout, stderr, code) = match case.get("changes") {
        None => run_job(&root, argv, env, &given),
        Some(_) => follow::drive(&root, case, |wake| run(&root, argv, env, &given, wake)),
    };
    check(name, &case["expect"], &root, (&stdout, &stderr, code));
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_command_line_corpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cli");
    let mut count = 0;
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    for path in paths {
        let corpus = json::parse(&std::fs::read(&path).unwrap()).unwrap();
        for case in corpus["cases"].as_array().unwrap() {
            let empty = Map::new();
            let env = case.get("env").and_then(Value::as_object).unwrap_or(&empty);
            // Every case again with logs read in small pages: the same output.
            let pages: &[Option<&str>] = match env.contains_key(PAGE_VAR) {
                true => &[None],
                false => &[None, Some("1"), Some("7"), Some("64")],
            };
            for page in pages {
                let mut env = env.clone();
                if let Some(page) = page {
                    env.insert(PAGE_VAR.into(), Value::from(*page));
                }
                run_case(case, &env);
                count += 1;
            }
        }
    }
    assert!(count > 30, "the corpus has {count} cases");
}

#[test]
fn the_docs_list_every_command() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/cli.md"))
            .unwrap();
    for command in cli::COMMANDS {
        let row = if command.operands.is_empty() {
            format!("| `{}` |", command.name)
        } else {
            format!("| `{} {}` |", command.name, command.operands)
        };
        assert!(docs.contains(&row), "docs/cli.md lacks the row {row}");
    }
}

#[test]
fn a_line_longer_than_the_longest_page_is_an_error_at_its_line() {
    let root = scratch("a line longer than the longest page");
    let mut log = String::from("{\"n\": 1}\n{\"text\": \"");
    log.push_str(&"x".repeat(17 * 1024 * 1024));
    log.push_str("\"}\n{\"n\": 3}\n");
    std::fs::write(root.join("big.jsonl"), log).unwrap();
    let given = Given {
        stdin: Value::from(""),
        locked: Vec::new(),
        tmux: Vec::new(),
    };
    let argv = [
        Value::from("log"),
        Value::from("read"),
        Value::from("big.jsonl"),
    ];
    let answer = run(&root, &argv, &Map::new(), &given, &Map::new());
    assert_eq!(answer["code"], Value::from(1u64));
    assert_eq!(answer["stdout"], Value::from(""));
    assert_eq!(
        answer["stderr"],
        Value::from(
            "big.jsonl:2: error E_LIMIT: line 2 is longer than 16777216 bytes, the longest line \
             the command line reads\n"
        )
    );
    std::fs::remove_dir_all(&root).unwrap();
}

#[test]
fn the_corpus_asks_every_command_and_group_for_its_help() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/cli");
    let mut asked = std::collections::BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let corpus = json::parse(&std::fs::read(&path).unwrap()).unwrap();
        for case in corpus["cases"].as_array().unwrap() {
            let argv: Vec<&str> = case["argv"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .collect();
            match argv.as_slice() {
                ["help", words @ ..] => asked.insert(words.join(" ")),
                [words @ .., "--help"] => asked.insert(words.join(" ")),
                _ => false,
            };
        }
    }
    for command in cli::COMMANDS {
        let words: Vec<&str> = command.name.split(' ').collect();
        for end in 1..=words.len() {
            let name = words[..end].join(" ");
            assert!(
                asked.contains(&name),
                "no case of tests/cli/ asks `statecore {name} --help`"
            );
        }
    }
}

/// `update --help`'s `--set` example is a real one: taken from the help text as printed, it
/// parses and applies to a fctry state with a build run, and the state written is valid.
#[test]
fn the_update_help_example_parses_and_applies() {
    let root = scratch("the update help example");
    let given = Given {
        stdin: Value::from(""),
        locked: Vec::new(),
        tmux: Vec::new(),
    };
    let help = run(
        &root,
        &[Value::from("update"), Value::from("--help")],
        &Map::new(),
        &given,
        &Map::new(),
    );
    let text = help["stdout"].as_str().unwrap();
    let example = text
        .split('`')
        .find(|part| part.starts_with('/') && part.contains('='))
        .expect("update --help shows a POINTER=JSON example");
    std::fs::create_dir_all(root.join(".fctry")).unwrap();
    let state = "{\n  \"buildRun\": {\n    \"runId\": \"run-1708012345678\",\n    \"status\": \"running\",\n    \"startedAt\": \"2026-02-17T04:00:00Z\",\n    \"chunks\": [\n      {\"id\": 1, \"name\": \"A\", \"status\": \"active\", \"attempt\": 1}\n    ]\n  }\n}\n";
    std::fs::write(root.join(".fctry/state.json"), state).unwrap();
    let argv = [
        Value::from("update"),
        Value::from(".fctry/state.json"),
        Value::from("--set"),
        Value::from(example),
    ];
    let answer = run(&root, &argv, &Map::new(), &given, &Map::new());
    assert_eq!(answer["code"], Value::from(0u64), "{example}: {answer:?}");
    let written = json::parse(&std::fs::read(root.join(".fctry/state.json")).unwrap()).unwrap();
    let (pointer, value) = example.split_once('=').unwrap();
    assert_eq!(
        written.pointer(pointer),
        Some(&json::parse(value.as_bytes()).unwrap())
    );
    assert!(statecore::fctry::validate_state(&written).valid());
    std::fs::remove_dir_all(&root).unwrap();
}
