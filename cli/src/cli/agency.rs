//! `agency ls`, `agency show RUN_ID` and `agency init [DIR]` (docs/cli.md, docs/agency.md §
//! The command line): the runs the agency client keeps in its data directory
//! (`<data>/repos/<repo_id>/runs/<run_id>/meta.json`), each with its worktree's status file
//! and its tmux session, listed and shown as the client does; and the runner protocol
//! document written at a repository's root.

use super::command::{Call, Command, Opt, JSON};
use super::host::{File, Host, Need};
use super::out::{clean, Output, Style};
use super::paths;
use super::writes;
use statecore::agency::{build_snapshot, derive, meta_broken, render_ls, render_show};
use statecore::time::parse_timestamp;
use statecore::{json, Map, Value};
use std::cmp::Ordering;

const DATA_DIR: Opt = Opt {
    name: "data-dir",
    value: Some("DIR"),
    help: "agency's data directory, instead of $AGENCY_DATA_DIR, else \
           ~/Library/Application Support/agency on macOS, else $XDG_DATA_HOME/agency, else \
           ~/.local/share/agency (where agency keeps its runs).",
};

/// `agency ls`.
pub const LS: Command = Command {
    name: "agency ls",
    operands: "",
    min: 0,
    max: Some(0),
    summary: "List agency's runs with their derived status, as `agency ls` does.",
    about: "Every run of every repository in agency's data directory (the client's \
            --all-repos), newest first (by created_at; runs without one, and broken runs, \
            last), as the seed's table: RUN_ID NAME STATUS SUMMARY PR. The status is derived \
            from meta.json, the worktree's .agency/state/runner_status.json (its modification \
            time is the stall watchdog's signal) and the run's tmux session (`tmux \
            list-sessions`). Archived runs (worktree gone, or meta.json broken) are left out \
            without --all. Exit 0, 2 when the data directory cannot be read.",
    options: &[
        Opt {
            name: "all",
            value: None,
            help: "Include archived runs.",
        },
        DATA_DIR,
        JSON,
    ],
    values: None,
    run: ls,
};

/// `agency show RUN_ID`.
pub const SHOW: Command = Command {
    name: "agency show",
    operands: "RUN_ID",
    min: 1,
    max: Some(1),
    summary: "Show one agency run and what its runner reports, as `agency show` does.",
    about: "RUN_ID is a run's id, or the beginning of exactly one. Prints the run's id, \
            name, derived status and PR, why a broken meta.json is not read, and the \
            runner_status: section (status, updated: from the status file's modification \
            time, summary, questions, blockers, how_to_test, risks). Exit 0, 2 when no run \
            (or more than one) has that id or the data directory cannot be read.",
    options: &[DATA_DIR, JSON],
    values: None,
    run: show,
};

/// `agency init [DIR]`.
pub const INIT: Command = Command {
    name: "agency init",
    operands: "[DIR]",
    min: 0,
    max: Some(1),
    summary: "Write the runner protocol (CLAUDE.md) at the root of the repository around DIR.",
    about: "The repository is the nearest directory holding .git from DIR (default: the \
            working directory) up. CLAUDE.md is written only when nothing has that name: an \
            existing file is never overwritten, even by two inits at once. Prints repo_root: \
            and claude_md: created or claude_md: exists. Exit 0, 2 outside a repository or \
            when the file cannot be written.",
    options: &[],
    values: None,
    run: init,
};

/// A run found in the data directory, and what was read of it.
struct Found<'f> {
    repo_id: &'f str,
    run_id: &'f str,
    /// meta.json's text (`None`: missing or unreadable).
    meta_text: Option<&'f str>,
    /// meta.json's document (`null` when it does not parse).
    meta: Value,
}

impl Found<'_> {
    /// The worktree's path, when meta.json reads and names one.
    fn worktree(&self, host: &Host<'_>) -> Option<String> {
        if meta_broken(&self.meta) {
            return None;
        }
        let path = self.meta.get("worktree_path").and_then(Value::as_str)?;
        (!path.is_empty()).then(|| paths::resolve(host.cwd(), path))
    }

    /// When the run was created, for the order (none for a broken run).
    fn created(&self) -> Option<i64> {
        if meta_broken(&self.meta) {
            return None;
        }
        let text = self.meta.get("created_at").and_then(Value::as_str)?;
        parse_timestamp(text).ok()
    }
}

/// agency's data directory: `--data-dir`, else the client's default from the environment.
/// `None` until the host has read the variables.
fn data_dir(call: &Call, host: &mut Host<'_>) -> Option<Result<String, Output>> {
    if let Some(dir) = call.value("data-dir") {
        return Some(Ok(paths::resolve(host.cwd(), dir)));
    }
    let (agency, xdg, home) = (
        host.var("AGENCY_DATA_DIR"),
        host.var("XDG_DATA_HOME"),
        host.var("HOME"),
    );
    let (agency, xdg, home) = (agency?, xdg?, home?);
    let under = |base: &str, rest: &[&str]| {
        rest.iter()
            .fold(base.to_owned(), |dir, name| paths::child(&dir, name))
    };
    let darwin = host.platform() == Some("darwin");
    let dir = match (agency, xdg, home) {
        (Some(dir), _, _) => paths::resolve(host.cwd(), dir),
        (None, _, Some(home)) if darwin => {
            under(home, &["Library", "Application Support", "agency"])
        }
        (None, Some(xdg), _) => under(xdg, &["agency"]),
        (None, None, Some(home)) => under(home, &[".local", "share", "agency"]),
        (None, None, None) => {
            return Some(Err(Output::usage(
                "agency's data directory is unknown (no HOME): give --data-dir DIR or set \
                 AGENCY_DATA_DIR",
            )))
        }
    };
    Some(Ok(dir))
}

/// The runs under `data` (every directory `<data>/repos/<repo_id>/runs/<run_id>/`, as the Go
/// client scans them: one without a meta.json is a broken run) that `keep` accepts by their
/// ids, with their meta.json read. `None` until the host has listed and read them.
fn runs<'f>(
    host: &mut Host<'f>,
    data: &str,
    keep: impl Fn(&str) -> bool,
) -> Option<Result<Vec<Found<'f>>, Output>> {
    let repos = paths::child(data, "repos");
    // The run directories are 3 levels below `repos` (`<repo_id>/runs/<run_id>/`); the
    // worktrees beside them are not listed.
    let listed = match host.list_with_dirs(&repos, &["meta.json"], 3)? {
        Ok(files) => files,
        Err("ENOENT" | "ENOTDIR") => Vec::new(),
        Err(why) => {
            let message = format!("{}: cannot be listed ({why})", clean(&repos));
            return Some(Err(Output::usage(&message)));
        }
    };
    let prefix = format!("{repos}/");
    // Each run directory once, with its meta.json when the listing has one.
    let mut ids: Vec<(&str, &str, Option<&str>)> = Vec::new();
    for path in listed {
        let Some(rest) = path.strip_prefix(prefix.as_str()) else {
            continue;
        };
        let (repo, run, meta) = match rest.split('/').collect::<Vec<_>>().as_slice() {
            [repo, "runs", run, "meta.json"] => (*repo, *run, Some(path)),
            [repo, "runs", run, ""] => (*repo, *run, None),
            _ => continue,
        };
        if run.is_empty() || !keep(run) {
            continue;
        }
        match ids.iter_mut().find(|(r, id, _)| *r == repo && *id == run) {
            Some(known) => known.2 = known.2.or(meta),
            None => ids.push((repo, run, meta)),
        }
    }
    let read: Vec<Option<Option<File<'f>>>> = ids
        .iter()
        .map(|(_, _, meta)| meta.map(|f| host.read(f)))
        .collect();
    let mut found = Vec::new();
    for ((repo_id, run_id, _), file) in ids.into_iter().zip(read) {
        let meta_text = match file {
            Some(file) => match file? {
                File::Text(text) => Some(text),
                _ => None,
            },
            None => None,
        };
        let meta = meta_text
            .and_then(|t| json::parse(t.as_bytes()).ok())
            .unwrap_or(Value::Null);
        found.push(Found {
            repo_id,
            run_id,
            meta_text,
            meta,
        });
    }
    Some(Ok(found))
}

/// Each run's row for `render_ls` / `render_show` (`{run_id, name, pr, snapshot}`), from its
/// worktree and status file (read from the host) and the tmux sessions. `None` until the
/// host has read them.
fn rows(host: &mut Host<'_>, found: &[Found<'_>], sessions: &[&str]) -> Option<Vec<Value>> {
    let now = Value::from(host.now().unwrap_or_default());
    let worktrees: Vec<Option<String>> = found.iter().map(|r| r.worktree(host)).collect();
    let mut files = Vec::new();
    for worktree in &worktrees {
        let Some(dir) = worktree else {
            files.push(None);
            continue;
        };
        let status = paths::child(
            &paths::child(&paths::child(dir, ".agency"), "state"),
            "runner_status.json",
        );
        let (present, text) = (host.read(dir), host.read(&status));
        files.push(Some((present, text, status)));
    }
    let mut rows = Vec::new();
    for (run, read) in found.iter().zip(files) {
        let mut facts = Map::new();
        let mut status_text = None;
        let mut present = false;
        if let Some((dir, text, path)) = read {
            present = dir? == File::Directory;
            if let (true, File::Text(text)) = (present, text?) {
                status_text = Some(text);
                if let Some(ms) = host.modified(&path) {
                    facts.insert("status_file_mod_time".into(), Value::from(ms));
                }
            }
        }
        let session = run
            .meta
            .get("tmux_session_name")
            .and_then(Value::as_str)
            .filter(|s| !s.is_empty())
            .map_or_else(|| format!("agency_{}", run.run_id), str::to_owned);
        facts.insert(
            "tmux_active".into(),
            Value::Bool(sessions.contains(&session.as_str())),
        );
        facts.insert("worktree_present".into(), Value::Bool(present));
        let meta = run.meta_text.map(str::as_bytes);
        let snapshot = build_snapshot(
            status_text.map(str::as_bytes),
            meta,
            &Value::Object(facts),
            &now,
            &Value::Null,
        )
        .unwrap_or(Value::Null);
        // A broken run has no PR, as agency shows it (its meta.json is not read).
        let pr = Some(&run.meta)
            .filter(|m| !meta_broken(*m))
            .and_then(|m| m.get("pr_number"))
            .filter(|n| n.as_i64().is_some_and(|n| n != 0))
            .cloned()
            .unwrap_or(Value::Null);
        let name = run.meta.get("name").and_then(Value::as_str).unwrap_or("");
        rows.push(statecore::json!({
            "run_id": run.run_id,
            "name": name,
            "pr": pr,
            "snapshot": snapshot,
        }));
    }
    Some(rows)
}

/// True when a row's run is archived.
fn archived(row: &Value) -> bool {
    row.get("snapshot")
        .and_then(|s| derive(s).ok())
        .is_some_and(|d| d.archived)
}

/// A run as `agency ls --json` prints it.
fn summary(run: &Found<'_>, row: &Value) -> Value {
    let snapshot = row.get("snapshot").cloned().unwrap_or(Value::Null);
    let derived = derive(&snapshot).ok();
    let field = |key: &str| row.get(key).cloned().unwrap_or(Value::Null);
    let meta = |key: &str| {
        Some(&run.meta)
            .filter(|m| !meta_broken(*m))
            .and_then(|m| m.get(key))
            .cloned()
            .unwrap_or(Value::Null)
    };
    let summary = snapshot
        .get("runner_status")
        .and_then(|s| s.get("summary"))
        .cloned()
        .unwrap_or(Value::Null);
    statecore::json!({
        "repo_id": run.repo_id,
        "run_id": run.run_id,
        "name": field("name"),
        "status": derived.as_ref().map_or(Value::Null, |d| Value::from(d.status)),
        "display": derived.as_ref().map_or(Value::Null, |d| Value::from(d.display.as_str())),
        "archived": derived.as_ref().is_some_and(|d| d.archived),
        "summary": summary,
        "stalled_duration": derived
            .as_ref()
            .and_then(|d| d.stalled_duration)
            .map_or(Value::Null, Value::from),
        "pr": field("pr"),
        "created_at": meta("created_at"),
        "worktree_path": meta("worktree_path"),
    })
}

/// The data directory and the tmux sessions, asked for together (`None` until both are
/// known).
fn setting<'f>(call: &Call, host: &mut Host<'f>) -> Option<Result<(String, Vec<&'f str>), Output>> {
    let (dir, sessions) = (data_dir(call, host), host.tmux());
    match dir? {
        Err(usage) => Some(Err(usage)),
        Ok(dir) => Some(Ok((dir, sessions?))),
    }
}

/// `agency ls`.
fn ls(call: &Call, host: &mut Host<'_>, _style: Style) -> Output {
    let (data, sessions) = match setting(call, host) {
        None => return Output::default(),
        Some(Err(out)) => return out,
        Some(Ok(found)) => found,
    };
    let mut found = match runs(host, &data, |_| true) {
        None => return Output::default(),
        Some(Err(out)) => return out,
        Some(Ok(found)) => found,
    };
    // Newest first; runs without a creation time (broken ones too) last; then by id.
    found.sort_by(|a, b| match (a.created(), b.created()) {
        (Some(x), Some(y)) if x != y => y.cmp(&x),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        _ => a.run_id.cmp(b.run_id),
    });
    let Some(rows) = rows(host, &found, &sessions) else {
        return Output::default();
    };
    let all = call.flag("all");
    let shown: Vec<(&Found<'_>, Value)> = found
        .iter()
        .zip(rows)
        .filter(|(_, row)| all || !archived(row))
        .collect();
    if call.flag("json") {
        let list = shown.iter().map(|(run, row)| summary(run, row)).collect();
        return Output::text(json::serialize(&Value::Array(list)));
    }
    if shown.is_empty() {
        return Output::text("no runs found\n".into());
    }
    let rows = Value::Array(shown.into_iter().map(|(_, row)| row).collect());
    match render_ls(&rows) {
        Ok(text) => Output::text(text),
        Err(e) => Output::usage(&clean(&e.message)),
    }
}

/// `agency show RUN_ID`.
fn show(call: &Call, host: &mut Host<'_>, _style: Style) -> Output {
    let wanted = call.operands.first().map_or("", String::as_str);
    let (data, sessions) = match setting(call, host) {
        None => return Output::default(),
        Some(Err(out)) => return out,
        Some(Ok(found)) => found,
    };
    // The runs whose ids the operand begins; the one it names exactly wins.
    let begins = |run: &str| !wanted.is_empty() && run.starts_with(wanted);
    let mut found = match runs(host, &data, begins) {
        None => return Output::default(),
        Some(Err(out)) => return out,
        Some(Ok(found)) => found,
    };
    if found.iter().any(|r| r.run_id == wanted) {
        found.retain(|r| r.run_id == wanted);
    }
    let run = match found.as_slice() {
        [run] => run,
        [] => {
            return Output::usage(&format!(
                "no run {} in {} (`statecore agency ls --all` lists them)",
                clean(wanted),
                clean(&data)
            ))
        }
        many => {
            let ids: Vec<&str> = many.iter().map(|r| r.run_id).collect();
            return Output::usage(&format!(
                "{} begins {} runs: {}; give more of the id",
                clean(wanted),
                many.len(),
                clean(&ids.join(", "))
            ));
        }
    };
    let Some(rows) = rows(host, std::slice::from_ref(run), &sessions) else {
        return Output::default();
    };
    let row = rows.into_iter().next().unwrap_or(Value::Null);
    if call.flag("json") {
        let mut value = summary(run, &row);
        if let Some(map) = value.as_object_mut() {
            map.insert(
                "snapshot".into(),
                row.get("snapshot").cloned().unwrap_or(Value::Null),
            );
        }
        return Output::text(json::serialize(&value));
    }
    let now = Value::from(host.now().unwrap_or_default());
    match render_show(&row, &now) {
        Ok(text) => Output::text(text),
        Err(e) => Output::usage(&clean(&e.message)),
    }
}

/// `agency init [DIR]`.
fn init(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let given = call.operands.first().map(String::as_str);
    if given.is_some_and(paths::is_store) {
        return Output::usage(
            "agency init writes CLAUDE.md in a repository's working tree: give a directory, \
             not a store URL",
        );
    }
    let start = paths::resolve(host.cwd(), given.unwrap_or("."));
    let (here, repo) = (host.read(&start), host.nearest(&start, ".git"));
    let (Some(here), Some(repo)) = (here, repo) else {
        return Output::default();
    };
    if let Some(why) = here.not_a_directory() {
        return Output::usage(&format!("{}: {why}", clean(&start)));
    }
    let Some((root, _)) = repo else {
        return Output::usage(&format!(
            "{} is not in a git repository: agency init writes CLAUDE.md at a repository's \
             root",
            clean(&start)
        ));
    };
    let root = &root;
    let Some(fact) = host.write(Need::new("protocol_document", root)) else {
        return Output::default();
    };
    let created = fact.get("changed").and_then(Value::as_bool) == Some(true);
    let word = if created { "created" } else { "exists" };
    let text = format!("repo_root: {}\nclaude_md: {word}\n", clean(root));
    let file = paths::child(root, "CLAUDE.md");
    let mut value = Map::new();
    value.insert("repo_root".into(), Value::from(root.as_str()));
    value.insert("claude_md".into(), Value::from(word));
    writes::finish(&file, fact, call, style, text, value)
}
