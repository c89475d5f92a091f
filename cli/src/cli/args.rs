//! The command line parsed against the command table: the command (its words), its operands
//! and options (`--name VALUE`, `--name=VALUE`, `--` ending the options), a misspelt command
//! or option refused with the nearest known one.

use super::command::{Call, Command, Opt};
use super::table::{COMMANDS, GLOBAL};
use statecore::options::nearest;

/// What the command line asks for.
#[derive(Debug)]
pub enum Parsed {
    /// The help: of a command, or of statecore.
    Help(Option<&'static Command>),
    /// The help of a group of commands (`log`).
    GroupHelp(String),
    /// statecore's version.
    Version,
    /// A command to run, with the colour choice given (`None`: the host's default).
    Run(&'static Command, Call, Option<bool>),
    /// A usage error: the message, and the command it is about.
    Usage(String, Option<&'static Command>),
}

/// Parses `argv` (without the program's name).
pub fn parse(argv: &[String]) -> Parsed {
    let first = argv.first().map(String::as_str);
    match first {
        None => return Parsed::Usage("no command given".into(), None),
        Some("--help" | "-h" | "help") => {
            let words: Vec<String> = argv.iter().skip(1).cloned().collect();
            return match find_command(&words) {
                Some((command, _)) => Parsed::Help(Some(command)),
                None => match (group_words(&words), words.first()) {
                    (Some((prefix, _)), _) => Parsed::GroupHelp(prefix),
                    (None, Some(word)) => unknown_command(word),
                    (None, None) => Parsed::Help(None),
                },
            };
        }
        Some("--version" | "-V" | "version") => return Parsed::Version,
        _ => {}
    }
    let Some((command, used)) = find_command(argv) else {
        let Some((prefix, used)) = group_words(argv) else {
            return unknown_command(first.unwrap_or_default());
        };
        if matches!(argv.get(used).map(String::as_str), Some("--help" | "-h")) {
            return Parsed::GroupHelp(prefix);
        }
        let given = argv
            .get(used)
            .map_or(String::new(), |w| format!(" (got {w:?})"));
        return Parsed::Usage(
            format!(
                "`statecore {prefix}` takes a subcommand{given}: {}",
                group(&prefix).join(", ")
            ),
            None,
        );
    };
    parse_for(command, argv.get(used..).unwrap_or_default())
}

/// Parses the arguments `rest` of `command` (what follows its words).
pub fn parse_for(command: &'static Command, rest: &[String]) -> Parsed {
    let mut call = Call {
        operands: Vec::new(),
        options: Vec::new(),
    };
    let mut color = None;
    let mut rest = rest.iter();
    let mut options_end = false;
    while let Some(arg) = rest.next() {
        if options_end || !arg.starts_with("--") {
            call.operands.push(arg.clone());
            continue;
        }
        if arg == "--" {
            options_end = true;
            continue;
        }
        let body = arg.get(2..).unwrap_or_default();
        let (name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_owned())),
            None => (body, None),
        };
        let Some(opt) = find_option(command, name) else {
            let names: Vec<&str> = command
                .options
                .iter()
                .chain(GLOBAL)
                .map(|o| o.name)
                .collect();
            let hint =
                nearest(name, &names).map_or(String::new(), |k| format!("; did you mean --{k}?"));
            return Parsed::Usage(
                format!(
                    "unknown option --{name} for `statecore {}`{hint}",
                    command.name
                ),
                Some(command),
            );
        };
        match (opt.name, opt.value, inline) {
            ("help", _, _) => return Parsed::Help(Some(command)),
            ("color", _, None) => color = Some(true),
            ("no-color", _, None) => color = Some(false),
            (name, None, None) => call.options.push((name, None)),
            (name, None, Some(_)) => {
                return Parsed::Usage(format!("--{name} takes no value"), Some(command))
            }
            (name, Some(_), Some(value)) => call.options.push((name, Some(value))),
            (name, Some(what), None) => match rest.next() {
                Some(value) => call.options.push((name, Some(value.clone()))),
                None => {
                    return Parsed::Usage(
                        format!("--{name} needs a value: --{name} {what}"),
                        Some(command),
                    )
                }
            },
        }
    }
    let count = call.operands.len();
    if count < command.min || command.max.is_some_and(|max| count > max) {
        let wanted = match command.max {
            Some(0) => "no operand".to_owned(),
            Some(max) if max == command.min => format!("{max} operand(s): {}", command.operands),
            Some(max) if command.min == 0 => {
                format!("at most {max} operand(s): {}", command.operands)
            }
            _ => format!("at least {} operand(s): {}", command.min, command.operands),
        };
        return Parsed::Usage(
            format!("`statecore {}` takes {wanted} (got {count})", command.name),
            Some(command),
        );
    }
    Parsed::Run(command, call, color)
}

/// The usage error of an unknown command, with the nearest known one.
fn unknown_command(word: &str) -> Parsed {
    let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    let hint = nearest(word, &names).map_or(String::new(), |k| format!("; did you mean {k:?}?"));
    Parsed::Usage(format!("unknown command {word:?}{hint}"), None)
}

/// The next words of the commands in the group `words` (`log`: `append`, `read`, `repair`;
/// `fctry`: `status`, `inbox`).
fn group(words: &str) -> Vec<&'static str> {
    let mut next: Vec<&'static str> = Vec::new();
    for c in COMMANDS {
        let Some(rest) = c.name.strip_prefix(words).and_then(|r| r.strip_prefix(' ')) else {
            continue;
        };
        let word = rest.split(' ').next().unwrap_or(rest);
        if !next.contains(&word) {
            next.push(word);
        }
    }
    next
}

/// The longest run of `argv`'s first words that names a group of commands (`fctry`,
/// `fctry inbox`), and how many words it took.
fn group_words(argv: &[String]) -> Option<(String, usize)> {
    let mut found = None;
    let mut prefix = String::new();
    for (i, word) in argv.iter().enumerate() {
        if word.starts_with('-') {
            break;
        }
        if !prefix.is_empty() {
            prefix.push(' ');
        }
        prefix.push_str(word);
        if group(&prefix).is_empty() {
            break;
        }
        found = Some((prefix.clone(), i.saturating_add(1)));
    }
    found
}

/// The command whose words start `argv` (the longest), and how many words it took.
fn find_command(argv: &[String]) -> Option<(&'static Command, usize)> {
    COMMANDS
        .iter()
        .filter_map(|c| {
            let words: Vec<&str> = c.name.split(' ').collect();
            let given = argv.iter().take(words.len()).map(String::as_str);
            (given.eq(words.iter().copied())).then_some((c, words.len()))
        })
        .max_by_key(|(_, n)| *n)
}

/// The option `name` of `command`, or a global one.
fn find_option(command: &Command, name: &str) -> Option<&'static Opt> {
    let own: &'static [Opt] = command.options;
    own.iter().chain(GLOBAL).find(|o| o.name == name)
}
