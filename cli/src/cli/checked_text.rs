//! A checked file as the command line prints it: each problem as a line, and the verdict.

use super::out::{clean, Style};
use statecore::checked::{Checked, Placed};

/// The command line's text of a [`Checked`] file.
pub(crate) trait CheckedText {
    /// Each problem as a line: `PATH:LINE:COLUMN: error CODE POINTER: message`.
    fn problems(&self, style: Style) -> String;
    /// The verdict line: `PATH: valid (KIND)`, `PATH: invalid (KIND): 1 error, 2 warnings`
    /// (a log: `(KIND log, 3 records)`).
    fn verdict(&self, style: Style) -> String;
}

impl CheckedText for Checked {
    fn problems(&self, style: Style) -> String {
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
        let what = match (self.is_log, self.records) {
            (true, Some(n)) => format!("{} log, {}", self.kind, count(n, "record")),
            (true, None) => format!("{} log", self.kind),
            (false, _) => self.kind.to_owned(),
        };
        format!("{}: {word} ({what}){tail}\n", clean(&self.path))
    }
}
