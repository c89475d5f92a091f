//! `merge`: the merge strategies, per-path rules and stamps (`statecore::merge`).
//!
//! Input: `doc \0 patch \0 options`, three JSON texts (options may be empty: the defaults;
//! `{"strategy": ..., "rules": [...], "stamp": {...}}` as `docs/merge.md` describes). Laws
//! (`docs/merge.md` § Laws and the API's promises):
//! - `merge` and `merge_owned` agree; errors have stable codes and pointer paths;
//! - a merge is idempotent: `merge(merge(doc, p), p) == merge(doc, p)`, rules and stamps too;
//! - `merge(doc, {}) == doc` for an object document and options without a stamp;
//! - `merge_patch` strategy equals RFC 7396 `merge_patch` (rules are for shallow and deep);
//! - the result round-trips through the canonical text, and `merge_text` over the input texts
//!   gives exactly that text (or the same error code);
//! - the update on the read text (`document::update_read`) gives the tree update's result,
//!   or its error, exactly.

use crate::input::{self, split};
use crate::laws;
use crate::seeds::Case;
use statecore::document::{self, Doc, Precondition};
use statecore::json;
use statecore::merge::{merge, merge_owned, merge_patch, MergeOptions, Strategy};
use statecore::ops::{Arg, Args, Out};
use statecore::{Map, Value};
use statecore_cli::TABLE;
use std::borrow::Cow;

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let pieces = split(data, 3);
    let doc_text = pieces.first().copied().unwrap_or_default();
    let patch_text = pieces.get(1).copied().unwrap_or_default();
    let options_text = pieces.get(2).copied().unwrap_or_default();
    let (Some(doc), Some(patch)) = (input::json(doc_text), input::json(patch_text)) else {
        return;
    };
    let options_value = if options_text.is_empty() {
        Value::Null
    } else {
        match input::json(options_text) {
            Some(v) => v,
            None => return,
        }
    };
    let options = match MergeOptions::from_value(&options_value) {
        Ok(options) => options,
        Err(e) => return laws::error("MergeOptions::from_value", &e),
    };
    let merged = merge(&doc, &patch, &options);
    let owned = merge_owned(doc.clone(), &patch, &options);
    assert!(
        merged == owned,
        "merge and merge_owned disagree: {merged:?} vs {owned:?}"
    );
    match &merged {
        Ok(m) => laws_of_result(&doc, &patch, &options, m),
        Err(e) => laws::error("merge", e),
    }
    identity(&doc, &options);
    text_agrees(doc_text, patch_text, &options_value, &merged);
    tape_agrees(doc_text, &patch, &options);
}

/// The update of a `json` file holding `doc` made on its read text equals the one made on its
/// tree: every field, or the same error.
fn tape_agrees(doc: &[u8], patch: &Value, options: &MergeOptions) {
    let pre = Precondition::default();
    let tree = document::update("json", Some(doc), patch, options, pre);
    let tape = document::update_read("json", Some(doc), patch, options, pre)
        .map(|updated| updated.map_document(Doc::into_value));
    assert!(
        tree == tape,
        "the update on the read text differs from the tree's\n  tree: {tree:?}\n  tape: {tape:?}"
    );
}

fn laws_of_result(doc: &Value, patch: &Value, options: &MergeOptions, m: &Value) {
    laws::round_trip("merge result", m);
    let again = merge(m, patch, options);
    assert!(
        again.as_ref() == Ok(m),
        "merge is not idempotent ({options:?})\n  once:  {}\n  twice: {}",
        laws::show(m),
        again.map_or_else(|e| e.to_string(), |v| laws::show(&v))
    );
    if options.strategy == Strategy::MergePatch && options.stamp.is_none() {
        let rfc = merge_patch(doc, patch);
        assert!(
            rfc == *m,
            "merge_patch strategy differs from RFC 7396 merge_patch\n  merge: {}\n  rfc:   {}",
            laws::show(m),
            laws::show(&rfc)
        );
    }
}

/// `merge(doc, {}) == doc` for an object document (no stamp: a stamp always writes).
fn identity(doc: &Value, options: &MergeOptions) {
    if !doc.is_object() || options.stamp.is_some() {
        return;
    }
    let out = merge(doc, &Value::Object(Map::new()), options);
    assert!(
        out.as_ref() == Ok(doc),
        "merge(doc, {{}}) != doc ({options:?})\n  doc: {}\n  out: {out:?}",
        laws::show(doc)
    );
}

/// `merge_text` over the texts is the canonical text of `merge` (limits checked), or fails
/// with the same code.
fn text_agrees(doc: &[u8], patch: &[u8], options: &Value, merged: &statecore::Result<Value>) {
    let Ok(op) = TABLE.find("merge_text") else {
        return;
    };
    let args = Args::new(vec![
        Arg::Bytes(Some(Cow::Borrowed(doc))),
        Arg::Bytes(Some(Cow::Borrowed(patch))),
        Arg::Value(options.clone()),
    ]);
    let text = TABLE.call(op, args);
    let want = merged.as_ref().map_err(|e| e.code).and_then(|m| {
        json::check_limits(m)
            .map(|()| json::serialize(m))
            .map_err(|e| e.code)
    });
    match (&text, &want) {
        (Ok(Out::Text(got)), Ok(want)) => assert!(got == want, "merge_text != serialize(merge)"),
        (Err(e), Err(code)) => assert!(
            e.code == *code,
            "merge_text fails with {} where merge fails with {code}",
            e.code
        ),
        _ => panic!("merge_text and merge disagree: {text:?} vs {want:?}"),
    }
}

/// Seeds from one conformance case: the merges, the text merges, the updates by patch.
pub fn seeds(case: &Case, out: &mut Vec<Vec<u8>>) {
    let a = |i: usize| case.args.get(i).cloned().unwrap_or(Value::Null);
    let t = |v: Value| {
        if v.is_null() {
            Vec::new()
        } else {
            input::text(&v)
        }
    };
    match case.op.as_str() {
        "merge" => out.push(input::join([
            input::text(&a(0)),
            input::text(&a(1)),
            t(a(2)),
        ])),
        "merge_text" => {
            if let (Some(doc), Some(patch)) = (case.bytes(0), case.bytes(1)) {
                out.push(input::join([doc, patch, t(a(2))]));
            }
        }
        "apply_update" => {
            if let Some(doc) = case.bytes(1) {
                out.push(input::join([doc, input::text(&a(2)), t(a(3))]));
            }
        }
        "update_file" if a(1) == "merge" => {
            let list = a(3);
            let item = |i: usize| list.get(i).cloned().unwrap_or(Value::Null);
            if let Some(doc) = case.bytes(2) {
                out.push(input::join([doc, input::text(&item(0)), t(item(1))]));
            }
        }
        _ => {}
    }
}

/// Seeds from the RFC 7396 vectors (`tests/vectors/rfc7396`), with the `merge_patch` strategy.
pub fn rfc7396_seeds(vectors: &Value, out: &mut Vec<Vec<u8>>) {
    let options = input::text(&statecore::json!({"strategy": "merge_patch"}));
    for v in vectors.as_array().into_iter().flatten() {
        if let (Some(target), Some(patch)) = (v.get("doc"), v.get("patch")) {
            out.push(input::join([
                input::text(target),
                input::text(patch),
                options.clone(),
            ]));
        }
    }
}
