//! `fctry status`: the status line of the fctry project around a directory (docs/cli.md,
//! docs/fctry.md § Status line). The project is DIR, else the directory the session on
//! standard input names (Claude Code's statusLine protocol), else the working directory, or
//! the nearest directory above it that holds `.fctry/`; the git branch comes from the nearest
//! repository. `statecore-statusline` is this command alone.

use super::command::{Call, Command, Opt};
use super::host::{File, Host};
use super::out::{clean, Output, Style};
use super::paths;
use statecore::fctry::{self, Project, StateFile, SPEC_HEAD};
use statecore::{json, Value};

/// The `fctry status` command.
pub const STATUS: Command = Command {
    name: "fctry status",
    operands: "[DIR]",
    min: 0,
    max: Some(1),
    summary: "Print the fctry status line of the project around DIR (a shell prompt's or \
              Claude Code's status line).",
    about: "The project is DIR, else the directory named by the session JSON on standard \
            input (`workspace.current_dir`, else `cwd`: Claude Code's statusLine protocol), \
            else the working directory; the nearest directory holding .fctry/ from there up. \
            The line shows the project and its version (.fctry/config.json), the git branch, \
            the spec version and status, the context used (the session's \
            context_window.used_percentage), then the command, the chunks, the section by \
            its title (the spec's table of contents), the scenarios, the readiness, untracked \
            changes, the foreman's findings in the inbox, and the next step (derived when \
            none is set and no command runs). An unparseable or invalid state.json is marked \
            after the name. Exit 0 (the line is shown whatever the files hold), 2 when DIR \
            is not a directory.",
    options: &[
        Opt {
            name: "layout",
            value: Some("LAYOUT"),
            help: "one-row (the default) or two-rows: the project on the first row, the work \
                   on the second, as the fctry client shows them.",
        },
        Opt {
            name: "icons",
            value: None,
            help: "The fctry client's icons and dot bars instead of words (a Nerd Font shows \
                   them).",
        },
        Opt {
            name: "only-in-project",
            value: None,
            help: "Print nothing when there is no .fctry/ in DIR or above (for a prompt shown \
                   in every directory).",
        },
        Opt {
            name: "json",
            value: None,
            help: "Print the status line's summary as JSON instead.",
        },
    ],
    values: None,
    run: status,
};

/// A file's text, when it has one.
fn text(file: File<'_>) -> Option<&str> {
    match file {
        File::Text(text) => Some(text),
        _ => None,
    }
}

/// Runs `fctry status`.
fn status(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let layouts = fctry::results::LAYOUT.values;
    let layout = call.value("layout");
    if let Some(other) = layout.filter(|l| !layouts.contains(l)) {
        return Output::usage(&format!(
            "--layout takes {} (got {:?})",
            layouts.join(" or "),
            clean(other)
        ));
    }
    let Some(stdin) = host.stdin() else {
        return Output::default();
    };
    let session = stdin
        .and_then(|t| json::parse(t.as_bytes()).ok())
        .filter(Value::is_object);
    let given = call.operands.first().map(String::as_str);
    let start = given
        .or_else(|| session.as_ref().and_then(fctry::session_dir))
        .unwrap_or(".");
    let start = paths::resolve(host.cwd(), start);
    let Some(place) = find(host, &start) else {
        return Output::default();
    };
    if let Some(why) = place.start.not_a_directory() {
        return Output::usage(&format!("{}: {why}", clean(given.unwrap_or(&start))));
    }
    if place.project.is_none() && call.flag("only-in-project") {
        return Output::default();
    }
    let dir = place.project.as_deref().unwrap_or(&start);
    let fctry_dir = paths::child(dir, ".fctry");
    let mut file = |name: &str| host.read(&paths::child(&fctry_dir, name));
    let (state, config, inbox) = (file("state.json"), file("config.json"), file("inbox.json"));
    let spec = host.read_head(&paths::child(&fctry_dir, "spec.md"), SPEC_HEAD);
    let head = place.head.as_deref().map(|h| host.read(h));
    let (Some(state), Some(config), Some(inbox), Some(spec)) = (state, config, inbox, spec) else {
        return Output::default();
    };
    let git_head = match head {
        Some(None) => return Output::default(),
        Some(Some(file)) => text(file),
        None => None,
    };
    let project = Project {
        name: paths::name(dir),
        state: match state {
            File::Text(text) => StateFile::Text(text),
            File::Missing => StateFile::Missing,
            _ => StateFile::Unreadable,
        },
        config: text(config),
        spec: match spec {
            File::Missing => None,
            other => Some(text(other).unwrap_or_default()),
        },
        inbox: text(inbox),
        git_head,
        session: session.as_ref(),
    };
    let summary = fctry::project_status(&project);
    if call.flag("json") {
        return Output::text(json::serialize(&summary));
    }
    let look = fctry::Look {
        color: style.color,
        two_rows: layout == Some(fctry::TWO_ROWS),
        icons: call.flag("icons"),
    };
    let line = fctry::render_summary(&summary, look);
    // The client's look ends as the client's line does, without a line break.
    Output::text(if look.client() { line } else { line + "\n" })
}

/// Where the project and its repository are.
struct Place<'f> {
    /// The directory the search starts from, as the host found it.
    start: File<'f>,
    /// The nearest directory from there up that holds `.fctry/`.
    project: Option<String>,
    /// The repository's `HEAD` file.
    head: Option<String>,
}

/// The project and the repository around `start`: every directory from `start` up is looked
/// at in one go (`None` until the host has).
fn find<'f>(host: &mut Host<'f>, start: &str) -> Option<Place<'f>> {
    let up = paths::ancestors(start);
    let start_file = host.read(start);
    let marks: Vec<(&String, Option<File<'f>>, Option<File<'f>>)> = up
        .iter()
        .map(|dir| {
            let fctry_dir = host.read(&paths::child(dir, ".fctry"));
            let git = host.read(&paths::child(dir, ".git"));
            (dir, fctry_dir, git)
        })
        .collect();
    let start = start_file?;
    let mut place = Place {
        start,
        project: None,
        head: None,
    };
    for (dir, fctry_dir, git) in marks {
        if place.project.is_none() && fctry_dir? == File::Directory {
            place.project = Some(dir.clone());
        }
        if place.head.is_none() {
            place.head = match git? {
                File::Directory => Some(paths::child(&paths::child(dir, ".git"), "HEAD")),
                // A worktree's or submodule's `.git` file: `gitdir: PATH`.
                File::Text(link) => link.trim().strip_prefix("gitdir:").map(|target| {
                    let target = paths::resolve(Some(dir), target.trim());
                    paths::child(&target, "HEAD")
                }),
                _ => None,
            };
        }
    }
    Some(place)
}
