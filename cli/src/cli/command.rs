//! What a command of the command line is: its options ([`Opt`]), a command line parsed for
//! it ([`Call`]) and its declaration ([`Command`]); the commands themselves are listed in
//! `table`.

use super::host::Host;
use super::out::{Output, Style};

/// An option of a command (`--kind KIND`).
#[derive(Debug)]
pub struct Opt {
    /// Its name, without the dashes (`kind`).
    pub name: &'static str,
    /// The name of its value (`KIND`); `None` for a flag.
    pub value: Option<&'static str>,
    /// What it does.
    pub help: &'static str,
}

/// A command line parsed for a command.
#[derive(Debug)]
pub struct Call {
    /// Its operands, in order.
    pub operands: Vec<String>,
    /// The options given, by name, with their values (`None` for a flag).
    pub options: Vec<(&'static str, Option<String>)>,
}

impl Call {
    /// True when the flag `name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.options.iter().any(|(n, _)| *n == name)
    }

    /// The value of the option `name` (the last one given).
    pub fn value(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .and_then(|(_, v)| v.as_deref())
    }
}

/// The values an operand may take, each with what it is (for the help).
pub type Values = fn() -> Vec<(&'static str, &'static str)>;

/// What runs a command: its call, the host's facts, the style.
pub type Run = fn(&Call, &mut Host<'_>, Style) -> Output;

/// A command.
#[derive(Debug)]
pub struct Command {
    /// Its words (`validate`, `fctry status`).
    pub name: &'static str,
    /// Its operands as the usage line shows them (`PATH...`).
    pub operands: &'static str,
    /// How many operands it takes at least.
    pub min: usize,
    /// How many operands it takes at most (`None`: any number).
    pub max: Option<usize>,
    /// One line on what it does.
    pub summary: &'static str,
    /// More on what it does: its output and its exit codes.
    pub about: &'static str,
    /// Its options.
    pub options: &'static [Opt],
    /// The values its operand may take, with what each is, for its help.
    pub values: Option<Values>,
    /// What runs it.
    pub run: Run,
}

/// `--json`, which many commands take.
pub(crate) const JSON: Opt = Opt {
    name: "json",
    value: None,
    help: "Print JSON for programs instead of text for people.",
};

/// `--timeout`, which the writing commands take.
pub(crate) const TIMEOUT: Opt = Opt {
    name: "timeout",
    value: Some("SECONDS"),
    help: "How long to wait for the file's lock (default: the library's, 10 s); then exit 2.",
};
