//! The `statecore` command line (docs/cli.md), decided here once for both packages: the
//! arguments parsed against one command table, the help made from it, each command's output
//! and exit code. The hosts (`npm/bin/statecore.cjs`, `python -m statecore`) only gather
//! facts: a command line is a [`job`] that asks the host for what the command still needs from
//! the file system (files to read, directories to list), to print, look and sleep, until it is
//! done; [`run`] is one round of it.

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
mod job;
mod locked_write;
mod logs;
mod out;
mod pages;
mod paths;
pub mod shapes;
mod specify;
pub mod store_fact;
mod table;
mod update;
mod validate;
mod view;
pub mod wait;
mod watch;
mod writes;

pub use command::{Call, Command, Opt};
pub use host::{File, Host, Need, Page, STDIN_MAX_BYTES, STDIN_WAIT_MS};
pub use job::{job, status_job};
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
/// again with it added to `facts`) or `{stdout, stderr, code}`. One round, for a tool with its
/// own I/O and for the corpus: the packages' hosts run [`job`], which keeps the facts.
pub fn run(request: &Value) -> Result<Value> {
    let request = checked(request)?;
    let parsed = args::parse(&argv_of(request));
    Ok(answer(round(
        &STATECORE,
        &parsed,
        facts_of(request),
        env_of(request),
    )))
}

/// A program of the command line: its name (in the messages of what should never happen),
/// how it parses its arguments and what a parse prints.
pub struct Program {
    /// `statecore`, `statecore-statusline`.
    pub name: &'static str,
    /// Whether its commands may go on (`then`: `watch`); the status line's never do.
    goes_on: bool,
    parse: fn(&[String]) -> Parsed,
    respond: fn(&Parsed, &mut Host<'_>, bool) -> Output,
}

/// `statecore`: every command.
pub static STATECORE: Program = Program {
    name: "statecore",
    goes_on: true,
    parse: args::parse,
    respond,
};

/// `statecore-statusline`: `fctry status` alone, its arguments the program's.
pub static STATUS: Program = Program {
    name: "statecore-statusline",
    goes_on: false,
    parse: |argv| args::parse_for(&fctry::STATUS, argv),
    respond: respond_one,
};

/// The program named `name` (a value of [`shapes::PROGRAM`]): `E_ARGUMENT` for another.
pub fn program(name: &str) -> Result<&'static Program> {
    match name {
        "statecore" => Ok(&STATECORE),
        "statecore-statusline" => Ok(&STATUS),
        _ => Err(Error::new(
            Code::Argument,
            "/program",
            format!(
                "{name:?} is not a program of the command line: statecore or statecore-statusline"
            ),
        )),
    }
}

/// The steps a command line's job (`program` on `request`) asks for, given `answers` in turn
/// (the corpus drives the job this way on every surface).
pub fn job_script(program: &str, request: &Value, answers: &[Value]) -> Result<Value> {
    Ok(statecore::job::script(
        job(self::program(program)?, request)?,
        answers,
    ))
}

/// The request, checked against its shape (`E_ARGUMENT`, `E_OPTIONS` for a misspelt key).
fn checked(request: &Value) -> Result<&Map> {
    let mut report = Report::default();
    let Some(fields) = walk(&mut report, request, &shapes::REQUEST, "") else {
        return Err(bad(&report));
    };
    if !report.valid() {
        return Err(bad(&report));
    }
    statecore::options::check_deep("command line request", request, &shapes::REQUEST)?;
    Ok(fields)
}

/// The request's arguments.
fn argv_of(request: &Map) -> Vec<String> {
    request
        .get("argv")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The request's `env`.
fn env_of(request: &Map) -> Option<&Map> {
    request.get("env").and_then(Value::as_object)
}

/// The request's `facts`.
fn facts_of(request: &Map) -> Option<&Map> {
    request.get("facts").and_then(Value::as_object)
}

/// What one run of a command over the facts gathered so far gave: its output, what it still
/// needs, what it keeps for its next round (a log read in pages) and its progress line.
struct Round {
    output: Output,
    needs: Vec<Value>,
    carry: Map,
    progress: Option<String>,
}

/// Runs the parsed command line once over the facts gathered so far, in `env`.
fn round(program: &Program, parsed: &Parsed, facts: Option<&Map>, env: Option<&Map>) -> Round {
    let flag = |key: &str| env.and_then(|e| e.get(key)).and_then(Value::as_bool) == Some(true);
    let default_color = flag("tty") && !flag("no_color");
    let mut host = Host::new(facts, env);
    let now = host.now();
    let output = match now.map(statecore::time::parse_timestamp) {
        Some(Err(e)) => Output::usage(&format!(
            "the time now ({}, from STATECORE_NOW) is not an RFC 3339 time: {}",
            clean(now.unwrap_or_default()),
            clean(&e.message)
        )),
        _ => (program.respond)(parsed, &mut host, default_color),
    };
    let (carry, progress) = host.into_carry();
    let needs = if host.wants() {
        host.into_needs()
    } else {
        Vec::new()
    };
    Round {
        output,
        needs,
        carry,
        progress,
    }
}

/// A round as [`run`] answers it.
fn answer(round: Round) -> Value {
    let Round {
        output,
        needs,
        carry,
        progress,
    } = round;
    if needs.is_empty() {
        return Value::Object(ended(output));
    }
    let mut answer = Map::new();
    answer.insert("needs".into(), Value::Array(needs));
    // A file read in pages: what the command keeps, its output so far and its progress.
    if !carry.is_empty() {
        answer.insert("carry".into(), Value::Object(carry));
    }
    partial(&mut answer, output, progress);
    Value::Object(answer)
}

/// Adds the output so far of a round that needs more (a log printed in pages) and its
/// progress line to `answer`.
fn partial(answer: &mut Map, output: Output, progress: Option<String>) {
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
}

/// A call's answer once it needs nothing more: `{stdout, stderr, code, then?, serve?}`.
fn ended(output: Output) -> Map {
    let mut answer = Map::new();
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
    answer
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

/// What a parsed command line prints.
fn respond(parsed: &Parsed, host: &mut Host<'_>, color: bool) -> Output {
    let style = Style { color };
    match parsed {
        Parsed::Help(None) => Output::text(help::overview(style)),
        Parsed::GroupHelp(word) => Output::text(help::group(word, style)),
        Parsed::Version => Output::text(format!("statecore {}\n", help::VERSION)),
        other => respond_one(other, host, color),
    }
}

/// What the parse of one command's arguments prints (no overview, group or version: the
/// status-line module links only the command it runs).
fn respond_one(parsed: &Parsed, host: &mut Host<'_>, color: bool) -> Output {
    let style = Style { color };
    match parsed {
        Parsed::Help(Some(command)) => Output::text(help::command(command, style)),
        Parsed::Usage(message, command) => {
            let more = match command {
                Some(c) => format!("see `statecore {} --help`", c.name),
                None => "see `statecore --help`".to_owned(),
            };
            Output::usage(&format!("{}\n{more}", clean(message)))
        }
        Parsed::Run(command, call, chosen) => {
            let style = Style {
                color: chosen.unwrap_or(color),
            };
            (command.run)(call, host, style)
        }
        Parsed::Help(None) | Parsed::GroupHelp(_) | Parsed::Version => {
            Output::usage("see `statecore --help`")
        }
    }
}
