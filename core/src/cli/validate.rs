//! `validate` and `show`: a file read, its kind found from its path, its document read and
//! checked, and each problem printed with its place in the file (docs/cli.md).

use super::host::{File, Host};
use super::info::unknown;
use super::out::{clean, Output, Style, INVALID, USAGE};
use super::table::Call;
use crate::error::Error;
use crate::kinds;
use crate::report::Issue;
use crate::{document, json, Map, Value};

/// A file checked.
struct Checked<'t> {
    path: String,
    kind: &'static str,
    text: &'t str,
    /// The document, when the text reads as the kind.
    document: Option<Value>,
    errors: Vec<Issue>,
    warnings: Vec<Issue>,
    /// The place of an error that made the text unreadable (its line and column).
    parse_at: Option<(usize, usize)>,
}

/// Reads and validates `text` as `kind`.
fn check<'t>(path: &str, kind: &'static str, text: &'t str) -> Checked<'t> {
    let mut checked = Checked {
        path: path.to_owned(),
        kind,
        text,
        document: None,
        errors: Vec::new(),
        warnings: Vec::new(),
        parse_at: None,
    };
    match document::read_bytes(kind, text.as_bytes()) {
        Ok(doc) => {
            if let Ok(report) = kinds::validate(kind, &doc) {
                checked.errors = report.errors;
                checked.warnings = report.warnings;
            }
            checked.document = Some(doc);
        }
        Err(e) => {
            checked.parse_at = place_of(&e);
            checked.errors.push(Issue {
                code: e.code.as_str().to_owned(),
                path: e.path.clone(),
                message: e.message,
            });
        }
    }
    checked
}

/// The line and column an error's details give.
fn place_of(error: &Error) -> Option<(usize, usize)> {
    let n = |key: &str| {
        error
            .details
            .get(key)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
    };
    Some((n("line")?, n("column")?))
}

impl Checked<'_> {
    fn valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// Where an issue is in the file.
    fn place(&self, issue: &Issue) -> Option<(usize, usize)> {
        if self.document.is_none() {
            return self.parse_at;
        }
        kinds::kind(self.kind)
            .ok()?
            .format
            .locate(self.text, &issue.path)
    }

    /// Each problem as a line: `PATH:LINE:COLUMN: error CODE POINTER: message`.
    fn problems(&self, style: Style) -> String {
        let path = clean(&self.path);
        let line = |issue: &Issue, label: String| {
            let at = self
                .place(issue)
                .map_or(String::new(), |(l, c)| format!(":{l}:{c}"));
            let pointer = if issue.path.is_empty() {
                String::new()
            } else {
                format!(" {}", clean(&issue.path))
            };
            format!(
                "{path}{at}: {label} {}{pointer}: {}\n",
                issue.code,
                clean(&issue.message)
            )
        };
        let errors = self.errors.iter().map(|i| line(i, style.error("error")));
        let warnings = self
            .warnings
            .iter()
            .map(|i| line(i, style.warning("warning")));
        errors.chain(warnings).collect()
    }

    /// The verdict line: `PATH: valid (KIND)`, `PATH: invalid (KIND): 1 error, 2 warnings`.
    fn verdict(&self, style: Style) -> String {
        let count = |n: usize, one: &str| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {one}s"),
        };
        let mut tail = Vec::new();
        if !self.errors.is_empty() {
            tail.push(count(self.errors.len(), "error"));
        }
        if !self.warnings.is_empty() {
            tail.push(count(self.warnings.len(), "warning"));
        }
        let word = if self.valid() {
            style.good("valid")
        } else {
            style.error("invalid")
        };
        let tail = if tail.is_empty() {
            String::new()
        } else {
            format!(": {}", tail.join(", "))
        };
        format!("{}: {word} ({}){tail}\n", clean(&self.path), self.kind)
    }

    /// The file as `--json` gives it.
    fn to_value(&self) -> Value {
        let issues = |list: &[Issue]| {
            Value::Array(
                list.iter()
                    .map(|i| {
                        let mut map = Map::new();
                        map.insert("code".into(), Value::from(i.code.as_str()));
                        map.insert("path".into(), Value::from(i.path.as_str()));
                        map.insert("message".into(), Value::from(i.message.as_str()));
                        let (line, column) = match self.place(i) {
                            Some((l, c)) => (Value::from(l as u64), Value::from(c as u64)),
                            None => (Value::Null, Value::Null),
                        };
                        map.insert("line".into(), line);
                        map.insert("column".into(), column);
                        Value::Object(map)
                    })
                    .collect(),
            )
        };
        let mut map = Map::new();
        map.insert("file".into(), Value::from(self.path.as_str()));
        map.insert("kind".into(), Value::from(self.kind));
        map.insert("valid".into(), Value::Bool(self.valid()));
        map.insert("errors".into(), issues(&self.errors));
        map.insert("warnings".into(), issues(&self.warnings));
        Value::Object(map)
    }
}

/// The kind given with `--kind`, checked: `Err` is the usage error.
fn forced_kind(call: &Call) -> Result<Option<&'static str>, Output> {
    match call.value("kind") {
        None => Ok(None),
        Some(name) => kinds::kind(name)
            .map(|k| Some(k.name))
            .map_err(|_| Output::usage(&unknown("kind", name, &kinds::names()))),
    }
}

/// The kind of a file named on the command line, or the usage error.
fn kind_of(path: &str, forced: Option<&'static str>) -> Result<&'static str, String> {
    forced
        .or_else(|| kinds::kind_for_path(path, true))
        .ok_or_else(|| {
            format!(
                "{}: cannot tell its kind from its name; give it with --kind KIND (see `statecore \
             kinds`)",
                clean(path)
            )
        })
}

/// The error line for a file that could not be read.
fn unreadable(path: &str, file: File<'_>) -> String {
    let why = match file {
        File::Missing => "no such file or directory".to_owned(),
        File::Directory => "is a directory".to_owned(),
        File::Special => "not a regular file (a FIFO or a device): not read".to_owned(),
        File::NotText => "not UTF-8 text".to_owned(),
        File::Unreadable("") => "cannot be read".to_owned(),
        File::Unreadable(m) => format!("cannot be read ({m})"),
        File::Text(_) => String::new(),
    };
    format!("{}: {}", clean(path), clean(&why))
}

/// Notes a file that could not be read or named: `statecore: message`, exit 2.
fn failed(out: &mut Output, message: String) {
    out.stderr.push_str(&format!("statecore: {message}\n"));
    out.worst(USAGE);
}

/// `statecore validate PATH...`.
pub fn validate(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let forced = match forced_kind(call) {
        Ok(k) => k,
        Err(usage) => return usage,
    };
    let mut out = Output::default();
    let mut files: Vec<Checked<'_>> = Vec::new();
    for path in &call.operands {
        match host.read(path) {
            None => {}
            Some(File::Text(text)) => match kind_of(path, forced) {
                Ok(kind) => files.push(check(path, kind, text)),
                Err(message) => failed(&mut out, message),
            },
            Some(File::Directory) => match host.list(path, &kinds::file_names()) {
                None => {}
                Some(Err(message)) => failed(
                    &mut out,
                    format!("{}: cannot be listed ({})", clean(path), clean(message)),
                ),
                Some(Ok(found)) => {
                    let known: Vec<(&str, &'static str)> = found
                        .into_iter()
                        .filter_map(|f| kinds::kind_for_path(f, false).map(|k| (f, k)))
                        .collect();
                    if known.is_empty() {
                        failed(
                            &mut out,
                            format!("{}: no file statecore knows under it", clean(path)),
                        );
                    }
                    for (file, kind) in known {
                        // Found under `.`: shown as paths below it (`.fctry/state.json`).
                        let shown = match path.as_str() {
                            "." => file.strip_prefix("./").unwrap_or(file),
                            _ => file,
                        };
                        match host.read(file) {
                            Some(File::Text(text)) => files.push(check(shown, kind, text)),
                            Some(other) => failed(&mut out, unreadable(file, other)),
                            None => {}
                        }
                    }
                }
            },
            Some(other) => failed(&mut out, unreadable(path, other)),
        }
    }
    if call.flag("json") {
        let list = files.iter().map(Checked::to_value).collect();
        out.stdout = json::serialize(&Value::Array(list));
    } else {
        for file in &files {
            out.stdout.push_str(&file.problems(style));
            out.stdout.push_str(&file.verdict(style));
        }
    }
    if files.iter().any(|f| !f.valid()) {
        out.worst(INVALID);
    }
    out
}

/// `statecore show PATH`.
pub fn show(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let forced = match forced_kind(call) {
        Ok(k) => k,
        Err(usage) => return usage,
    };
    let path = call.operands.first().map_or("", String::as_str);
    let text = match host.read(path) {
        None => return Output::default(),
        Some(File::Text(text)) => text,
        Some(other) => return Output::usage(&unreadable(path, other)),
    };
    let kind = match kind_of(path, forced) {
        Ok(kind) => kind,
        Err(message) => return Output::usage(&message),
    };
    let checked = check(path, kind, text);
    let mut out = Output {
        stderr: checked.problems(style),
        ..Output::default()
    };
    if let Some(doc) = &checked.document {
        out.stdout = json::serialize(doc);
    }
    if !checked.valid() {
        out.worst(INVALID);
    }
    out
}
