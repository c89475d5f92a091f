//! `validate` and `show`: a file read, its kind found from its path, its document (or log)
//! read and checked (`checked`), and each problem printed with its place in the file
//! (docs/cli.md).

use super::checked::{Checked, Target};
use super::host::{File, Host};
use super::info::unknown;
use super::out::{clean, Output, Style, INVALID, USAGE};
use super::table::Call;
use crate::kinds;
use crate::{document, json, Value};

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
/// read or named (standard error, exit 2), exit 1 when one checked is invalid.
pub(super) fn check_paths(
    call: &Call,
    host: &mut Host<'_>,
    forced: Option<&'static str>,
) -> (Vec<Checked>, Output) {
    let mut out = Output::default();
    let mut files: Vec<Checked> = Vec::new();
    for path in &call.operands {
        match host.read(path) {
            None => {}
            Some(File::Text(text)) => match target_of(path, forced) {
                Ok(target) => files.push(Checked::check(path, target, text)),
                Err(message) => failed(&mut out, message),
            },
            Some(File::Directory) => match host.list(path, &kinds::file_names()) {
                None => {}
                Some(Err(message)) => failed(
                    &mut out,
                    format!("{}: cannot be listed ({})", clean(path), clean(message)),
                ),
                Some(Ok(found)) => {
                    let known: Vec<(&str, Target)> = found
                        .into_iter()
                        .filter_map(|f| Target::of(f, None, false).map(|t| (f, t)))
                        .collect();
                    if known.is_empty() {
                        failed(
                            &mut out,
                            format!("{}: no file statecore knows under it", clean(path)),
                        );
                    }
                    for (file, target) in known {
                        // Found under `.`: shown as paths below it (`.fctry/state.json`).
                        let shown = match path.as_str() {
                            "." => file.strip_prefix("./").unwrap_or(file),
                            _ => file,
                        };
                        match host.read(file) {
                            Some(File::Text(text)) => {
                                files.push(Checked::check(shown, target, text));
                            }
                            Some(other) => failed(&mut out, unreadable(file, other)),
                            None => {}
                        }
                    }
                }
            },
            Some(other) => failed(&mut out, unreadable(path, other)),
        }
    }
    if files.iter().any(|f| !f.valid()) {
        out.worst(INVALID);
    }
    (files, out)
}

/// `statecore show PATH`.
pub fn show(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let forced = match forced_kind(call) {
        Ok(k) => k,
        Err(usage) => return usage,
    };
    let path = call.operands.first().map_or("", String::as_str);
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
