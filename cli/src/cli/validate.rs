//! `validate` and `show`: a file read, its kind found from its path, its document (or log)
//! read and checked (`checked`), and each problem printed with its place in the file
//! (docs/cli.md).

use super::checked_text::CheckedText;
use super::command::Call;
use super::host::{File, Host};
use super::info::unknown;
use super::out::{clean, Output, Style, INVALID, USAGE};
use super::pages::{self, LogRead, Printed};
use statecore::checked::{Checked, Target};
use statecore::kinds::{self, LogFile};
use statecore::{document, json, Value};

/// The kind given with `--kind`, checked: `Err` is the usage error.
pub(super) fn forced_kind(call: &Call) -> Result<Option<&'static str>, Output> {
    match call.value("kind") {
        None => Ok(None),
        Some(name) => kinds::kind(name)
            .map(|k| Some(k.name))
            .map_err(|_| Output::usage(&unknown("kind", name, &kinds::names()))),
    }
}

/// The kind of a document named on the command line, or the usage error.
pub(super) fn kind_of(path: &str, forced: Option<&'static str>) -> Result<&'static str, String> {
    forced
        .or_else(|| kinds::kind_for_path(path, true))
        .ok_or_else(|| unknown_kind(path))
}

/// What a file named on the command line is checked as, or the usage error.
fn target_of(path: &str, forced: Option<&'static str>) -> Result<Target, String> {
    Target::of(path, forced, true).ok_or_else(|| unknown_kind(path))
}

/// The usage error of a file whose kind cannot be told.
fn unknown_kind(path: &str) -> String {
    format!(
        "{}: cannot tell its kind from its name; give it with --kind KIND (see `statecore kinds`)",
        clean(path)
    )
}

/// The error line for a file that could not be read.
pub(super) fn unreadable(path: &str, file: File<'_>) -> String {
    let why = match file {
        File::Missing => "no such file or directory".to_owned(),
        File::Directory => "is a directory".to_owned(),
        File::Special => "not a regular file (a FIFO or a device): not read".to_owned(),
        File::NotText => "not UTF-8 text".to_owned(),
        File::Unreadable("") => "cannot be read".to_owned(),
        File::Unreadable(m) => format!("cannot be read ({m})"),
        File::Text(_) => String::new(),
    };
    format!("{}: {}", clean(path), clean(&why))
}

/// Notes a file that could not be read or named: `statecore: message`, exit 2.
fn failed(out: &mut Output, message: String) {
    out.stderr.push_str(&format!("statecore: {message}\n"));
    out.worst(USAGE);
}

/// `statecore validate PATH...`.
pub fn validate(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let forced = match forced_kind(call) {
        Ok(k) => k,
        Err(usage) => return usage,
    };
    let (files, mut out) = check_paths(call, host, forced);
    if call.flag("json") {
        let list = files.iter().map(Checked::to_value).collect();
        out.stdout = json::serialize(&Value::Array(list));
    } else {
        out.stdout = verdicts(&files, style);
    }
    out
}

/// Each file's problems and verdict, as `validate` prints them.
pub(super) fn verdicts(files: &[Checked], style: Style) -> String {
    files
        .iter()
        .map(|file| file.problems(style) + &file.verdict(style))
        .collect()
}

/// The files `validate` checks for the operands (each a file, or a directory searched for
/// every file statecore knows), checked; and the output so far: the files that could not be
/// read or named (standard error, exit 2), exit 1 when one checked is invalid. Logs are read
/// in pages (`pages`), one log reading on at a time.
pub(super) fn check_paths(
    call: &Call,
    host: &mut Host<'_>,
    forced: Option<&'static str>,
) -> (Vec<Checked>, Output) {
    let mut out = Output::default();
    let mut files: Vec<Checked> = Vec::new();
    let mut turn = true;
    for path in &call.operands {
        let checked = match target_of(path, forced) {
            Ok(target) => check_file(host, path, path, target, &mut turn),
            Err(message) => match host.read(path) {
                Some(File::Text(_)) => Some(Err(Failure::Message(message))),
                other => other.map(|file| Err(Failure::File(file))),
            },
        };
        match checked {
            None => {}
            Some(Ok(checked)) => files.push(checked),
            Some(Err(Failure::File(File::Directory))) => {
                search(host, path, &mut files, &mut out, &mut turn);
            }
            Some(Err(Failure::File(file))) => failed(&mut out, unreadable(path, file)),
            Some(Err(Failure::Message(message))) => failed(&mut out, message),
        }
    }
    agree(&mut files);
    if files.iter().any(|f| !f.valid()) {
        out.worst(INVALID);
    }
    (files, out)
}

/// Whether the replay's state is `document`, but for `session_id` (a replay names the session
/// by the log's directory as the path was given, `.` included).
fn same_state(replayed: Option<&Value>, document: &Value) -> bool {
    let (Some(Value::Object(a)), Value::Object(b)) = (replayed, document) else {
        return false;
    };
    a.len() == b.len()
        && a.iter()
            .all(|(k, v)| k == "session_id" || b.get(k) == Some(v))
}

/// Each file kept with a log checked beside it (a hive session's `STATE.json` and its
/// `EVENTS.jsonl`) checked against the log's replay: a state whose `log_offset` is not where
/// the log's lines end, or that is not what the log replays to, disagrees with its log (an
/// error at `/session_metadata/log_offset`: the next read or step rebuilds it).
fn agree(files: &mut [Checked]) {
    let replays: Vec<(String, Value)> = files
        .iter()
        .filter_map(|f| Some((f.path.clone(), f.replayed.clone()?)))
        .collect();
    for (log_path, replayed) in replays {
        let Some(log) = kinds::log_for_path(&log_path) else {
            continue;
        };
        let dir = log_path.strip_suffix(log.name).unwrap_or("");
        let Some(state) = files.iter_mut().find(|f| {
            !f.is_log
                && f.path
                    .strip_prefix(dir)
                    .is_some_and(|name| !name.contains('/'))
                && kinds::kind(f.kind).is_ok_and(|k| k.file.as_ref().and_then(|f| f.log).is_some())
        }) else {
            continue;
        };
        let Some(document) = &state.document else {
            continue;
        };
        let pointer = "/session_metadata/log_offset";
        let Some(offset) = document.pointer(pointer).and_then(Value::as_u64) else {
            continue; // written by another tool: taken as it is
        };
        let end = replayed
            .get("log_offset")
            .and_then(Value::as_u64)
            .unwrap_or(0);
        let message = if offset != end {
            format!(
                "it folds {offset} bytes of {}, whose lines end at byte {end}: the state and its \
                 log disagree (the next read or step rebuilds the state from the log)",
                log.name
            )
        } else if !same_state(replayed.get("state"), document) {
            format!(
                "it is not the state {} replays to (another writer changed one of them): the \
                 next read or step cannot tell; move STATE.json away to rebuild it from the log",
                log.name
            )
        } else {
            continue;
        };
        state.errors.push(statecore::checked::Placed {
            at: None,
            issue: statecore::report::Issue {
                code: "E_LOG_CORRUPT".into(),
                path: pointer.into(),
                message,
            },
        });
    }
}

/// Why a file named was not checked.
enum Failure<'f> {
    /// It could not be read (or is a directory).
    File(File<'f>),
    /// The usage error: its kind cannot be told, or the page size is wrong.
    Message(String),
}

/// The directory `dir` searched for every file statecore knows, each checked.
fn search(
    host: &mut Host<'_>,
    dir: &str,
    files: &mut Vec<Checked>,
    out: &mut Output,
    turn: &mut bool,
) {
    let found = match host.list(dir, &statecore::checked::places::protocol_names()) {
        None => return,
        Some(Err(message)) => {
            let message = format!("{}: cannot be listed ({})", clean(dir), clean(message));
            return failed(out, message);
        }
        Some(Ok(found)) => found,
    };
    let known: Vec<(&str, Target)> = found
        .into_iter()
        .filter_map(|f| found_target(dir, f).map(|t| (f, t)))
        .collect();
    if known.is_empty() {
        failed(
            out,
            format!("{}: no file statecore knows under it", clean(dir)),
        );
    }
    for (file, target) in known {
        // Found under `.`: shown as paths below it (`.fctry/state.json`).
        let shown = match dir {
            "." => file.strip_prefix("./").unwrap_or(file),
            _ => file,
        };
        match check_file(host, file, shown, target, turn) {
            Some(Ok(checked)) => files.push(checked),
            Some(Err(Failure::File(other))) => failed(out, unreadable(file, other)),
            Some(Err(Failure::Message(message))) => failed(out, message),
            None => {}
        }
    }
}

/// What a file found under the directory `dir` is checked as: its role's target from its path
/// below `dir` (the viewer's list of protocol files, `statecore::checked::places::ROLES`, which `validate`,
/// `watch` and the viewer share: `.fctry/events/*.jsonl` and agency's `meta.json` included,
/// the spec, text, left out); `None` for a file that is not a protocol file where it is.
pub(super) fn found_target(dir: &str, file: &str) -> Option<Target> {
    let relative = file
        .strip_prefix(dir)
        .map_or(file, |rest| rest.trim_start_matches('/'));
    statecore::checked::places::target_under(relative)
}

/// The file at `path` (shown as `shown`) checked as `target`: a document read whole, a log in
/// pages; `None` while something is asked for.
fn check_file<'f>(
    host: &mut Host<'f>,
    path: &str,
    shown: &str,
    target: Target,
    turn: &mut bool,
) -> Option<Result<Checked, Failure<'f>>> {
    match target {
        Target::Document(_) => Some(match host.read(path)? {
            File::Text(text) => Ok(Checked::check(shown, target, text)),
            other => Err(Failure::File(other)),
        }),
        Target::Log(kind, known) => {
            let page = match pages::page_bytes(host)? {
                Ok(page) => page,
                Err(message) => return Some(Err(Failure::Message(message))),
            };
            let log = LogRead {
                path,
                shown,
                kind: Some(kind),
                known,
                keep: false,
            };
            Some(pages::check_log(host, log, page, turn)?.map_err(Failure::File))
        }
    }
}

/// `statecore show PATH`.
pub fn show(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let forced = match forced_kind(call) {
        Ok(k) => k,
        Err(usage) => return usage,
    };
    let path = call.operands.first().map_or("", String::as_str);
    if let Ok(Target::Log(kind, known)) = target_of(path, forced) {
        return show_log(call, host, style, path, Some(kind), known);
    }
    let text = match host.read(path) {
        None => return Output::default(),
        Some(File::Text(text)) => text,
        Some(other) => return Output::usage(&unreadable(path, other)),
    };
    let target = match target_of(path, forced) {
        Ok(target) => target,
        Err(message) => return Output::usage(&message),
    };
    if call.flag("etag") {
        let Target::Document(kind) = target else {
            return Output::usage(&format!(
                "{}: a log has no etag (--etag is for documents)",
                clean(path)
            ));
        };
        return match document::load(kind, Some(text.as_bytes())) {
            Ok(loaded) => Output::text(format!("{}\n", loaded.etag.unwrap_or_default())),
            Err(e) => Output::usage(&format!("{}: {}", clean(path), clean(&e.message))),
        };
    }
    let checked = Checked::check(path, target, text);
    let mut out = Output {
        stderr: checked.problems(style),
        ..Output::default()
    };
    if let Some(doc) = &checked.document {
        out.stdout = json::serialize(doc);
    }
    if !checked.valid() {
        out.worst(INVALID);
    }
    out
}

/// `show PATH` of a log: read in pages, checked, then its records printed as one canonical
/// JSON array, one page per round (nothing when it is invalid).
fn show_log(
    call: &Call,
    host: &mut Host<'_>,
    style: Style,
    path: &str,
    kind: Option<&'static str>,
    known: Option<LogFile>,
) -> Output {
    let Some(checked) = read_log(host, path, kind, known) else {
        return Output::default();
    };
    let checked = match checked {
        Ok(checked) => checked,
        Err(usage) => return usage,
    };
    if call.flag("etag") {
        return Output::usage(&format!(
            "{}: a log has no etag (--etag is for documents)",
            clean(path)
        ));
    }
    let mut out = Output::default();
    if !checked.valid() {
        out.stderr = checked.problems(style);
        out.worst(INVALID);
        return out;
    }
    let problems = checked.problems(style);
    let printed = match records(host, path, checked) {
        None => return out,
        Some(Err(usage)) => return usage,
        Some(Ok(printed)) => printed,
    };
    out.stdout = pages::array_part(&printed, 1);
    if !printed.last {
        out.partial = true;
        return out;
    }
    out.stdout.push('\n');
    out.stderr = problems;
    out
}

/// The records `show` and `log read` print in this round, once the log at `path` checked
/// valid (`checked`): all of them when it was one page (kept by the check), else the next
/// page's; `None` while a page is asked for; `Err` the usage error of a log that changed.
pub(super) fn records(
    host: &mut Host<'_>,
    path: &str,
    checked: Checked,
) -> Option<Result<Printed, Output>> {
    if let Some(Value::Array(records)) = checked.document {
        return Some(Ok(Printed {
            first: true,
            records,
            before: 0,
            last: true,
        }));
    }
    let page = pages::page_bytes(host)?.ok()?;
    Some(pages::print_log(host, path, path, page)?.map_err(|message| Output::usage(&message)))
}

/// The log at `path` read in pages and checked as a log of `kind` records (`None`: only
/// read), its records kept when it is one page; `Err` is the usage error of a file that could
/// not be read; `None` while something is asked for.
pub(super) fn read_log(
    host: &mut Host<'_>,
    path: &str,
    kind: Option<&'static str>,
    known: Option<LogFile>,
) -> Option<Result<Checked, Output>> {
    let page = match pages::page_bytes(host)? {
        Ok(page) => page,
        Err(message) => return Some(Err(Output::usage(&message))),
    };
    let log = LogRead {
        path,
        shown: path,
        kind,
        known,
        keep: true,
    };
    let checked = pages::check_log(host, log, page, &mut true)?;
    Some(checked.map_err(|file| Output::usage(&unreadable(path, file))))
}
