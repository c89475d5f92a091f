//! The `statecore` command line (docs/cli.md), decided here once for both packages: the
//! arguments parsed against one command table, the help made from it, each command's output
//! and exit code. The hosts (`npm/bin/statecore.cjs`, `python -m statecore`) only gather
//! facts: [`run`] answers a request with what the command still needs from the file system
//! (files to read, directories to list) or with what to print, and the host calls it again
//! with the facts until it prints.

mod agency;
mod args;
mod checked_text;
mod command;
mod fctry;
mod follow;
mod help;
mod hive;
mod hive_tail;
mod hivemind;
mod hivemind_text;
mod host;
mod inbox;
mod info;
mod logs;
mod out;
mod pages;
mod paths;
pub mod shapes;
mod specify;
mod table;
mod update;
mod validate;
mod view;
pub mod wait;
mod watch;
mod writes;

pub use command::{Call, Command, Opt};
pub use host::{File, Host, Need, Page, STDIN_MAX_BYTES, STDIN_WAIT_MS};
pub use out::{clean, Output, Style};
pub use table::{COMMANDS, GLOBAL};

use args::Parsed;
use statecore::error::{Code, Error, Result};
use statecore::report::Report;
use statecore::shape::check::walk;
use statecore::{Map, Value};

/// Runs a command line: `request` is `{argv, env: {tty, no_color, now, cwd}, facts?: {files,
/// dirs, writes, stdin}}` (`argv` without the program's name; `tty`: standard output is a
/// terminal; `no_color`: `NO_COLOR` is set; `now`: the time, RFC 3339; `cwd`: the working
/// directory). The answer is `{needs}` (what the host must read, list or write, then call
/// again with it added to `facts`) or `{stdout, stderr, code}`.
pub fn run(request: &Value) -> Result<Value> {
    serve(request, execute)
}

/// Runs `fctry status` alone, `argv` being its arguments: `statecore-statusline`, the same
/// requests and answers as [`run`] without the other commands (a module that loads fast on
/// every prompt).
pub fn run_status(request: &Value) -> Result<Value> {
    serve(request, |argv, host, color| {
        let parsed = args::parse_for(&fctry::STATUS, argv);
        respond_one(parsed, host, color)
    })
}

/// Checks `request`, runs `command` on its arguments and facts, and answers.
fn serve(
    request: &Value,
    command: impl FnOnce(&[String], &mut Host<'_>, bool) -> Output,
) -> Result<Value> {
    let mut report = Report::default();
    let Some(fields) = walk(&mut report, request, &shapes::REQUEST, "") else {
        return Err(bad(&report));
    };
    if !report.valid() {
        return Err(bad(&report));
    }
    statecore::options::check_deep("command line request", request, &shapes::REQUEST)?;
    let request = fields;
    let argv: Vec<String> = request
        .get("argv")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    let env = request.get("env").and_then(Value::as_object);
    let flag = |key: &str| env.and_then(|e| e.get(key)).and_then(Value::as_bool) == Some(true);
    let default_color = flag("tty") && !flag("no_color");
    let mut host = Host::new(request.get("facts").and_then(Value::as_object), env);
    let now = host.now();
    let output = match now.map(statecore::time::parse_timestamp) {
        Some(Err(e)) => Output::usage(&format!(
            "the time now ({}, from STATECORE_NOW) is not an RFC 3339 time: {}",
            clean(now.unwrap_or_default()),
            clean(&e.message)
        )),
        _ => command(&argv, &mut host, default_color),
    };
    let mut answer = Map::new();
    let (carry, progress) = host.into_carry();
    if host.wants() {
        answer.insert("needs".into(), Value::Array(host.into_needs()));
        // A file read in pages: what the command keeps, its output so far and its progress.
        if !carry.is_empty() {
            answer.insert("carry".into(), Value::Object(carry));
        }
        if output.partial {
            for (key, text) in [("stdout", output.stdout), ("stderr", output.stderr)] {
                if !text.is_empty() {
                    answer.insert(key.into(), Value::from(text));
                }
            }
        }
        if let Some(progress) = progress {
            answer.insert("progress".into(), Value::from(progress));
        }
    } else {
        answer.insert("stdout".into(), Value::from(output.stdout));
        // Every message: no store URL's password (docs/store.md § Store URLs).
        let stderr = statecore::store::redact(&output.stderr).into_owned();
        answer.insert("stderr".into(), Value::from(stderr));
        answer.insert("code".into(), Value::from(u64::from(output.code)));
        if let Some(then) = output.then {
            answer.insert("then".into(), then);
        }
        if let Some(serve) = output.serve {
            answer.insert("serve".into(), serve);
        }
    }
    Ok(Value::Object(answer))
}

/// `E_ARGUMENT` for a request that is not a `CliRequest`: its first problem.
fn bad(report: &Report) -> Error {
    let first = report.errors.first();
    Error::new(
        Code::Argument,
        first.map_or("", |i| i.path.as_str()),
        format!(
            "a command line request is {{argv, env, facts}}: {}",
            first.map_or("not an object", |i| i.message.as_str())
        ),
    )
}

/// Runs `argv` with the host's facts; `color`: the host's default.
pub fn execute(argv: &[String], host: &mut Host<'_>, color: bool) -> Output {
    respond(args::parse(argv), host, color)
}

/// What a parsed command line prints.
fn respond(parsed: Parsed, host: &mut Host<'_>, color: bool) -> Output {
    let style = Style { color };
    match parsed {
        Parsed::Help(None) => Output::text(help::overview(style)),
        Parsed::GroupHelp(word) => Output::text(help::group(&word, style)),
        Parsed::Version => Output::text(format!("statecore {}\n", help::VERSION)),
        other => respond_one(other, host, color),
    }
}

/// What the parse of one command's arguments prints (no overview, group or version: the
/// status-line module links only the command it runs).
fn respond_one(parsed: Parsed, host: &mut Host<'_>, color: bool) -> Output {
    let style = Style { color };
    match parsed {
        Parsed::Help(Some(command)) => Output::text(help::command(command, style)),
        Parsed::Usage(message, command) => {
            let more = match command {
                Some(c) => format!("see `statecore {} --help`", c.name),
                None => "see `statecore --help`".to_owned(),
            };
            Output::usage(&format!("{}\n{more}", clean(&message)))
        }
        Parsed::Run(command, call, chosen) => {
            let style = Style {
                color: chosen.unwrap_or(color),
            };
            (command.run)(&call, host, style)
        }
        Parsed::Help(None) | Parsed::GroupHelp(_) | Parsed::Version => {
            Output::usage("see `statecore --help`")
        }
    }
}
