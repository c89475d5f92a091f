//! A JSONL log checked part by part, for `validate` and `show`: each record validated as its
//! kind and its problems placed on its line, a torn last line a warning, a bad line before the
//! last an error that ends the check, and a known log (`EVENTS.jsonl`) replayed as its file's
//! state once every record is valid. A whole file is one part; a log read in pages is checked
//! one page per round, what it found so far kept in the answer's `carry` ([`LogCheck::carry`]).

use super::file::{issue_of, place_of, Checked, Placed};
use crate::hive::ReplayStep;
use crate::kinds::{self, LogFile};
use crate::report::Issue;
use crate::{json, jsonl, Map, Value};

/// A log's check so far.
pub struct LogCheck {
    kind: Option<&'static str>,
    known: Option<LogFile>,
    session: String,
    line: usize,
    records: usize,
    errors: Vec<Placed>,
    warnings: Vec<Placed>,
    replay: Option<Value>,
    /// What the whole replay folded: `{log_offset, state}`.
    folded: Option<Value>,
    ended: bool,
}

impl LogCheck {
    /// The check of the log at `path`, whose records are of `kind` (`None`: any JSON, each
    /// line only read; `known`: the log it is known as, replayed too).
    pub fn new(path: &str, kind: Option<&'static str>, known: Option<LogFile>) -> LogCheck {
        // The session is named by the log's directory (`<sessions>/<session_id>/EVENTS.jsonl`).
        let session = path
            .rsplit('/')
            .skip(1)
            .find(|p| !p.is_empty() && *p != ".")
            .unwrap_or("session");
        LogCheck {
            kind,
            known,
            session: session.to_owned(),
            line: 0,
            records: 0,
            errors: Vec::new(),
            warnings: Vec::new(),
            replay: None,
            folded: None,
            ended: false,
        }
    }

    /// The same check, its first part starting after the log's first `lines` lines (a
    /// watcher reading only what was appended since it last read).
    pub fn after(mut self, lines: usize) -> LogCheck {
        self.line = lines;
        self
    }

    /// True when a bad line ended the check: the parts after it are not read.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// The line the next part starts at (1-based).
    pub fn next_line(&self) -> usize {
        self.line.saturating_add(1)
    }

    /// Checks the next part of the log, `text` (whole lines unless it is the `last`); its
    /// records are added to `keep` when given.
    pub fn part(&mut self, text: &str, last: bool, keep: Option<&mut Vec<Value>>) {
        if self.ended {
            return;
        }
        let first = self.next_line();
        let log = match jsonl::parse_log_from(text.as_bytes(), first) {
            Ok(log) => log,
            Err(e) => {
                self.errors.push(Placed {
                    at: place_of(&e),
                    issue: issue_of(e),
                });
                self.ended = true;
                return;
            }
        };
        if let Some(kind) = self.kind {
            self.place(kind, text, first, &log);
        }
        if let Some((line, _)) = log.torn {
            self.warnings.push(torn_tail(line));
        }
        self.records = self.records.saturating_add(log.records.len());
        if let Some(keep) = keep {
            keep.extend(log.records);
        }
        self.line = self
            .line
            .saturating_add(text.bytes().filter(|&b| b == b'\n').count());
        self.replay_part(text, last);
    }

    /// Each record of a part (`log`, read from `text`, whose first line is `first`) validated
    /// as `kind`, its problems placed on its line.
    fn place(&mut self, kind: &str, text: &str, first: usize, log: &jsonl::Log) {
        let lines: Vec<&str> = text.split('\n').collect();
        for (record, &line) in log.records.iter().zip(&log.lines) {
            let Ok(report) = kinds::validate(kind, record) else {
                continue;
            };
            let source = lines.get(line.saturating_sub(first)).copied().unwrap_or("");
            let place = |issue: Issue| Placed {
                at: Some((
                    line,
                    json::locate(source, &issue.path).map_or(1, |(_, column)| column),
                )),
                issue,
            };
            self.errors.extend(report.errors.into_iter().map(place));
            self.warnings.extend(report.warnings.into_iter().map(place));
        }
    }

    /// The part replayed (a known log whose records are all valid so far).
    fn replay_part(&mut self, text: &str, last: bool) {
        let Some(log) = self.known else {
            return;
        };
        if !self.errors.is_empty() {
            self.known = None;
            self.replay = None;
            return;
        }
        let carry = self.replay.take();
        match (log.replay)(carry.as_ref(), &self.session, text.as_bytes(), last) {
            Ok(ReplayStep::Going(carry)) => self.replay = Some(carry),
            Ok(ReplayStep::Done(recovered)) => self.recovered(&recovered),
            Err(e) => {
                self.known = None;
                self.errors.push(Placed {
                    at: place_of(&e).or(Some((1, 1))),
                    issue: issue_of(e),
                });
            }
        }
    }

    /// What the replay found: each line it refused is an error at that line, and the rebuilt
    /// state's warnings are warnings.
    fn recovered(&mut self, recovered: &Value) {
        let mut folded = Map::new();
        for key in ["log_offset", "state"] {
            folded.insert(
                key.into(),
                recovered.get(key).cloned().unwrap_or(Value::Null),
            );
        }
        self.folded = Some(Value::Object(folded));
        let list = |key: &str| {
            recovered
                .get(key)
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        };
        for skipped in list("skipped") {
            let field = |key: &str| skipped.get(key).and_then(Value::as_str).unwrap_or("");
            let line = skipped
                .get("line")
                .and_then(Value::as_u64)
                .and_then(|l| usize::try_from(l).ok());
            self.errors.push(Placed {
                at: line.map(|l| (l, 1)),
                issue: Issue {
                    code: field("code").to_owned(),
                    path: String::new(),
                    message: field("message").to_owned(),
                },
            });
        }
        for warning in list("warnings") {
            let field = |key: &str| warning.get(key).and_then(Value::as_str).unwrap_or("");
            if field("code") != "W_TORN_TAIL" {
                self.warnings.push(Placed {
                    at: None,
                    issue: Issue {
                        code: field("code").to_owned(),
                        path: field("path").to_owned(),
                        message: format!("in the state it rebuilds: {}", field("message")),
                    },
                });
            }
        }
    }

    /// Ends the check with an error that is not a line's (a line longer than a record may be,
    /// a file that changed while it was read).
    pub fn fail(&mut self, code: &str, message: String) {
        self.errors.push(Placed {
            at: Some((self.next_line(), 1)),
            issue: Issue {
                code: code.to_owned(),
                path: String::new(),
                message,
            },
        });
        self.ended = true;
    }

    /// The file checked, for `path` (`records`: the log's records when they were kept).
    pub fn into_checked(self, path: &str, records: Option<Vec<Value>>) -> Checked {
        let mut checked = Checked::new(path, self.kind.unwrap_or("json"));
        checked.is_log = true;
        if !self.ended {
            checked.records = Some(self.records);
            checked.document = records.map(Value::Array);
        }
        checked.errors = self.errors;
        checked.warnings = self.warnings;
        checked.replayed = self.folded;
        checked
    }

    /// The check so far as JSON, to go on from with [`LogCheck::resume`] in the next round.
    pub fn carry(&self) -> Value {
        let mut map = Map::new();
        map.insert("kind".into(), self.kind.map_or(Value::Null, Value::from));
        let known = self.known.map_or(Value::Null, |l| Value::from(l.name));
        map.insert("log".into(), known);
        map.insert("session".into(), Value::from(self.session.as_str()));
        map.insert("line".into(), Value::from(self.line as u64));
        map.insert("records".into(), Value::from(self.records as u64));
        let list = |placed: &[Placed]| Value::Array(placed.iter().map(Placed::to_value).collect());
        map.insert("errors".into(), list(&self.errors));
        map.insert("warnings".into(), list(&self.warnings));
        map.insert("replay".into(), self.replay.clone().unwrap_or(Value::Null));
        if let Some(folded) = &self.folded {
            map.insert("folded".into(), folded.clone());
        }
        map.insert("ended".into(), Value::Bool(self.ended));
        Value::Object(map)
    }

    /// The check [`LogCheck::carry`] gave, or `None` when `carry` is not one.
    pub fn resume(carry: &Value) -> Option<LogCheck> {
        let kind = match carry.get("kind")?.as_str() {
            None => None,
            Some(name) => Some(kinds::kind(name).ok()?.name),
        };
        let known = match carry.get("log")?.as_str() {
            None => None,
            Some(name) => Some(kinds::log_for_path(name).filter(|l| Some(l.record) == kind)?),
        };
        let count = |key: &str| usize::try_from(carry.get(key)?.as_u64()?).ok();
        let list = |key: &str| -> Option<Vec<Placed>> {
            carry
                .get(key)?
                .as_array()?
                .iter()
                .map(Placed::from_value)
                .collect()
        };
        Some(LogCheck {
            kind,
            known,
            session: carry.get("session")?.as_str()?.to_owned(),
            line: count("line")?,
            records: count("records")?,
            errors: list("errors")?,
            warnings: list("warnings")?,
            replay: carry.get("replay").filter(|r| !r.is_null()).cloned(),
            folded: carry.get("folded").filter(|r| !r.is_null()).cloned(),
            ended: carry.get("ended")?.as_bool()?,
        })
    }
}

/// The warning of a torn last line.
pub(crate) fn torn_tail(line: usize) -> Placed {
    Placed {
        at: Some((line, 1)),
        issue: Issue {
            code: "W_TORN_TAIL".into(),
            path: String::new(),
            message: "an incomplete (torn) last write, ignored by readers; `statecore log \
                      repair` or the next append cuts it off, keeping a copy"
                .into(),
        },
    }
}
