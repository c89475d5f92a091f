//! A file checked: what it was checked as ([`Target`]), its problems each at its place
//! ([`Placed`]), and the result ([`Checked`]).

use crate::error::Error;
use crate::kinds::{self, LogFile};
use crate::report::Issue;
use crate::{Map, Value};

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

    /// The kind it checks: its document's, or its log's records'.
    pub fn kind(self) -> &'static str {
        match self {
            Target::Document(kind) | Target::Log(kind, _) => kind,
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

    /// True when it has no error (warnings allowed).
    pub fn valid(&self) -> bool {
        self.errors.is_empty()
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
