//! `fctry inbox list|add|move|batch|dismiss` (docs/cli.md, docs/fctry.md § Inbox): the
//! project's `.fctry/inbox.json`, listed or changed by one locked update of the host's
//! routine with the inbox operations of the table (`fctry_inbox_add`, ...). The project is the
//! nearest directory holding `.fctry/` from `--dir` (default: the working directory) up.

use super::checked_text::CheckedText;
use super::command::{Call, Command, Opt, Values, JSON, TIMEOUT};
use super::host::{File, Host};
use super::out::{clean, Output, Style, INVALID};
use super::paths;
use super::writes;
use statecore::checked::{Checked, Target};
use statecore::fctry::random_suffix;
use statecore::fctry::shapes::{INBOX_EVENT, INBOX_TYPE};
use statecore::{json, Map, Value};

/// The inbox's kind.
const KIND: &str = "fctry.inbox";

/// The longest content `list` shows, in characters (longer ones end in `…`).
const CONTENT_WIDTH: usize = 60;

const DIR: Opt = Opt {
    name: "dir",
    value: Some("DIR"),
    help: "Where the project is: the nearest directory holding .fctry/ from DIR up (default: \
           the working directory).",
};

fn events() -> Vec<(&'static str, &'static str)> {
    INBOX_EVENT.values.iter().map(|e| (*e, "")).collect()
}

fn types() -> Vec<(&'static str, &'static str)> {
    INBOX_TYPE.values.iter().map(|t| (*t, "")).collect()
}

/// A command of the group: its words, operands and what it does.
const fn command(
    name: &'static str,
    operands: &'static str,
    count: usize,
    summary: &'static str,
    about: &'static str,
    values: Option<Values>,
    run: super::command::Run,
) -> Command {
    Command {
        name,
        operands,
        min: count,
        max: Some(count),
        summary,
        about,
        options: if count == 0 {
            &[DIR, JSON]
        } else {
            &[DIR, TIMEOUT, JSON]
        },
        values,
        run,
    }
}

/// `fctry inbox list`.
pub const LIST: Command = command(
    "fctry inbox list",
    "",
    0,
    "List the fctry project's inbox: each item's id, type, status and content.",
    "Newest first, as the inbox holds them; content on one line, cut to 60 characters. An \
     inbox.json that does not validate has its problems printed to standard error (exit 1). \
     Exit 0, 2 outside a fctry project or when the file cannot be read.",
    None,
    list,
);

/// `fctry inbox add TYPE TEXT`.
pub const ADD: Command = command(
    "fctry inbox add",
    "TYPE TEXT",
    2,
    "Add an item to the fctry project's inbox (first, pending).",
    "TYPE is evolve, reference or feature. The item's id is inbox-<ms>-<6 random base36>; \
     it is printed. The inbox is changed under its lock and validated before it is written. \
     Exit 0, 1 refused, 2 usage or I/O.",
    Some(types),
    add,
);

/// `fctry inbox move ID EVENT`.
pub const MOVE: Command = command(
    "fctry inbox move",
    "ID EVENT",
    2,
    "Move one inbox item through its lifecycle (start, complete, fail, incorporate, retry).",
    "An illegal move (completing a pending item) is refused with E_TRANSITION and the inbox \
     is left as it was (exit 1); an id the inbox does not hold is E_ARGUMENT (exit 1).",
    Some(events),
    move_item,
);

/// `fctry inbox batch EVENT`.
pub const BATCH: Command = command(
    "fctry inbox batch",
    "EVENT",
    1,
    "Apply an event to every pending or processed item it is legal for.",
    "`start` starts every pending item, `incorporate` incorporates every processed one; \
     other items are left alone.",
    Some(events),
    batch,
);

/// `fctry inbox dismiss ID`.
pub const DISMISS: Command = command(
    "fctry inbox dismiss",
    "ID",
    1,
    "Remove an item from the fctry project's inbox.",
    "An id that is already gone changes nothing (two viewers may dismiss the same item).",
    None,
    dismiss,
);

/// The project's inbox file, or what to print when there is no project; `None` until the
/// host has looked.
fn inbox_path(call: &Call, host: &mut Host<'_>) -> Option<Result<String, Output>> {
    let start = paths::resolve(host.cwd(), call.value("dir").unwrap_or("."));
    let project = host.nearest(&start, ".fctry")?;
    Some(match project {
        Some((dir, File::Directory)) => {
            Ok(paths::child(&paths::child(&dir, ".fctry"), "inbox.json"))
        }
        _ => Err(Output::usage(&format!(
            "no fctry project in {} or above (no .fctry/ directory; /fctry:init makes one)",
            clean(paths::shown(host.cwd(), &start))
        ))),
    })
}

/// `fctry inbox list`.
fn list(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let path = match inbox_path(call, host) {
        None => return Output::default(),
        Some(Err(out)) => return out,
        Some(Ok(path)) => path,
    };
    let Some(file) = host.read(&path) else {
        return Output::default();
    };
    let shown = paths::shown(host.cwd(), &path).to_owned();
    let (items, mut out) = match file {
        File::Missing => (Vec::new(), Output::default()),
        File::Text(text) => {
            let checked = Checked::check(&shown, Target::Document(KIND), text);
            let mut out = Output::default();
            if !checked.valid() {
                out.stderr = format!("{}{}", checked.problems(style), checked.verdict(style));
                out.worst(INVALID);
            }
            let items = checked
                .document
                .as_ref()
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            (items, out)
        }
        _ => return Output::usage(&format!("{}: cannot be read", clean(&shown))),
    };
    if call.flag("json") {
        out.stdout = json::serialize(&Value::Array(items));
        return out;
    }
    out.stdout = table(&items);
    out
}

/// The inbox as a table: `ID TYPE STATUS CONTENT`, or a line saying it is empty.
fn table(items: &[Value]) -> String {
    if items.is_empty() {
        return "the inbox is empty\n".into();
    }
    let field = |item: &Value, key: &str| {
        let text = item.get(key).and_then(Value::as_str).unwrap_or("-");
        let line: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        clean(&line).into_owned()
    };
    let mut rows = vec![["ID", "TYPE", "STATUS", "CONTENT"].map(str::to_owned)];
    for item in items {
        let content = field(item, "content");
        let content = if content.chars().count() > CONTENT_WIDTH {
            let cut: String = content
                .chars()
                .take(CONTENT_WIDTH.saturating_sub(1))
                .collect();
            format!("{cut}…")
        } else {
            content
        };
        rows.push([
            field(item, "id"),
            field(item, "type"),
            field(item, "status"),
            content,
        ]);
    }
    let mut widths = [0usize; 4];
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in &rows {
        for (i, (cell, width)) in row.iter().zip(widths).enumerate() {
            out.push_str(cell);
            if i < 3 {
                let pad = width.saturating_sub(cell.chars().count()).saturating_add(2);
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push('\n');
    }
    out
}

/// One locked change of the inbox by the table's writer `change` with `args`; `said` makes
/// the success line from the write's fact.
fn change(
    call: &Call,
    host: &mut Host<'_>,
    style: Style,
    op: (&str, Vec<Value>),
    said: impl FnOnce(&Map) -> String,
) -> Output {
    let path = match inbox_path(call, host) {
        None => return Output::default(),
        Some(Err(out)) => return out,
        Some(Ok(path)) => path,
    };
    let (change, args) = op;
    let change = writes::Change {
        kind: KIND,
        change,
        args,
        if_match: None,
    };
    let need = match writes::update_need(&path, call, host.now(), change) {
        Ok(need) => need,
        Err(usage) => return usage,
    };
    let Some(fact) = host.write(need) else {
        return Output::default();
    };
    let mut value = Map::new();
    let changed = fact.get("changed").cloned().unwrap_or(Value::Bool(false));
    value.insert("changed".into(), changed);
    value.insert(
        "etag".into(),
        fact.get("etag").cloned().unwrap_or(Value::Null),
    );
    if let Some(item) = fact.get("item") {
        value.insert("item".into(), item.clone());
    }
    let text = said(fact);
    let shown = paths::shown(host.cwd(), &path).to_owned();
    writes::finish(&shown, fact, call, style, text, value)
}

/// The operand `i`.
fn operand(call: &Call, i: usize) -> &str {
    call.operands.get(i).map_or("", String::as_str)
}

/// A usage error when `value` is not one of `values` (the operand `what`).
fn one_of(value: &str, values: &[&str], what: &str) -> Option<Output> {
    (!values.contains(&value)).then(|| {
        Output::usage(&format!(
            "{what} is one of {} (got {:?})",
            values.join(", "),
            clean(value)
        ))
    })
}

/// `fctry inbox add TYPE TEXT`.
fn add(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let (kind, text) = (operand(call, 0), operand(call, 1));
    if let Some(usage) = one_of(kind, INBOX_TYPE.values, "TYPE") {
        return usage;
    }
    let Some(bytes) = host.random() else {
        return Output::default();
    };
    let suffix = match random_suffix(&bytes) {
        Ok(suffix) => suffix,
        Err(e) => return Output::usage(&format!("the host's random bytes: {}", e.message)),
    };
    let args = vec![
        Value::from(kind),
        Value::from(text),
        Value::Null,
        Value::from(suffix),
    ];
    change(call, host, style, ("fctry_inbox_add", args), |fact| {
        let id = fact
            .get("item")
            .and_then(|i| i.get("id"))
            .and_then(Value::as_str)
            .unwrap_or("");
        format!("{}: added ({kind})\n", clean(id))
    })
}

/// `fctry inbox move ID EVENT`.
fn move_item(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let (id, event) = (operand(call, 0), operand(call, 1));
    if let Some(usage) = one_of(event, INBOX_EVENT.values, "EVENT") {
        return usage;
    }
    let args = vec![Value::from(id), Value::from(event)];
    change(call, host, style, ("fctry_inbox_transition", args), |_| {
        format!("{}: {event}\n", clean(id))
    })
}

/// `fctry inbox batch EVENT`.
fn batch(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let event = operand(call, 0);
    if let Some(usage) = one_of(event, INBOX_EVENT.values, "EVENT") {
        return usage;
    }
    let args = vec![Value::from(event)];
    change(
        call,
        host,
        style,
        ("fctry_inbox_batch", args),
        |fact| match fact.get("changed").and_then(Value::as_bool) {
            Some(true) => format!("{event}: applied to every item it is legal for\n"),
            _ => format!("{event}: no item it is legal for\n"),
        },
    )
}

/// `fctry inbox dismiss ID`.
fn dismiss(call: &Call, host: &mut Host<'_>, style: Style) -> Output {
    let id = operand(call, 0);
    let args = vec![Value::from(id)];
    change(
        call,
        host,
        style,
        ("fctry_inbox_dismiss", args),
        |fact| match fact.get("changed").and_then(Value::as_bool) {
            Some(true) => format!("{}: dismissed\n", clean(id)),
            _ => format!("{}: not in the inbox (nothing to dismiss)\n", clean(id)),
        },
    )
}
