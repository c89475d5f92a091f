//! `hive status` and `hive sessions` (docs/cli.md, docs/hive.md § The command line): a hive
//! session's `STATE.json` shown with its workers, their health and how much of `EVENTS.jsonl`
//! the state folds; every session of a sessions directory at a glance. Read-only: a session
//! changes only by its steps, which append their event first (the helpers of both packages).

use super::checked_text::CheckedText;
use super::command::{Call, Command, Opt, JSON};
use super::hive_tail::{unfolded, LOG};
use super::host::{File, Host};
use super::out::{clean, Output, Style, INVALID};
use super::pages;
use super::paths;
use super::validate::unreadable;
use statecore::agency::{format_ago, format_stall};
use statecore::checked::{Checked, Target};
use statecore::hive::check_worker_health;
use statecore::time::parse_timestamp;
use statecore::{json, Map, Value};

/// The state file's kind.
const KIND: &str = "hive.state";
/// The files of a session.
const STATE: &str = "STATE.json";

/// What `hive status` carries to its next round when it reads the log's unfolded lines.
const TAIL_CARRY: &str = "hive status: unfolded lines";

/// `--heartbeat-ms`.
const HEARTBEAT: Opt = Opt {
    name: "heartbeat-ms",
    value: Some("MS"),
    help: "How long an active worker may go without a heartbeat before it counts as stalled \
           (default 300000: the seed's 5 minutes).",
};

/// `hive status [SESSION_DIR]`.
pub const STATUS: Command = Command {
    name: "hive status",
    operands: "[SESSION_DIR]",
    min: 0,
    max: Some(1),
    summary: "Show a hive session: its phase, its workers and their health, and its log.",
    about: "SESSION_DIR is <sessions>/<session_id> (default: the working directory), holding \
            STATE.json and EVENTS.jsonl. Prints the task, the phase, each worker's status, \
            task and last heartbeat, the active workers that stalled (no heartbeat for \
            --heartbeat-ms, or one from the future), and how many bytes of the log the state \
            does not fold yet. A STATE.json that does not validate has its problems printed to \
            standard error. Exit 0, 1 when the state is invalid or a worker stalled, 2 when \
            there is no STATE.json (`statecore validate SESSION_DIR/EVENTS.jsonl` replays the \
            log) or it cannot be read.",
    options: &[HEARTBEAT, JSON],
    values: None,
    run: status,
};

/// `hive sessions [DIR]`.
pub const SESSIONS: Command = Command {
    name: "hive sessions",
    operands: "[DIR]",
    min: 0,
    max: Some(1),
    summary: "List the hive sessions of a directory: each one's phase, workers and health.",
    about: "DIR is a sessions directory (default: the working directory): each directory in \
            it holding a STATE.json or an EVENTS.jsonl is a session. Prints one line each, in \
            byte order of their ids: the phase, the workers by status, and `ok`, the stalled \
            workers, or what is wrong with its STATE.json. Exit 0, 1 when a session's state is \
            missing or invalid or a worker stalled, 2 when DIR cannot be listed.",
    options: &[HEARTBEAT, JSON],
    values: None,
    run: sessions,
};

/// `--heartbeat-ms`, checked.
fn heartbeat(call: &Call) -> Result<Option<u64>, Output> {
    match call.value("heartbeat-ms") {
        None => Ok(None),
        Some(text) => text
            .parse::<u64>()
            .ok()
            .filter(|ms| *ms > 0)
            .map(Some)
            .ok_or_else(|| {
                Output::usage(&format!(
                    "--heartbeat-ms {}: give a whole number of milliseconds above 0 (300000 is 5 \
                 minutes)",
                    clean(text)
                ))
            }),
    }
}

/// `--heartbeat-ms` checked, the directory operand as given (default `.`) and resolved.
fn arguments<'c>(
    call: &'c Call,
    host: &Host<'_>,
) -> Result<(Option<u64>, &'c str, String), Output> {
    let timeout = heartbeat(call)?;
    let given = call.operands.first().map_or(".", String::as_str);
    Ok((timeout, given, paths::resolve(host.cwd(), given)))
}

/// The heartbeat timeout in force, in milliseconds (`--heartbeat-ms`, else the seed's).
fn timeout_ms(given: Option<u64>) -> i64 {
    i64::try_from(given.unwrap_or(statecore::hive::HEARTBEAT_TIMEOUT_MS)).unwrap_or(i64::MAX)
}

/// What `status` and `sessions` found of one session.
struct Session {
    id: String,
    checked: Option<Checked>,
    health: Option<Value>,
    /// What is wrong with the log's lines the state does not fold yet (`hive status`).
    log_problem: Option<String>,
}

impl Session {
    /// The session whose state file reads as `file` (shown as `shown`), its health at `now`.
    fn of(id: &str, shown: &str, file: File<'_>, now: &Value, timeout: Option<u64>) -> Session {
        let checked = match file {
            File::Text(text) => Some(Checked::check(shown, Target::Document(KIND), text)),
            _ => None,
        };
        let health = checked
            .as_ref()
            .and_then(|c| c.document.as_ref())
            .and_then(|doc| check_worker_health(doc, now, timeout).ok());
        Session {
            id: id.to_owned(),
            checked,
            health,
            log_problem: None,
        }
    }

    fn document(&self) -> Option<&Map> {
        self.checked.as_ref()?.document.as_ref()?.as_object()
    }

    fn text(&self, key: &str) -> &str {
        self.document()
            .and_then(|d| d.get(key))
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// The workers by name, in the state's order.
    fn workers(&self) -> Vec<(&str, &Map)> {
        let workers = self.document().and_then(|d| d.get("worker_states"));
        let workers = workers.and_then(Value::as_object).into_iter().flatten();
        workers
            .filter_map(|(name, w)| w.as_object().map(|w| (name.as_str(), w)))
            .collect()
    }

    /// `2 workers: 1 active, 1 completed`.
    fn census(&self) -> String {
        let workers = self.workers();
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for (_, worker) in &workers {
            let status = worker.get("status").and_then(Value::as_str).unwrap_or("?");
            match counts.iter_mut().find(|(s, _)| *s == status) {
                Some((_, n)) => *n = n.saturating_add(1),
                None => counts.push((status, 1)),
            }
        }
        let parts: Vec<String> = counts
            .iter()
            .map(|(s, n)| format!("{n} {}", clean(s)))
            .collect();
        match (workers.len(), parts.is_empty()) {
            (_, true) => "no workers".to_owned(),
            (1, false) => format!("1 worker: {}", parts.join(", ")),
            (n, false) => format!("{n} workers: {}", parts.join(", ")),
        }
    }

    /// The stalled workers (`unhealthy`).
    fn stalled(&self) -> Vec<&Map> {
        let list = self.health.as_ref().and_then(|h| h.get("unhealthy"));
        let list = list.and_then(Value::as_array).into_iter().flatten();
        list.filter_map(Value::as_object).collect()
    }

    /// True when nothing needs a person: a valid state, no worker stalled.
    fn well(&self) -> bool {
        self.checked.as_ref().is_some_and(Checked::valid)
            && self.stalled().is_empty()
            && self.log_problem.is_none()
    }

    /// `{session, file, valid, phase, task, workers, unhealthy}` for `--json`.
    fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("session".into(), Value::from(self.id.as_str()));
        let valid = self
            .checked
            .as_ref()
            .map_or(Value::Null, |c| Value::Bool(c.valid()));
        map.insert("valid".into(), valid);
        let text = |key: &str| match self.document() {
            Some(_) => Value::from(self.text(key)),
            None => Value::Null,
        };
        map.insert("phase".into(), text("status"));
        map.insert("task".into(), text("task"));
        let mut workers = Map::new();
        for (name, worker) in self.workers() {
            let status = worker.get("status").cloned().unwrap_or(Value::Null);
            workers.insert(name.into(), status);
        }
        map.insert("workers".into(), Value::Object(workers));
        let stalled = self.stalled().into_iter().map(|m| Value::Object(m.clone()));
        map.insert("unhealthy".into(), Value::Array(stalled.collect()));
        Value::Object(map)
    }
}

/// What is wrong with a stalled worker: `no heartbeat for 12m (timeout 5m)`.
fn stall(finding: &Map, timeout_ms: i64) -> String {
    let since = finding.get("since_ms").and_then(Value::as_i64).unwrap_or(0);
    match finding.get("problem").and_then(Value::as_str).unwrap_or("") {
        "timeout" => format!(
            "no heartbeat for {} (timeout {})",
            format_stall(since),
            format_stall(timeout_ms)
        ),
        "clock_skew" => format!(
            "a heartbeat {} in the future (clock skew)",
            format_stall(since.saturating_neg())
        ),
        "no_heartbeat" => "no heartbeat recorded".to_owned(),
        _ => "a heartbeat that is not an RFC 3339 time".to_owned(),
    }
}

/// The time now (the host's), as the health check takes it.
fn now_of(host: &Host<'_>) -> Value {
    host.now().map_or(Value::Null, Value::from)
}

/// `hive status [SESSION_DIR]`.
fn status(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let (timeout, _, dir) = match arguments(call, host) {
        Ok(arguments) => arguments,
        Err(usage) => return usage,
    };
    let (state_path, log_path) = (paths::child(&dir, STATE), paths::child(&dir, LOG));
    let Some(state) = host.read(&state_path) else {
        // Asked together with the log's size (a one-byte page).
        host.page(&log_path, 0, 1);
        return Output::default();
    };
    let offset = match &state {
        File::Text(text) => json::parse_str(text)
            .ok()
            .and_then(|v| v.pointer("/session_metadata/log_offset")?.as_u64()),
        _ => None,
    };
    // A log longer than the state says: its lines the state does not fold yet are read (a
    // page from one byte before the offset, in a next round) and checked.
    let tail = TAIL_CARRY;
    let wanted = host.carried(tail).is_some();
    // One page of them, of the largest size (whatever STATECORE_PAGE_BYTES says: this is not
    // a paged listing); a longer tail is checked as far as that page goes.
    let (from, limit) = match (wanted, offset) {
        (true, Some(n)) => (n.saturating_sub(1), pages::PAGE_BYTES),
        _ => (0, 1),
    };
    let Some(log) = host.page(&log_path, from, limit) else {
        if wanted {
            host.carry(tail, Value::Bool(true));
        }
        return Output::default();
    };
    if let (false, Some(n), Ok(page)) = (wanted, offset, &log) {
        if n > 0 && page.size > n && matches!(state, File::Text(_)) {
            host.carry(tail, Value::Bool(true));
            host.page(&log_path, n.saturating_sub(1), pages::PAGE_BYTES);
            return Output::default();
        }
    }
    let problem = match (&state, &log, offset) {
        (File::Text(text), Ok(page), Some(n)) if n > 0 => {
            unfolded(text, page, n, paths::name(&dir).unwrap_or(""))
        }
        (File::Text(_), Err(File::Missing), Some(n)) if n > 0 => Some(format!(
            "{LOG} is missing, but the state folds {n} bytes of it: restore the log (every \
             read and step fails until then)"
        )),
        _ => None,
    };
    let shown = paths::shown(host.cwd(), &state_path).to_owned();
    if state == File::Missing {
        let log_shown = paths::shown(host.cwd(), &log_path);
        return Output::usage(&format!(
            "{}: no such file: a session's state is rebuilt from its log by its next step or \
             read (`statecore validate {}` replays it)",
            clean(&shown),
            clean(log_shown)
        ));
    }
    if !matches!(state, File::Text(_)) {
        return Output::usage(&unreadable(&shown, state));
    }
    let id = paths::name(&dir).unwrap_or("");
    let mut session = Session::of(id, &shown, state, &now_of(host), timeout);
    session.log_problem = problem;
    let log_size = log.ok().map(|page| page.size);
    let mut out = Output::default();
    if !session.well() {
        out.worst(INVALID);
    }
    let Some(checked) = &session.checked else {
        return out;
    };
    if call.flag("json") {
        let mut value = session.to_value();
        if let Value::Object(map) = &mut value {
            map.insert("file".into(), Value::from(shown.as_str()));
            map.insert(
                "log_bytes".into(),
                log_size.map_or(Value::Null, Value::from),
            );
            map.insert(
                "folded".into(),
                folded(&session).map_or(Value::Null, Value::from),
            );
            let problem = session
                .log_problem
                .as_deref()
                .map_or(Value::Null, Value::from);
            map.insert("log_problem".into(), problem);
        }
        out.stdout = json::serialize(&value);
        return out;
    }
    out.stderr = checked.problems(style);
    if session.document().is_none() {
        out.stdout = checked.verdict(style);
        return out;
    }
    out.stdout = status_text(&session, log_size, host.now(), timeout, style);
    out
}

/// The bytes of the log the state folds (`session_metadata.log_offset`).
fn folded(session: &Session) -> Option<u64> {
    let meta = session.document()?.get("session_metadata")?;
    meta.get("log_offset")?.as_u64()
}

/// The text `hive status` prints for a session whose state reads.
fn status_text(
    session: &Session,
    log_size: Option<u64>,
    now: Option<&str>,
    timeout: Option<u64>,
    style: Style,
) -> String {
    let mut out = format!(
        "{} {}: {}\n",
        style.strong("session"),
        clean(&session.id),
        clean(session.text("status"))
    );
    out.push_str(&format!("task: {}\n", clean(session.text("task"))));
    out.push_str(&format!("{}\n", session.census()));
    let now_ms = now.and_then(|n| parse_timestamp(n).ok());
    let workers = session.workers();
    let widest = |key: Option<&str>| {
        let width = |(name, worker): &(&str, &Map)| match key {
            None => clean(name).chars().count(),
            Some(key) => clean(worker.get(key).and_then(Value::as_str).unwrap_or(""))
                .chars()
                .count(),
        };
        workers.iter().map(width).max().unwrap_or(0)
    };
    let (width, task_width) = (widest(None), widest(Some("task")));
    for (name, worker) in &workers {
        let field = |key: &str| worker.get(key).and_then(Value::as_str).unwrap_or("");
        let status = clean(field("status")).into_owned();
        let shown = match status.as_str() {
            "failed" => style.error(&format!("{status:<9}")),
            "completed" => style.good(&format!("{status:<9}")),
            _ => format!("{status:<9}"),
        };
        let seen = match (parse_timestamp(field("last_heartbeat")).ok(), now_ms) {
            (Some(at), Some(now)) => format!("  heartbeat {}", format_ago(at, now)),
            _ => String::new(),
        };
        let (name, task) = (clean(name), clean(field("task")));
        let pad = width.saturating_sub(name.chars().count());
        let task_pad = task_width.saturating_sub(task.chars().count());
        let line = format!(
            "  {name}{}  {shown}  {task}{}{seen}",
            " ".repeat(pad),
            " ".repeat(task_pad)
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let timeout_ms = timeout_ms(timeout);
    let stalled = session.stalled();
    if let Some(problem) = &session.log_problem {
        out.push_str(&format!(
            "health: {}: {}\n",
            style.error("the log does not replay"),
            clean(problem)
        ));
    } else if stalled.is_empty() {
        let checked = session.health.as_ref().and_then(|h| h.get("checked"));
        let n = checked.and_then(Value::as_u64).unwrap_or(0);
        let active = if n == 1 { "worker" } else { "workers" };
        out.push_str(&format!(
            "health: {} ({n} active {active} checked)\n",
            style.good("ok")
        ));
    }
    for finding in stalled {
        let worker = finding.get("worker").and_then(Value::as_str).unwrap_or("");
        out.push_str(&format!(
            "health: {} {}: {}\n",
            clean(worker),
            style.error("stalled"),
            stall(finding, timeout_ms)
        ));
    }
    let folded = folded(session);
    out.push_str(&match (log_size, folded) {
        (None, _) => format!("log: no {LOG}\n"),
        (Some(size), Some(done)) if size > done && session.log_problem.is_some() => format!(
            "log: {LOG} {size} bytes, {} not folded into the state\n",
            size.saturating_sub(done)
        ),
        (Some(size), Some(done)) if size > done => format!(
            "log: {LOG} {size} bytes, {} not folded into the state yet (the next step or read \
             replays them)\n",
            size.saturating_sub(done)
        ),
        (Some(size), _) => format!("log: {LOG} {size} bytes\n"),
    });
    out
}

/// `hive sessions [DIR]`.
fn sessions(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let (timeout, given, dir) = match arguments(call, host) {
        Ok(arguments) => arguments,
        Err(usage) => return usage,
    };
    let found = match host.list(&dir, &[STATE, LOG]) {
        None => return Output::default(),
        Some(Err(message)) => {
            return Output::usage(&format!(
                "{}: cannot be listed ({}): a sessions directory",
                clean(given),
                clean(message)
            ))
        }
        Some(Ok(found)) => found,
    };
    // A session: a directory right under DIR holding one of its files.
    let mut ids: Vec<&str> = found
        .iter()
        .filter_map(|f| f.strip_prefix(dir.as_str())?.strip_prefix('/'))
        .filter_map(|rest| rest.split_once('/'))
        .filter(|(_, file)| *file == STATE || *file == LOG)
        .map(|(id, _)| id)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    let now = now_of(host);
    let mut list = Vec::new();
    for id in ids {
        let path = paths::child(&paths::child(&dir, id), STATE);
        let Some(file) = host.read(&path) else {
            continue;
        };
        let shown = paths::shown(host.cwd(), &path).to_owned();
        list.push((Session::of(id, &shown, file, &now, timeout), file));
    }
    if host.wants() {
        return Output::default();
    }
    let mut out = Output::default();
    if list.iter().any(|(s, _)| !s.well()) {
        out.worst(INVALID);
    }
    if call.flag("json") {
        let values = list.iter().map(|(s, _)| s.to_value()).collect();
        out.stdout = json::serialize(&Value::Array(values));
        return out;
    }
    if list.is_empty() {
        out.stdout = format!("{}: no sessions\n", clean(given));
    }
    let width = list
        .iter()
        .map(|(s, _)| clean(&s.id).chars().count())
        .max()
        .unwrap_or(0);
    let timeout_ms = timeout_ms(timeout);
    let census = list
        .iter()
        .map(|(s, _)| s.census().len())
        .max()
        .unwrap_or(0);
    for (session, file) in &list {
        let id = clean(&session.id);
        let pad = " ".repeat(width.saturating_sub(id.chars().count()));
        let line = session_line(session, *file, timeout_ms, census, style);
        out.stdout.push_str(&format!("{id}{pad}  {line}\n"));
    }
    out
}

/// A session's line in `hive sessions`, after its id: its phase, its workers and its health,
/// or what is wrong with its state file (`file`) (`census`: the width of the workers' column).
fn session_line(
    session: &Session,
    file: File<'_>,
    timeout_ms: i64,
    census: usize,
    style: Style,
) -> String {
    let Some(checked) = &session.checked else {
        return match file {
            File::Missing => format!(
                "{}: no {STATE} (rebuilt from its log by its next step or read)",
                style.warning("no state")
            ),
            other => style.error(&unreadable(STATE, other)),
        };
    };
    if session.document().is_none() {
        let verdict = checked.verdict(Style { color: false });
        return format!("{}: {}", style.error("invalid"), clean(verdict.trim_end()));
    }
    let health = match session.stalled().as_slice() {
        [] if checked.valid() => style.good("ok"),
        [] => style.error("invalid state (statecore hive status)"),
        stalled => {
            let names: Vec<String> = stalled
                .iter()
                .map(|f| {
                    let worker = f.get("worker").and_then(Value::as_str).unwrap_or("");
                    format!("{}: {}", clean(worker), stall(f, timeout_ms))
                })
                .collect();
            format!("{} {}", style.error("stalled"), names.join("; "))
        }
    };
    let phase = match session.text("status") {
        "" => "-".to_owned(),
        phase => clean(phase).into_owned(),
    };
    format!("{phase:<12} {:<census$}  {health}", session.census())
}
