//! Runs the command-line corpus (`tests/cli/*.json`) through the core's `cli::run` with a
//! host written here (it reads and lists a temporary directory as the packages' hosts do),
//! so the Rust surface gives the output the npm and Python commands must give byte for byte
//! (npm/test/cli.test.mjs, python/tests/test_cli.py run the same cases as processes).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use statecore::{cli, json, Map, Value};
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

/// A file as the hosts report it.
fn read_fact(root: &Path, path: &str) -> Value {
    let full = root.join(path);
    let fact = |k: &str, v: &str| {
        let mut m = Map::new();
        m.insert(k.into(), Value::from(v));
        Value::Object(m)
    };
    match std::fs::metadata(&full) {
        Err(_) => fact("error", "missing"),
        Ok(m) if m.is_dir() => fact("error", "directory"),
        Ok(m) if !m.is_file() => fact("error", "special"),
        Ok(_) => match String::from_utf8(std::fs::read(&full).unwrap()) {
            Ok(text) => fact("text", &text),
            Err(_) => fact("error", "not_text"),
        },
    }
}

/// A directory as the hosts list it.
fn list_fact(root: &Path, dir: &str, names: &[&str]) -> Value {
    fn walk(root: &Path, rel: &str, base: &str, names: &[&str], out: &mut Vec<Value>) {
        let here = if rel.is_empty() {
            root.to_path_buf()
        } else {
            root.join(rel)
        };
        for entry in std::fs::read_dir(here).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let below = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let kind = entry.file_type().unwrap();
            if kind.is_dir() && name != ".git" && name != "node_modules" {
                walk(root, &below, base, names, out);
            } else if kind.is_file() && names.contains(&name.as_str()) {
                out.push(Value::from(format!("{base}/{below}")));
            }
        }
    }
    let base = dir.trim_end_matches('/');
    let mut files = Vec::new();
    walk(&root.join(dir), "", base, names, &mut files);
    let mut m = Map::new();
    m.insert("files".into(), Value::Array(files));
    Value::Object(m)
}

/// Runs `argv` in `root` as a host does: facts gathered until the core prints.
fn run(root: &Path, argv: &[Value], env: &Map) -> (String, String, u64) {
    let no_color = env
        .get("NO_COLOR")
        .and_then(Value::as_str)
        .is_some_and(|v| !v.is_empty());
    let mut files = Map::new();
    let mut dirs = Map::new();
    for _ in 0..16 {
        let request = statecore::json!({
            "argv": Value::Array(argv.to_vec()),
            "env": {"tty": false, "no_color": no_color},
            "facts": {"files": Value::Object(files.clone()), "dirs": Value::Object(dirs.clone())},
        });
        let answer = cli::run(&request).unwrap();
        let Some(needs) = answer.get("needs").and_then(Value::as_array) else {
            let text = |k: &str| answer[k].as_str().unwrap().to_owned();
            return (
                text("stdout"),
                text("stderr"),
                answer["code"].as_u64().unwrap(),
            );
        };
        for need in needs {
            let path = need["path"].as_str().unwrap();
            if need["op"] == "read" {
                files.insert(path.into(), read_fact(root, path));
            } else {
                let names: Vec<&str> = need["names"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_str().unwrap())
                    .collect();
                dirs.insert(path.into(), list_fact(root, path, &names));
            }
        }
    }
    panic!("the command kept asking for more");
}

/// Checks one expectation (`stdout`, `stderr`: exact; `stdout_has`: contained texts).
pub fn check(name: &str, expect: &Value, stdout: &str, stderr: &str, code: u64) {
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
    for part in expect
        .get("stdout_has")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let part = part.as_str().unwrap();
        assert!(
            stdout.contains(part),
            "{name}: stdout lacks {part:?}:\n{stdout}"
        );
    }
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
            let name = case["name"].as_str().unwrap();
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
            let empty = Map::new();
            let env = case.get("env").and_then(Value::as_object).unwrap_or(&empty);
            let (stdout, stderr, code) = run(&root, case["argv"].as_array().unwrap(), env);
            check(name, &case["expect"], &stdout, &stderr, code);
            std::fs::remove_dir_all(&root).unwrap();
            count += 1;
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
