//! What a command prints: its standard output and error and its exit code, styled for a
//! terminal only when colours are on, and every text that came from a file made safe to
//! print (a state file written by any agent must not drive the user's terminal).

use std::borrow::Cow;

/// A command's result, for the host to print.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Output {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// The exit code: 0 done (a valid file), 1 an invalid file, 2 usage or I/O.
    pub code: u8,
    /// How the command goes on after printing (a `CliThen`: what to watch, timers, its
    /// state); `None`: it ends with `code`.
    pub then: Option<statecore::Value>,
    /// What to serve instead of ending (`view`: a `CliServe`); `None`: nothing.
    pub serve: Option<statecore::Value>,
    /// True when what it prints is printed now though it asks for more: a page of a log's
    /// records (docs/cli.md § Logs read in pages).
    pub partial: bool,
}

/// Exit code: a file is invalid.
pub const INVALID: u8 = 1;
/// Exit code: a usage error or a file that could not be read.
pub const USAGE: u8 = 2;

impl Output {
    /// Output `stdout`, exit 0.
    pub fn text(stdout: String) -> Output {
        Output {
            stdout,
            ..Output::default()
        }
    }

    /// A usage or I/O error: `statecore: message` on standard error, exit 2.
    pub fn usage(message: &str) -> Output {
        Output {
            stderr: format!("statecore: {message}\n"),
            code: USAGE,
            ..Output::default()
        }
    }

    /// Raises the exit code to `code` (the worst outcome wins).
    pub fn worst(&mut self, code: u8) {
        self.code = self.code.max(code);
    }
}

/// How text is styled: ANSI colours, or none.
#[derive(Debug, Clone, Copy)]
pub struct Style {
    /// True when colours are on (a terminal without `NO_COLOR`, or `--color`).
    pub color: bool,
}

impl Style {
    /// `text` in SGR `code` when colours are on.
    fn paint(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\u{1b}[{code}m{text}\u{1b}[0m")
        } else {
            text.to_owned()
        }
    }

    /// An error's label.
    pub fn error(self, text: &str) -> String {
        self.paint("31", text)
    }

    /// A warning's label.
    pub fn warning(self, text: &str) -> String {
        self.paint("33", text)
    }

    /// A good outcome.
    pub fn good(self, text: &str) -> String {
        self.paint("32", text)
    }

    /// Emphasis (a heading, a name).
    pub fn strong(self, text: &str) -> String {
        self.paint("1", text)
    }
}

/// `text` safe to print: every control character (ANSI escapes, carriage returns, line
/// breaks inside a field) shown as its `\u{..}` escape, and a store URL's password as `***`
/// (`store::redact`: a path or message shown never shows one).
pub fn clean(text: &str) -> Cow<'_, str> {
    let text = statecore::store::redact(text);
    if !text.chars().any(char::is_control) {
        return text;
    }
    Cow::Owned(
        text.chars()
            .map(|c| {
                if c.is_control() {
                    c.escape_unicode().to_string()
                } else {
                    c.to_string()
                }
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn control_characters_are_shown_not_sent() {
        assert_eq!(clean("plain ✓"), "plain ✓");
        assert_eq!(clean("a\u{1b}[2Jb\nc"), "a\\u{1b}[2Jb\\u{a}c");
    }
}
