//! The merge's rules, written once: shallow, deep and merge patch, the per-path rules' places
//! and the stamp, over a [`Sink`] that holds what they merge into. The tree merge
//! (`tree.rs`) and the update on a read text (`tape.rs`) are this code with two sinks, so
//! their semantics cannot drift (the differential test `core/tests/update_tape_properties.rs`
//! holds the two results equal).

use super::{find_rule, MergeOptions, Mode, Strategy};
use crate::error::{Code, Error, Result};
use crate::value::JsonKind;
use crate::{Map, Value};

/// What a merge writes into: the document's values and the objects being merged. An object
/// behaves as an ordered map: a key put again keeps its place, a new key is appended, a
/// removed key's place closes.
pub(crate) trait Sink<'a> {
    /// A value of the document (merged or not).
    type Val;
    /// An object being merged.
    type Obj;
    /// What `value` is.
    fn kind(&self, value: &Self::Val) -> JsonKind;
    /// `value` as an object to merge into; `None` when it is not an object.
    fn object(&mut self, value: Self::Val) -> Option<Self::Obj>;
    /// A new empty object.
    fn empty(&mut self) -> Self::Obj;
    /// The member `key` of `object`, for merging into (it is put back by [`Sink::put`]).
    fn take(&mut self, object: &mut Self::Obj, key: &str) -> Option<Self::Val>;
    /// Sets the member `key` of `object`: in its place, or appended.
    fn put(&mut self, object: &mut Self::Obj, key: &'a str, value: Self::Val);
    /// Removes the member `key` of `object`, if it has one.
    fn remove(&mut self, object: &mut Self::Obj, key: &str);
    /// The merged object as a value.
    fn close(&mut self, object: Self::Obj) -> Self::Val;
    /// A value of the patch, as it is.
    fn patch(&mut self, value: &'a Value) -> Self::Val;
    /// A string (the stamp's time).
    fn text(&mut self, text: &'a str) -> Self::Val;
    /// A per-path rule's merge of `patch` into `current` at `path`.
    fn rule(
        &mut self,
        mode: &Mode,
        current: Option<Self::Val>,
        patch: &'a Value,
        path: &[&str],
        options: &MergeOptions,
    ) -> Result<Self::Val>;
}

/// Merges `patch` into `doc` with `options` (`super::merge_owned`'s rules).
pub(crate) fn merge<'a, S: Sink<'a>>(
    sink: &mut S,
    doc: S::Val,
    patch: &'a Value,
    options: &'a MergeOptions,
) -> Result<S::Val> {
    let out = match options.strategy {
        Strategy::MergePatch => merge_patch(sink, Some(doc), patch),
        Strategy::Shallow => {
            let (mut object, patch) = top_level(sink, doc, patch)?;
            for (key, value) in patch {
                let segs = [key.as_str()];
                let merged = match find_rule(&options.rules, &segs) {
                    Some(mode) => {
                        let current = sink.take(&mut object, key);
                        sink.rule(mode, current, value, &segs, options)?
                    }
                    None => sink.patch(value),
                };
                sink.put(&mut object, key, merged);
            }
            sink.close(object)
        }
        Strategy::Deep => {
            let (object, patch) = top_level(sink, doc, patch)?;
            let mut path = Vec::new();
            merge_object(sink, object, patch, &mut path, options)?
        }
    };
    let Some(stamp) = &options.stamp else {
        return Ok(out);
    };
    let Some(mut object) = sink.object(out) else {
        return Err(Error::new(
            Code::Merge,
            "",
            "cannot stamp a timestamp on a document that is not an object",
        ));
    };
    let now = sink.text(&stamp.now);
    sink.put(&mut object, &stamp.field, now);
    Ok(sink.close(object))
}

/// RFC 7396 §2 `MergePatch(Target, Patch)` (`None`: no target).
pub(crate) fn merge_patch<'a, S: Sink<'a>>(
    sink: &mut S,
    target: Option<S::Val>,
    patch: &'a Value,
) -> S::Val {
    let Value::Object(patch_map) = patch else {
        return sink.patch(patch);
    };
    let mut object = object_or_empty(sink, target);
    for (key, value) in patch_map {
        if value.is_null() {
            sink.remove(&mut object, key);
        } else {
            let current = sink.take(&mut object, key);
            let merged = merge_patch(sink, current, value);
            sink.put(&mut object, key, merged);
        }
    }
    sink.close(object)
}

/// `value` as an object to merge into, or a new empty one (nothing, or not an object).
fn object_or_empty<'a, S: Sink<'a>>(sink: &mut S, value: Option<S::Val>) -> S::Obj {
    match value.and_then(|value| sink.object(value)) {
        Some(object) => object,
        None => sink.empty(),
    }
}

/// The document and the patch of a shallow or deep merge: both objects (a missing document,
/// `null`, is an empty one), else `E_MERGE`.
fn top_level<'a, S: Sink<'a>>(
    sink: &mut S,
    doc: S::Val,
    patch: &'a Value,
) -> Result<(S::Obj, &'a Map)> {
    let patch = patch.as_object().ok_or_else(|| {
        Error::new(
            Code::Merge,
            "",
            format!(
                "the patch must be an object for this strategy, not {}",
                super::type_name(patch)
            ),
        )
    })?;
    let kind = sink.kind(&doc);
    if !matches!(kind, JsonKind::Object | JsonKind::Null) {
        return Err(Error::new(
            Code::Merge,
            "",
            format!(
                "the document must be an object to merge into, not {}; \
                 use merge_patch to replace it",
                kind_name(kind)
            ),
        ));
    }
    Ok((object_or_empty(sink, Some(doc)), patch))
}

/// `"an object"`, ...: a kind as messages name it.
fn kind_name(kind: JsonKind) -> &'static str {
    match kind {
        JsonKind::Null => "null",
        JsonKind::Bool => "a boolean",
        JsonKind::Number => "a number",
        JsonKind::String => "a string",
        JsonKind::Array => "an array",
        JsonKind::Object => "an object",
    }
}

fn merge_object<'a, S: Sink<'a>>(
    sink: &mut S,
    mut object: S::Obj,
    patch: &'a Map,
    path: &mut Vec<&'a str>,
    options: &MergeOptions,
) -> Result<S::Val> {
    for (key, value) in patch {
        path.push(key.as_str());
        let current = sink.take(&mut object, key);
        let merged = merge_value(sink, current, value, path, options);
        path.pop();
        sink.put(&mut object, key, merged?);
    }
    Ok(sink.close(object))
}

/// A deep merge of `patch` into `current` at `path` (a rule there decides, else an object
/// patch merges into an object, and anything else replaces).
pub(crate) fn merge_value<'a, S: Sink<'a>>(
    sink: &mut S,
    current: Option<S::Val>,
    patch: &'a Value,
    path: &mut Vec<&'a str>,
    options: &MergeOptions,
) -> Result<S::Val> {
    if let Some(mode) = find_rule(&options.rules, path) {
        return sink.rule(mode, current, patch, path, options);
    }
    match patch {
        Value::Object(patch_map) => {
            let base = object_or_empty(sink, current);
            merge_object(sink, base, patch_map, path, options)
        }
        other => Ok(sink.patch(other)),
    }
}
