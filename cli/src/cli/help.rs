//! The help texts, made from the command table.

use super::command::{Command, Opt};
use super::out::Style;
use super::table::{COMMANDS, GLOBAL};

/// Width the help is wrapped to.
const WIDTH: usize = 80;

/// statecore's version.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The help of statecore: every command and the options all take.
pub fn overview(style: Style) -> String {
    let mut out = format!(
        "statecore {VERSION}: the state files of multi-agent tools, checked and updated safely.\n\n\
         {} statecore COMMAND [OPTIONS] [OPERANDS]\n\n{}\n",
        style.strong("Usage:"),
        style.strong("Commands:")
    );
    let rows: Vec<(String, &str)> = COMMANDS
        .iter()
        .map(|c| (join(c.name, c.operands), c.summary))
        .collect();
    out.push_str(&columns(&rows));
    out.push_str(&format!(
        "\n{}\n",
        style.strong("Options of every command:")
    ));
    out.push_str(&options(GLOBAL));
    out.push_str(
        "\n`statecore COMMAND --help` shows a command's help; `statecore --version` its \
         version.\n",
    );
    out
}

/// The help of a group of commands (`log`): its subcommands.
pub fn group(word: &str, style: Style) -> String {
    let mut out = format!(
        "{} statecore {word} COMMAND [OPTIONS] [OPERANDS]\n\n{}\n",
        style.strong("Usage:"),
        style.strong("Commands:")
    );
    let rows: Vec<(String, &str)> = COMMANDS
        .iter()
        .filter(|c| {
            c.name
                .strip_prefix(word)
                .is_some_and(|r| r.starts_with(' '))
        })
        .map(|c| (join(c.name, c.operands), c.summary))
        .collect();
    out.push_str(&columns(&rows));
    out.push_str(&format!(
        "\n`statecore {word} COMMAND --help` shows a command's help.\n"
    ));
    out
}

/// The help of one command.
pub fn command(c: &Command, style: Style) -> String {
    let mut out = format!(
        "{} statecore {} [OPTIONS]{}\n\n{}\n\n{}\n",
        style.strong("Usage:"),
        c.name,
        if c.operands.is_empty() {
            String::new()
        } else {
            format!(" {}", c.operands)
        },
        wrap(c.summary, ""),
        wrap(c.about, "")
    );
    if let Some(values) = c.values {
        let rows: Vec<(String, &str)> = values()
            .into_iter()
            .map(|(name, what)| (name.to_owned(), what))
            .collect();
        out.push_str(&format!(
            "\n{}\n",
            style.strong(&format!("{}:", c.operands))
        ));
        out.push_str(&columns(&rows));
    }
    out.push_str(&format!("\n{}\n", style.strong("Options:")));
    let all: Vec<&Opt> = c.options.iter().chain(GLOBAL).collect();
    out.push_str(&options_of(&all));
    out
}

fn join(name: &str, operands: &str) -> String {
    if operands.is_empty() {
        name.to_owned()
    } else {
        format!("{name} {operands}")
    }
}

fn options(list: &[Opt]) -> String {
    options_of(&list.iter().collect::<Vec<_>>())
}

fn options_of(list: &[&Opt]) -> String {
    let rows: Vec<(String, &str)> = list
        .iter()
        .map(|o| {
            let name = match o.value {
                Some(v) => format!("--{} {v}", o.name),
                None => format!("--{}", o.name),
            };
            (name, o.help)
        })
        .collect();
    columns(&rows)
}

/// Two columns: names padded to the longest, texts wrapped beside them.
fn columns(rows: &[(String, &str)]) -> String {
    let width = rows
        .iter()
        .map(|(n, _)| n.chars().count())
        .max()
        .unwrap_or(0)
        .min(24);
    let indent = " ".repeat(width.saturating_add(4));
    rows.iter()
        .map(|(name, text)| {
            let pad = width.saturating_sub(name.chars().count());
            let body = wrap(text, &indent);
            let body = body.trim_start();
            if name.chars().count() > width {
                format!("  {name}\n{indent}{body}\n")
            } else {
                format!("  {name}{}  {body}\n", " ".repeat(pad))
            }
        })
        .collect()
}

/// `text` wrapped at [`WIDTH`], each line starting with `indent`.
fn wrap(text: &str, indent: &str) -> String {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let long = indent
            .chars()
            .count()
            .saturating_add(line.chars().count())
            .saturating_add(word.chars().count())
            .saturating_add(1);
        if !line.is_empty() && long > WIDTH {
            lines.push(format!("{indent}{line}"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(format!("{indent}{line}"));
    }
    lines.join("\n")
}
