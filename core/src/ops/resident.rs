//! Resident documents (docs/api.md § Resident documents): a document a host keeps inside the
//! core between calls (a handle in wasm memory, a Python object), so that a change or a read
//! crosses the boundary with its arguments and its answer only, never the whole document.
//!
//! A change is the file update's step ([`super::update`]) without the file: a patch, a
//! replacement or a writer of the table for the document's kind, then validation. A change
//! that would make the document invalid is refused (`E_INVALID`) and leaves it as it was.

use super::file::{apply, not_for, patch_options, Applied, Target};
use super::{Access, Arg, Args, Change, Op, Out};
use crate::document::load;
use crate::error::{Code, Error, Result};
use crate::merge::{merge_owned, MergeOptions};
use crate::report::refused_invalid;
use crate::report::{issues_value, Report};
use crate::{json, kinds, Map, Str, Value};

/// A document of a kind, kept between calls.
#[derive(Debug, Clone, PartialEq)]
pub struct Resident {
    kind: String,
    document: Value,
}

impl Resident {
    /// Reads a file's `bytes` (`None`: missing) as a document of `kind`, as a reader does:
    /// a missing or unparseable file gives the kind's default and a warning. Returns the
    /// resident document and `{etag, corrupt, valid, errors, warnings}` of the read.
    pub fn open(kind: &str, bytes: Option<&[u8]>) -> Result<(Resident, Value)> {
        let loaded = load(kind, bytes)?;
        let mut meta = match loaded.into_value() {
            Value::Object(map) => map,
            _ => Map::new(),
        };
        let document = meta.shift_remove("document").unwrap_or_default();
        let resident = Resident {
            kind: kind.to_owned(),
            document,
        };
        Ok((resident, Value::Object(meta)))
    }

    /// A resident document of `kind` holding `document` (checked against the limits, not
    /// validated: [`Resident::validate`] says whether it is valid).
    pub fn new(kind: &str, document: Value) -> Result<Resident> {
        kinds::kind(kind)?;
        json::check_limits(&document)?;
        Ok(Resident {
            kind: kind.to_owned(),
            document,
        })
    }

    /// Its kind.
    pub fn kind(&self) -> &str {
        &self.kind
    }

    /// The document.
    pub fn document(&self) -> &Value {
        &self.document
    }

    /// The value at the JSON pointer `pointer` (`""`: the whole document), `null` when there
    /// is none; `E_ARGUMENT` for a pointer that does not start with `/`.
    pub fn get(&self, pointer: &str) -> Result<Value> {
        if !pointer.is_empty() && !pointer.starts_with('/') {
            return Err(Error::new(
                Code::Argument,
                "",
                format!("{pointer:?} is not a JSON pointer: write \"\" or start it with \"/\""),
            )
            .with_detail("pointer", pointer));
        }
        Ok(self.document.pointer(pointer).cloned().unwrap_or_default())
    }

    /// The document's validation report.
    pub fn validate(&self) -> Result<Report> {
        kinds::validate(&self.kind, &self.document)
    }

    /// The document's canonical text (`E_LIMIT` past the document size limit).
    pub fn text(&self) -> Result<String> {
        let text = json::serialize(&self.document);
        json::check_document_size(text.len(), "the document")?;
        Ok(text)
    }

    /// Applies `change` (as [`Change::named`] names it) and validates the result; `now` fills
    /// stamps and `now` arguments left out. Returns `{changed, warnings}`, with the writer's
    /// own result as `result` (a Hivemind outcome, without the document) and its extra field
    /// (`item`) when it has them. A refused change leaves the document as it was.
    pub fn change(&mut self, change: Change<'_>, now: &Value) -> Result<Value> {
        let change = match change {
            Change::Patch(patch, options) if patch.is_object() && self.document.is_object() => {
                let options = patch_options(&patch, options, now)?;
                return self.patch(&patch, &options);
            }
            other => other,
        };
        let (document, result, extra) = match apply(
            Target::Resident(&self.kind),
            self.document.clone(),
            change,
            now,
        )? {
            Applied::New {
                document,
                result,
                extra,
            } => (document, result, extra),
            Applied::Unchanged { result, .. } => {
                return Ok(outcome(false, &[], Some(result), None))
            }
        };
        json::check_limits(&document)?;
        let report = kinds::validate(&self.kind, &document)?;
        if !report.valid() {
            return Err(refused_invalid(
                &self.kind,
                &report,
                "the resident document was left as it was",
            ));
        }
        let changed = !same(&self.document, &document);
        self.document = document;
        Ok(outcome(changed, &report.warnings, result, extra))
    }

    /// Merges an object `patch` into the object document in place: only the part it can
    /// change (its keys and the stamp's field) is copied, merged and checked against the
    /// limits, then swapped in; the swap is undone when the result is invalid. The same document as
    /// merging into a copy of the whole (the patch's keys are merged in order, new ones at
    /// the end, and no other key is touched), for a cost that grows with the patch.
    fn patch(&mut self, patch: &Value, options: &MergeOptions) -> Result<Value> {
        let map = object_mut(&mut self.document)?;
        let mut keys: Vec<&str> = patch
            .as_object()
            .map_or_else(Vec::new, |p| p.keys().map(|k| k.as_str()).collect());
        if let Some(stamp) = &options.stamp {
            if !keys.contains(&stamp.field.as_str()) {
                keys.push(stamp.field.as_str());
            }
        }
        let mut part = Map::with_capacity(keys.len());
        for key in &keys {
            if let Some(value) = map.get(*key) {
                part.insert((*key).into(), value.clone());
            }
        }
        // The rest of the document met the limits already: the merged part is checked alone.
        let merged = merge_owned(Value::Object(part), patch, options)?;
        json::check_limits(&merged)?;
        let Value::Object(merged) = merged else {
            return Err(internal("the merge of an object patch is not an object"));
        };
        let gone: Vec<&str> = keys
            .iter()
            .copied()
            .filter(|k| !merged.contains_key(*k) && map.contains_key(*k))
            .collect();
        // A field the patch removes and the stamp writes again goes last, as in a merge of
        // the whole (removed, then added).
        let moved: Option<&str> = options
            .stamp
            .as_ref()
            .map(|s| s.field.as_str())
            .filter(|f| {
                matches!(options.strategy, crate::merge::Strategy::MergePatch)
                    && map.contains_key(*f)
                    && merged.contains_key(*f)
                    && patch.get(*f).is_some_and(Value::is_null)
            });
        // A removed or moved key's place is needed only to put it back.
        let order: Option<Vec<Str>> =
            (!gone.is_empty() || moved.is_some()).then(|| map.keys().cloned().collect());
        let mut undo: Vec<(Str, Option<Value>)> = Vec::with_capacity(keys.len());
        for (key, value) in merged {
            let old = map.insert(key.clone(), value);
            undo.push((key, old));
        }
        for key in gone {
            let old = map.shift_remove(key);
            undo.push((key.into(), old));
        }
        if let Some(field) = moved {
            if let Some(value) = map.shift_remove(field) {
                map.insert(field.into(), value);
            }
        }
        let report = match kinds::validate(&self.kind, &self.document) {
            Ok(report) if report.valid() => report,
            other => {
                let map = object_mut(&mut self.document)?;
                restore(map, undo, order);
                return Err(match other {
                    Ok(report) => refused_invalid(
                        &self.kind,
                        &report,
                        "the resident document was left as it was",
                    ),
                    Err(error) => error,
                });
            }
        };
        let map = object_mut(&mut self.document)?;
        let changed = undo.iter().any(|(key, old)| match (old, map.get(key)) {
            (Some(old), Some(new)) => !same(old, new),
            (None, None) => false,
            _ => true,
        });
        Ok(outcome(changed, &report.warnings, None, None))
    }

    /// Runs the reader `op` of the table on the document, with `args` after it.
    pub fn query(&self, op: &'static Op, args: Args<'_>, now: &Value) -> Result<Out> {
        let Access::Reads { kind, bytes, .. } = op.access else {
            return Err(not_for(
                op,
                Target::Resident(&self.kind),
                "reads no document",
            ));
        };
        if kind != self.kind {
            return Err(not_for(
                op,
                Target::Resident(&self.kind),
                &format!("reads {kind}"),
            ));
        }
        if bytes {
            return Err(not_for(
                op,
                Target::Resident(&self.kind),
                "reads a file's bytes",
            ));
        }
        let mut args = args.prepend(Arg::Value(self.document.clone()));
        args.set_now(now);
        super::call(op, args)
    }
}

/// `{changed, warnings, result?, <extra>?}`.
fn outcome(
    changed: bool,
    warnings: &[crate::report::Issue],
    result: Option<Value>,
    extra: Option<(&'static str, Value)>,
) -> Value {
    let mut map = Map::with_capacity(4);
    map.insert("changed".into(), changed.into());
    map.insert("warnings".into(), issues_value(warnings));
    if let Some(result) = result {
        map.insert("result".into(), result);
    }
    if let Some((name, value)) = extra {
        map.insert(name.into(), value);
    }
    Value::Object(map)
}

/// The document as an object (the callers checked it is one).
fn object_mut(document: &mut Value) -> Result<&mut Map> {
    document
        .as_object_mut()
        .ok_or_else(|| internal("the resident document is not an object"))
}

/// An error that cannot happen (checked before; the core returns it rather than panic).
fn internal(what: &str) -> Error {
    Error::new(Code::Merge, "", format!("statecore bug: {what}"))
}

/// Puts back what [`Resident::patch`] swapped in, last change first, and the keys in their
/// first `order` when one was removed.
fn restore(map: &mut Map, undo: Vec<(Str, Option<Value>)>, order: Option<Vec<Str>>) {
    for (key, old) in undo.into_iter().rev() {
        match old {
            Some(value) => {
                map.insert(key, value);
            }
            None => {
                map.shift_remove(&key);
            }
        }
    }
    if let Some(order) = order {
        let mut ordered = Map::with_capacity(order.len());
        for key in order {
            if let Some(value) = map.get_mut(&key).map(Value::take) {
                ordered.insert(key, value);
            }
        }
        *map = ordered;
    }
}

/// True when `a` and `b` are the same JSON with their keys in the same order (what makes
/// their canonical texts equal).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((kx, vx), (ky, vy))| kx == ky && same(vx, vy))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(vx, vy)| same(vx, vy))
        }
        (Value::Number(x), Value::Number(y)) => x.as_str() == y.as_str(),
        _ => a == b,
    }
}
