//! The seed corpus: inputs for every target made from the conformance corpus
//! (`tests/conformance/**/*.json`), the vendored vectors (`tests/vectors/`), the kinds'
//! default documents and the built-in machines, plus a libFuzzer dictionary per target made
//! from the operation table's manifest (names, fields, enum values).

use crate::targets;
use statecore::ops::{Args, Kind, Op, Out};
use statecore::Value;
use statecore::{json, kinds};
use statecore_cli::TABLE;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// One conformance case: its operation's name and positional arguments.
#[derive(Debug, Clone)]
pub struct Case {
    /// The case file, relative to the repository.
    pub file: String,
    /// The operation (`merge`, `update_file`, ...).
    pub op: String,
    /// The arguments as the corpus writes them.
    pub args: Vec<Value>,
}

/// The bytes of `{"hex": "..."}` (the corpus's form for bytes that are not UTF-8).
pub fn hex(v: &Value) -> Option<Vec<u8>> {
    let text = v.as_object()?.get("hex")?.as_str()?;
    if text.len() % 2 != 0 {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

impl Case {
    /// The table's operation (none for the file routines).
    pub fn operation(&self) -> Option<&'static Op> {
        TABLE.find(&self.op).ok()
    }

    /// Argument `i` as bytes: a string's UTF-8 or `{"hex": ...}`.
    pub fn bytes(&self, i: usize) -> Option<Vec<u8>> {
        match self.args.get(i)? {
            Value::String(s) => Some(s.as_bytes().to_vec()),
            other => hex(other),
        }
    }

    /// True when argument `i` is `{"hex": ...}`.
    pub fn is_hex(&self, i: usize) -> bool {
        self.args.get(i).and_then(hex).is_some()
    }

    /// The bytes of every argument at a bytes parameter of the operation.
    pub fn bytes_args(&self) -> Vec<Vec<u8>> {
        let Some(op) = self.operation() else {
            return self.bytes(2).into_iter().collect(); // a file routine's data
        };
        (op.params.iter().enumerate())
            .filter(|(_, p)| matches!(p.kind, Kind::Bytes))
            .filter_map(|(i, _)| self.bytes(i))
            .collect()
    }
}

/// The repository's root (the parent of `fuzz/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn files(dir: &Path, ext: Option<&str>, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            files(&path, ext, out);
        } else if ext.is_none_or(|ext| path.extension().is_some_and(|e| e == ext)) {
            out.push(path);
        }
    }
}

/// Every case of the conformance corpus under `root`.
pub fn cases(root: &Path) -> Vec<Case> {
    let mut paths = Vec::new();
    files(&root.join("tests/conformance"), Some("json"), &mut paths);
    let mut out = Vec::new();
    for path in paths {
        let Some(suite) = std::fs::read(&path).ok().and_then(|b| json::parse(&b).ok()) else {
            continue;
        };
        let file = path
            .strip_prefix(root)
            .unwrap_or(&path)
            .display()
            .to_string();
        for case in suite
            .get("cases")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let (Some(op), Some(args)) = (case.get("op").and_then(Value::as_str), case.get("args"))
            else {
                continue;
            };
            out.push(Case {
                file: file.clone(),
                op: op.to_owned(),
                args: args.as_array().cloned().unwrap_or_default(),
            });
        }
    }
    out
}

/// Every operation without parameters that returns a machine definition (the built-in
/// machines: a protocol's machine added to the table is picked up here).
fn builtin_machines() -> Vec<Value> {
    TABLE
        .ops()
        .filter(|op| op.params.is_empty())
        .filter_map(|op| match TABLE.call(op, Args::new(Vec::new())) {
            Ok(Out::Json(v)) if v.get("states").is_some() && v.get("transitions").is_some() => {
                Some(v)
            }
            _ => None,
        })
        .collect()
}

/// A target's seeds from one conformance case.
type SeedFn = fn(&Case, &mut Vec<Vec<u8>>);

/// The seeds of target `name`, de-duplicated, from the corpus and vectors under `root`.
pub fn seeds(name: &str, root: &Path, cases: &[Case]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    let per_case: Option<SeedFn> = match name {
        "json" => Some(targets::json::seeds),
        "merge" => Some(targets::merge::seeds),
        "kinds" => Some(targets::kinds::seeds),
        "machine" => Some(targets::machine::seeds),
        "jsonl" => Some(targets::jsonl::seeds),
        "index_md" => Some(targets::index_md::seeds),
        "hivelog" => Some(targets::hivelog::seeds),
        "ops" => Some(targets::ops::seeds),
        "view" => Some(targets::view::seeds),
        _ => None,
    };
    if let Some(f) = per_case {
        for case in cases {
            f(case, &mut out);
        }
    }
    match name {
        "json" => {
            let mut paths = Vec::new();
            files(
                &root.join("tests/vectors/JSONTestSuite/test_parsing"),
                Some("json"),
                &mut paths,
            );
            out.extend(paths.iter().filter_map(|p| std::fs::read(p).ok()));
        }
        "merge" => {
            let vectors = std::fs::read(root.join("tests/vectors/rfc7396/rfc7396_tests.json"));
            if let Some(v) = vectors.ok().and_then(|b| json::parse(&b).ok()) {
                targets::merge::rfc7396_seeds(&v, &mut out);
            }
        }
        "kinds" => {
            for kind in kinds::KINDS {
                let doc = (kind.default)();
                out.push(crate::input::join([
                    kind.name.as_bytes(),
                    &crate::input::text(&doc),
                ]));
            }
        }
        "machine" => out.extend(
            builtin_machines()
                .iter()
                .filter_map(targets::machine::definition_seed),
        ),
        "ops" => out.extend(
            TABLE
                .ops()
                .map(|op| crate::input::join([op.name().as_bytes(), b"[]"])),
        ),
        "jsonl" => out.extend(logs(cases)),
        _ => {}
    }
    let mut seen = BTreeSet::new();
    out.retain(|s| seen.insert(s.clone()));
    out
}

/// Logs made of the corpus's documents, three records each, in the shapes a reader meets:
/// complete, without the final newline, with CRLF line ends, with a torn last line.
fn logs(cases: &[Case]) -> Vec<Vec<u8>> {
    let docs: Vec<Vec<u8>> = cases
        .iter()
        .flat_map(|c| {
            c.args
                .iter()
                .filter(|a| a.is_object())
                .map(crate::input::text)
        })
        .take(60)
        .collect();
    let mut out = Vec::new();
    for chunk in docs.chunks(3) {
        let lines = chunk.join(&b'\n');
        out.push([lines.as_slice(), b"\n"].concat());
        out.push(chunk.join(&b"\r\n"[..]));
        let torn = lines.len().saturating_sub(lines.len().min(7));
        out.push(
            [
                lines.get(..torn).unwrap_or_default(),
                b"\x00{\"event\":\"next\"}",
            ]
            .concat(),
        );
    }
    out
}

const JSON_TOKENS: &[&str] = &[
    "{",
    "}",
    "[",
    "]",
    ":",
    ",",
    "\"",
    "\\\"",
    "\\\\",
    "\\/",
    "\\b",
    "\\f",
    "\\n",
    "\\r",
    "\\t",
    "\\u",
    "\\ud800",
    "\\udc00",
    "\\u0000",
    "true",
    "false",
    "null",
    "-0",
    "1e+308",
    "1E-400",
    "0.0",
    "-1",
    "9007199254740993",
    "\u{feff}",
    "\r\n",
    "\n",
];

/// Short strings of the manifest (operation, kind, field, enum and option names).
fn manifest_words() -> BTreeSet<String> {
    fn add(s: &str, out: &mut BTreeSet<String>) {
        if (2..=40).contains(&s.len()) && !s.contains(char::is_whitespace) {
            out.insert(s.to_owned());
        }
    }
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::String(s) => add(s, out),
            Value::Array(items) => items.iter().for_each(|i| walk(i, out)),
            Value::Object(map) => {
                for (k, v) in map {
                    add(k, out);
                    walk(v, out);
                }
            }
            _ => {}
        }
    }
    let mut out = BTreeSet::new();
    if let Some(op) = TABLE.ops().find(|op| op.is("manifest")) {
        if let Ok(Out::Json(m)) = TABLE.call(op, Args::new(Vec::new())) {
            walk(&m, &mut out);
        }
    }
    out
}

/// libFuzzer dictionary text for target `name`.
pub fn dictionary(name: &str) -> String {
    let mut words: BTreeSet<String> = JSON_TOKENS.iter().map(|s| (*s).to_owned()).collect();
    if !matches!(name, "json" | "jsonl") {
        for w in manifest_words() {
            words.insert(format!("\"{w}\""));
            words.insert(w); // bare: selectors (operation and kind names), event names
        }
        words.extend(
            [
                "$previous",
                "*",
                "append",
                "by_key",
                "replace",
                "merge_patch",
                "update_file",
            ]
            .map(String::from),
        );
    }
    if name == "index_md" {
        // The markdown of index.md: table pipes and delimiters, headings, cell forms.
        words.extend(
            [
                "| ", " |", "|---|", ":--", "\\|", "## ", "### ", "**", "`", "✓", "✗", " / ",
            ]
            .map(String::from),
        );
    }
    let mut text =
        format!("# libFuzzer dictionary for the {name} target (generated by fuzz/src/seeds.rs)\n");
    for w in words {
        let escaped: String = w
            .bytes()
            .map(|b| match b {
                b'"' | b'\\' => format!("\\{}", b as char),
                0x20..=0x7e => (b as char).to_string(),
                _ => format!("\\x{b:02X}"),
            })
            .collect();
        text.push_str(&format!("\"{escaped}\"\n"));
    }
    text
}
