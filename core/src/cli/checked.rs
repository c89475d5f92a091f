//! A file checked for `validate` and `show`: a document read as its kind, or a log read
//! record by record (`EVENTS.jsonl`), each problem placed at its line and column in the file.

use super::log_check::LogCheck;
use super::out::{clean, Style};
use crate::error::Error;
use crate::kinds::LogFile;
use crate::report::Issue;
use crate::{document, jsonl, kinds, Map, Value};

/// What a file is checked as.
#[derive(Debug, Clone, Copy)]
pub enum Target {
    /// A document of a kind.
    Document(&'static str),
    /// A JSONL log whose records are of a kind, and the log it is known as (replayed too).
    Log(&'static str, Option<LogFile>),
}

impl Target {
    /// What a file named `path` is: from `--kind` (`forced`; a `.jsonl` file is then a log of
    /// records of that kind), else from its path (`loose`: its name alone will do).
    pub fn of(path: &str, forced: Option<&'static str>, loose: bool) -> Option<Target> {
        let log = kinds::log_for_path(path);
        match forced {
            Some(kind) if log.is_some_and(|l| l.record == kind) => Some(Target::Log(kind, log)),
            Some(kind) if log.is_some() || path.ends_with(".jsonl") => {
                Some(Target::Log(kind, None))
            }
            Some(kind) => Some(Target::Document(kind)),
            None => log
                .map(|l| Target::Log(l.record, Some(l)))
                .or_else(|| kinds::kind_for_path(path, loose).map(Target::Document)),
        }
    }
}

/// A problem and its place in the file (line, column; 1-based).
pub struct Placed {
    /// The problem.
    pub issue: Issue,
    /// Its line and column, when it has a place.
    pub at: Option<(usize, usize)>,
}

impl Placed {
    /// `{code, path, message, line, column}`, as `--json` gives it.
    pub fn to_value(&self) -> Value {
        let i = &self.issue;
        let mut map = Map::new();
        map.insert("code".into(), Value::from(i.code.as_str()));
        map.insert("path".into(), Value::from(i.path.as_str()));
        map.insert("message".into(), Value::from(i.message.as_str()));
        let (line, column) = match self.at {
            Some((l, c)) => (Value::from(l as u64), Value::from(c as u64)),
            None => (Value::Null, Value::Null),
        };
        map.insert("line".into(), line);
        map.insert("column".into(), column);
        Value::Object(map)
    }

    /// The problem [`Placed::to_value`] gave, or `None` when `value` is not one.
    pub fn from_value(value: &Value) -> Option<Placed> {
        let text = |key: &str| value.get(key)?.as_str().map(str::to_owned);
        let number = |key: &str| usize::try_from(value.get(key)?.as_u64()?).ok();
        Some(Placed {
            issue: Issue {
                code: text("code")?,
                path: text("path")?,
                message: text("message")?,
            },
            at: number("line").map(|l| (l, number("column").unwrap_or(1))),
        })
    }
}

/// A file checked.
pub struct Checked {
    /// The path as given.
    pub path: String,
    /// The kind of the document, or of the log's records.
    pub kind: &'static str,
    /// True for a log.
    pub is_log: bool,
    /// For a log that reads: how many records it holds.
    pub records: Option<usize>,
    /// The document, when the text reads as the kind (a log's: its records).
    pub document: Option<Value>,
    /// Its errors.
    pub errors: Vec<Placed>,
    /// Its warnings.
    pub warnings: Vec<Placed>,
    /// For a known log replayed whole: `{log_offset, state}`, what its replay folds (to check
    /// the file kept with it against).
    pub replayed: Option<Value>,
}

/// The line and column an error's details give.
pub fn place_of(error: &Error) -> Option<(usize, usize)> {
    let n = |key: &str| {
        error
            .details
            .get(key)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
    };
    Some((n("line")?, n("column").unwrap_or(1)))
}

/// The problem an error is.
pub fn issue_of(error: Error) -> Issue {
    Issue {
        code: error.code.as_str().to_owned(),
        path: error.path,
        message: error.message,
    }
}

impl Checked {
    /// A file of `kind` with no problem yet.
    pub fn new(path: &str, kind: &'static str) -> Checked {
        Checked {
            path: path.to_owned(),
            kind,
            is_log: false,
            records: None,
            document: None,
            errors: Vec::new(),
            warnings: Vec::new(),
            replayed: None,
        }
    }

    /// Reads and validates `text` as `target`.
    pub fn check(path: &str, target: Target, text: &str) -> Checked {
        match target {
            Target::Document(kind) => Checked::document(path, kind, text),
            Target::Log(kind, known) => {
                let mut check = LogCheck::new(path, Some(kind), known);
                let mut records = Vec::new();
                check.part(text, true, Some(&mut records));
                check.into_checked(path, Some(records))
            }
        }
    }

    /// Reads and validates `data` as `target`; bytes that are not UTF-8 text are the error
    /// the parser reports for them (with its line and column).
    pub fn check_bytes(path: &str, target: Target, data: &[u8]) -> Checked {
        if let Ok(text) = std::str::from_utf8(data) {
            return Checked::check(path, target, text);
        }
        let (kind, is_log) = match target {
            Target::Document(kind) => (kind, false),
            Target::Log(kind, _) => (kind, true),
        };
        let mut checked = Checked::new(path, kind);
        checked.is_log = is_log;
        let error = if is_log {
            jsonl::parse_log(data).err()
        } else {
            document::read_bytes(kind, data).err()
        };
        let error = error.unwrap_or_else(|| {
            Error::new(
                crate::Code::Parse,
                "",
                "the file's bytes are not UTF-8 text",
            )
        });
        checked.errors.push(Placed {
            at: place_of(&error),
            issue: issue_of(error),
        });
        checked
    }

    /// `text` read as a document of `kind`, each problem placed through the kind's format.
    fn document(path: &str, kind: &'static str, text: &str) -> Checked {
        let mut checked = Checked::new(path, kind);
        match document::read_bytes(kind, text.as_bytes()) {
            Ok(doc) => {
                let format = kinds::kind(kind).ok().map(|k| &k.format);
                let place = |issue: Issue| Placed {
                    at: format.and_then(|f| f.locate(text, &issue.path)),
                    issue,
                };
                if let Ok(report) = kinds::validate(kind, &doc) {
                    checked.errors = report.errors.into_iter().map(place).collect();
                    checked.warnings = report.warnings.into_iter().map(place).collect();
                }
                checked.document = Some(doc);
            }
            Err(e) => checked.errors.push(Placed {
                at: place_of(&e),
                issue: issue_of(e),
            }),
        }
        checked
    }

    /// True when it has no error (warnings allowed).
    pub fn valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// Each problem as a line: `PATH:LINE:COLUMN: error CODE POINTER: message`.
    pub fn problems(&self, style: Style) -> String {
        let path = clean(&self.path);
        let line = |placed: &Placed, label: String| {
            let issue = &placed.issue;
            let at = placed
                .at
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

    /// The verdict line: `PATH: valid (KIND)`, `PATH: invalid (KIND): 1 error, 2 warnings`
    /// (a log: `(KIND log, 3 records)`).
    pub fn verdict(&self, style: Style) -> String {
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
        let what = match (self.is_log, self.records) {
            (true, Some(n)) => format!("{} log, {}", self.kind, count(n, "record")),
            (true, None) => format!("{} log", self.kind),
            (false, _) => self.kind.to_owned(),
        };
        format!("{}: {word} ({what}){tail}\n", clean(&self.path))
    }

    /// The file as `--json` gives it: `{file, kind, valid, errors, warnings}` (a log's also
    /// `records`, its count).
    pub fn to_value(&self) -> Value {
        let issues = |list: &[Placed]| Value::Array(list.iter().map(Placed::to_value).collect());
        let mut map = Map::new();
        map.insert("file".into(), Value::from(self.path.as_str()));
        map.insert("kind".into(), Value::from(self.kind));
        if let Some(n) = self.records {
            map.insert("records".into(), Value::from(n as u64));
        }
        map.insert("valid".into(), Value::Bool(self.valid()));
        map.insert("errors".into(), issues(&self.errors));
        map.insert("warnings".into(), issues(&self.warnings));
        Value::Object(map)
    }
}
