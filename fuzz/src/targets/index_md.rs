//! `index_md`: index.md text (`specify.index`, docs/specify.md): the markdown and index
//! parsers and writers, the file update a helper makes, and the rules for files people edit
//! (docs/locking.md § Files people edit).
//!
//! Input: `text \0 change \0 args \0 facts`: the file's bytes (read as UTF-8, lossily, by the
//! parsers; as they are by the file update), a selector among the writers of index.md
//! (`specify_add_gaps`, ..., `merge`, or `""` to replace), the JSON array of the change's
//! arguments after the document (anything else: none), and the JSON facts of an `edit_wait`
//! (anything else: `{}`). Missing pieces are empty. Laws:
//! - nothing panics; every error is well formed (stable code, pointer path);
//! - `render_markdown(parse_markdown(t)) == t` for any text `t` that parses;
//! - the index read from `t`, written back over `t`, gives `t` again, and the text written
//!   re-parses to the same document; the index written as a new file re-parses to a document
//!   that writes back over that file unchanged;
//! - `lacks(t)` is `empty` exactly for blank text, and `None` only for text ending in `\n`
//!   (or text that does not parse, which its own error refuses);
//! - an update is deterministic; it refuses (E_CONFLICT) exactly the texts that lack a
//!   finished save's structure (`edit::refusal`), unless reset; its document is its text's
//!   reading; a changed text is one the next writer accepts (no refusal);
//! - `edit_wait` answers a wait within 0..=`QUIET_MS`, or an `E_CONFLICT`.

use crate::input::{self, SEP};
use crate::laws;
use crate::seeds::Case;
use statecore::document::Precondition;
use statecore::edit;
use statecore::ops::{self, Access, Args};
use statecore::specify::{lacks, parse_index, parse_markdown, render_index, render_markdown};
use statecore::{Code, Value};
use statecore_cli::TABLE;

const KIND: &str = "specify.index";

/// The changes an index.md update can make: the table's writers of the kind, a patch, a
/// replacement.
fn changes() -> Vec<String> {
    let mut names: Vec<String> = TABLE
        .ops()
        .filter(|op| matches!(op.access, Access::Writes(w) if w.kind == KIND && w.takes_document))
        .map(|op| op.name())
        .collect();
    names.push("merge".into());
    names.push(String::new());
    names
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let pieces = input::split(data, 4);
    let bytes = pieces.first().copied().unwrap_or_default();
    let text = String::from_utf8_lossy(bytes);
    markdown(&text);
    index(&text);
    lacking(&text);
    let names = changes();
    let Some(change) = input::select(pieces.get(1).copied().unwrap_or_default(), &names, |n| {
        n.clone()
    }) else {
        return;
    };
    let args = match pieces.get(2).and_then(|p| input::json(p)) {
        Some(Value::Array(list)) => list,
        _ => Vec::new(),
    };
    update(bytes, change, &args);
    let facts = pieces
        .get(3)
        .and_then(|p| input::json(p))
        .unwrap_or_else(|| statecore::json!({}));
    wait(bytes, &facts);
}

/// The markdown's round trip.
fn markdown(text: &str) {
    match parse_markdown(text) {
        Ok(doc) => match render_markdown(&doc) {
            Ok(back) => assert!(back == text, "render_markdown(parse_markdown(t)) != t"),
            Err(e) => panic!("render_markdown fails on a parsed document: {e}"),
        },
        Err(e) => laws::error("parse_markdown", &e),
    }
}

/// The index's round trips.
fn index(text: &str) {
    let doc = match parse_index(text) {
        Ok(doc) => doc,
        Err(e) => return laws::error("parse_index", &e),
    };
    match render_index(Some(text), &doc) {
        Ok(back) => {
            assert!(
                back == text,
                "the index written back over its own text changed it"
            );
            let again = parse_index(&back);
            assert!(
                again.as_ref() == Ok(&doc),
                "a written index re-parses otherwise"
            );
        }
        Err(e) => laws::error("render_index over its text", &e),
    }
    match render_index(None, &doc) {
        Ok(fresh) => {
            let reading = parse_index(&fresh).unwrap_or_else(|e| {
                panic!("a new file written by render_index does not parse: {e}")
            });
            let back = render_index(Some(&fresh), &reading);
            assert!(
                back.as_deref() == Ok(fresh.as_str()),
                "a new file's reading does not write back unchanged"
            );
        }
        Err(e) => laws::error("render_index as a new file", &e),
    }
}

/// What a text lacks of a finished save.
fn lacking(text: &str) {
    let found = lacks(text);
    assert!(
        (found == Some("empty")) == text.trim().is_empty(),
        "lacks: empty iff blank, got {found:?}"
    );
    assert!(
        found.is_some() || text.ends_with('\n') || parse_markdown(text).is_err(),
        "lacks: a text that parses without a final line break lacks something"
    );
}

/// A file update over the bytes, as a helper makes it.
fn update(bytes: &[u8], change: &str, args: &[Value]) {
    let now = Value::from("2026-11-24T12:00:00Z");
    let run = |reset: bool| {
        let (op, skip) = TABLE.params_of(change)?;
        let params = op.params.get(skip..).unwrap_or_default();
        let values: Vec<Value> = params
            .iter()
            .enumerate()
            .map(|(i, _)| args.get(i).cloned().unwrap_or(Value::Null))
            .collect();
        let change = TABLE.change(change, Args::values(values))?;
        let pre = Precondition {
            if_match: None,
            reset,
        };
        ops::update(KIND, Some(bytes), change, &now, pre)
    };
    let first = run(false);
    assert!(first == run(false), "update is not deterministic");
    let refused = edit::refusal(KIND, Some(bytes)).ok().flatten();
    match &first {
        Err(e) => {
            laws::error("update", e);
            if refused.is_some() {
                assert!(
                    e.code == Code::Conflict,
                    "an unfinished save refused with {e}"
                );
            }
        }
        Ok(u) => {
            assert!(refused.is_none(), "an unfinished save was written over");
            let reading = parse_index(&u.text).unwrap_or_else(|e| panic!("written text: {e}"));
            assert!(
                reading == u.document,
                "the update's document is not its text's reading"
            );
            if u.changed {
                let next = edit::refusal(KIND, Some(u.text.as_bytes()));
                assert!(
                    next.as_ref().is_ok_and(Option::is_none),
                    "a writer wrote a text the next writer refuses"
                );
            }
        }
    }
    if refused.is_some() {
        if let Err(e) = run(true) {
            assert!(e.code != Code::Conflict, "reset still refuses: {e}");
            laws::error("update with reset", &e);
        }
    }
}

/// The wait decision on arbitrary facts.
fn wait(bytes: &[u8], facts: &Value) {
    let Some(op) = TABLE.ops().find(|op| op.is("edit_wait")) else {
        panic!("edit_wait is not in the table");
    };
    let args = Args::values(vec![Value::from(KIND), Value::Null, facts.clone()]);
    let _ = TABLE.call(op, args); // the facts' shape is checked
    if !facts.is_object() {
        return;
    }
    match edit::edit_wait(KIND, Some(bytes), facts) {
        Ok(answer) => {
            let ms = answer.get("wait_ms").and_then(Value::as_i64);
            assert!(
                ms.is_some_and(|ms| (0..=edit::QUIET_MS).contains(&ms)),
                "edit_wait: {answer:?}"
            );
        }
        Err(e) => {
            laws::error("edit_wait", &e);
            assert!(e.code == Code::Conflict, "edit_wait raised {e}");
        }
    }
}

/// Changes and arguments the seeds pair with the corpus's texts.
const CHANGES: &[(&str, &str)] = &[
    (
        "specify_add_gaps",
        r#"[[{"priority":"Critical","question":"Q?","fr_reference":"FR-1"}]]"#,
    ),
    ("specify_start", "[]"),
    ("specify_end_iteration", "[]"),
    (
        "merge",
        r#"[{"priority_loop_state":{"loop_status":"validating"}}]"#,
    ),
];

/// Seeds from a conformance case: index.md texts of the corpus, with a change and its
/// arguments when the case is an update.
pub fn seeds(case: &Case, out: &mut Vec<Vec<u8>>) {
    let text = |i: usize| case.args.get(i).and_then(Value::as_str).map(str::as_bytes);
    match case.op.as_str() {
        "update_file" if text(0) == Some(KIND.as_bytes()) => {
            if let (Some(change), Some(data)) = (text(1), text(2)) {
                let args = case.args.get(3).map(input::text).unwrap_or_default();
                out.push(input::join([data, change, &args, b"{\"age_ms\":10}"]));
            }
        }
        "edit_wait" => {
            if let Some(data) = text(1) {
                let facts = case.args.get(2).map(input::text).unwrap_or_default();
                out.push(input::join([data, b"merge", b"[{}]", &facts]));
            }
        }
        "specify_parse_index"
        | "specify_parse_markdown"
        | "specify_locate"
        | "specify_render_index"
        | "validate_text"
        | "load_document"
        | "query_file" => {
            let markdown = |i: usize| text(i).filter(|t| t.contains(&b'\n') && t.contains(&b'#'));
            if let Some(data) = (0..3).find_map(markdown) {
                // The text under each kind of change, and cut as an editor's save leaves it.
                for (change, args) in CHANGES {
                    out.push(input::join([data, change.as_bytes(), args.as_bytes()]));
                }
                let half = data.len() / 2;
                out.push([data.get(..half).unwrap_or_default(), &[SEP][..]].concat());
            }
        }
        _ => {}
    }
}
