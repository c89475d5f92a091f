//! Validation reports: problems as data, all of them, never an exception (docs/conventions.md § Errors).

use crate::error::{Code, Error};
use crate::{Map, Value};

/// One problem found in a document: a stable `code`, a JSON-pointer `path`, a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Stable code (`E_REQUIRED`, `W_UNKNOWN_FIELD`, ...), listed in `docs/errors.md`.
    pub code: String,
    /// JSON pointer to the offending place (`""` for the whole document).
    pub path: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

/// The outcome of validating a document: `valid` is true when there are no errors;
/// warnings never make a document invalid.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Problems that make the document invalid, in the order they were checked.
    pub errors: Vec<Issue>,
    /// Problems worth telling a person about (unknown fields, deprecated forms).
    pub warnings: Vec<Issue>,
}

impl Report {
    /// True when there is no error.
    pub fn valid(&self) -> bool {
        self.errors.is_empty()
    }

    /// Records an error.
    pub fn error(&mut self, code: &str, path: impl Into<String>, message: impl Into<String>) {
        self.errors.push(Issue {
            code: code.to_owned(),
            path: path.into(),
            message: message.into(),
        });
    }

    /// Records a warning.
    pub fn warn(&mut self, code: &str, path: impl Into<String>, message: impl Into<String>) {
        self.warnings.push(Issue {
            code: code.to_owned(),
            path: path.into(),
            message: message.into(),
        });
    }

    /// The report as `{valid, errors: [{code, path, message}], warnings: [...]}`.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("valid".into(), Value::Bool(self.valid()));
        map.insert("errors".into(), issues_value(&self.errors));
        map.insert("warnings".into(), issues_value(&self.warnings));
        Value::Object(map)
    }
}

impl Issue {
    /// The issue as `{code, path, message}`.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("code".into(), self.code.clone().into());
        map.insert("path".into(), self.path.clone().into());
        map.insert("message".into(), self.message.clone().into());
        Value::Object(map)
    }
}

/// A list of issues as a JSON array.
pub fn issues_value(issues: &[Issue]) -> Value {
    Value::Array(issues.iter().map(Issue::to_value).collect())
}

/// `n` and `noun`, pluralised as English does for the nouns used here (`1 problem`,
/// `2 problems`, `1 argument`).
pub fn count_of(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// ` (and 1 more problem)`, ` (and 3 more problems)`, or nothing when `n` is 0: what follows
/// the first problem a message names.
pub fn more_problems(n: usize) -> String {
    if n == 0 {
        String::new()
    } else {
        format!(
            " (and {} more {})",
            n,
            if n == 1 { "problem" } else { "problems" }
        )
    }
}

/// `E_INVALID` for a document whose `report` has errors: the first problem in the message,
/// the whole report as `details`.
pub fn invalid_error(kind: &str, report: &Report) -> Error {
    refused_invalid(kind, report, "the file was left unchanged")
}

/// `E_INVALID` for a change refused because its `report` has errors; `left` says what was
/// left as it was.
pub(crate) fn refused_invalid(kind: &str, report: &Report, left: &str) -> Error {
    let first = report.errors.first().cloned();
    let mut error = Error::new(
        Code::Invalid,
        first.as_ref().map(|i| i.path.clone()).unwrap_or_default(),
        format!(
            "refused to write an invalid {kind} document: {}{}; {left}",
            first
                .map(|i| format!("{} at {:?}: {}", i.code, i.path, i.message))
                .unwrap_or_default(),
            more_problems(report.errors.len().saturating_sub(1))
        ),
    );
    error.details = report.to_value();
    error
}

#[cfg(test)]
mod plural_tests {
    use super::*;

    #[test]
    fn more_problems_is_never_zero_and_pluralises() {
        assert_eq!(more_problems(0), "");
        assert_eq!(more_problems(1), " (and 1 more problem)");
        assert_eq!(more_problems(2), " (and 2 more problems)");
        assert_eq!(count_of(1, "argument"), "1 argument");
        assert_eq!(count_of(0, "argument"), "0 arguments");
        assert_eq!(count_of(3, "argument"), "3 arguments");
    }
}
