//! Reading a file's text as what it is checked as: a document read and validated as its kind,
//! each problem placed through the kind's format, or a log read record by record
//! ([`super::LogCheck`]).

use super::file::{issue_of, place_of, Checked, Placed, Target};
use super::log::LogCheck;
use crate::error::Error;
use crate::report::Issue;
use crate::{document, jsonl, kinds};

impl Checked {
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
}
