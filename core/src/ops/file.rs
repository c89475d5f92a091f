//! One crossing per file operation (docs/conventions.md § Layers): a host passes a file's bytes and one
//! operation with its arguments, and gets back everything it needs to write the file and
//! answer its caller, from one parse, one validation and one serialization.

use super::{Access, Arg, Args, Op, Out};
use crate::document::{finish, load_for_update, load_with, Doc, Precondition};
use crate::error::{Code, Error, Result};
use crate::json;
use crate::merge::{merge_owned, MergeOptions};
use crate::report::{issues_value, Issue};
use crate::{Map, Value};

/// What an update does to a file's document.
#[derive(Debug)]
pub enum Change<'a> {
    /// A writer of the table with its arguments after the document, which comes from the
    /// file (`fctry_start_step` with `[step, now]`).
    Op(&'static Op, Args<'a>),
    /// A patch merged with options (`now` fills a stamp's missing time).
    Patch(Value, Value),
    /// A whole new document.
    Replace(Value),
    /// One value set at a JSON pointer (`set_value`'s pointer and value).
    Set(String, Value),
}

/// The outcome of [`update`]: what to write and what to tell the caller. `D` is how the
/// document is held: a tree ([`Value`]), or for [`update_read`] a [`Doc`].
#[derive(Debug, Clone, PartialEq)]
pub struct Updated<D = Value> {
    /// The document the file holds afterwards.
    pub document: D,
    /// Its canonical text.
    pub text: String,
    /// The etag of the file afterwards (`None`: there is no file and none was written).
    pub etag: Option<String>,
    /// True when `text` must be written.
    pub changed: bool,
    /// True when the old bytes were not JSON (keep a `.corrupt-` copy before writing).
    pub corrupt: bool,
    /// Warnings (an unparseable old file, validation warnings).
    pub warnings: Vec<Issue>,
    /// The operation's own result when it is not the document (a Hivemind outcome).
    pub result: Option<Value>,
    /// The operation's extra field for its helper (`("item", the added inbox item)`).
    pub extra: Option<(&'static str, Value)>,
}

impl<D> Updated<D> {
    /// The same result with the document held another way.
    pub fn map_document<E>(self, to: impl FnOnce(D) -> E) -> Updated<E> {
        Updated {
            document: to(self.document),
            text: self.text,
            etag: self.etag,
            changed: self.changed,
            corrupt: self.corrupt,
            warnings: self.warnings,
            result: self.result,
            extra: self.extra,
        }
    }

    /// The document, the text, and `{etag, changed, corrupt, warnings}` plus `result` and the
    /// extra field when there are any.
    pub fn into_parts(self) -> (D, String, Map) {
        let mut map = Map::with_capacity(6);
        map.insert("etag".into(), self.etag.map_or(Value::Null, Value::from));
        map.insert("changed".into(), self.changed.into());
        map.insert("corrupt".into(), self.corrupt.into());
        map.insert("warnings".into(), issues_value(&self.warnings));
        if let Some(result) = self.result {
            map.insert("result".into(), result);
        }
        if let Some((name, value)) = self.extra {
            map.insert(name.into(), value);
        }
        (self.document, self.text, map)
    }
}

impl Updated {
    /// `{document, text, etag, changed, corrupt, warnings}` plus `result` and the extra field
    /// when there are any.
    pub fn into_value(self) -> Value {
        let (document, text, meta) = self.into_parts();
        crate::document::updated_value(document, text, meta)
    }
}

/// The pure half of a locked file update: the file's `bytes` (`None`: missing) read as a
/// document of `kind`, `if_match` checked against their etag, `change` applied, the result
/// validated and serialized. `now` is the host's clock: it fills a stamp's missing time and
/// every `now` argument left out. `pre`: the etag the file must have, and whether a file that
/// breaks a limit may be reset (else its error is raised). A writer whose outcome changed
/// nothing leaves the file as it is (`changed: false`).
/// For a text format (index.md) the result's document is the new text's reading: what every
/// reader of the file gets.
pub fn update(
    kind: &str,
    bytes: Option<&[u8]>,
    change: Change<'_>,
    now: &Value,
    pre: Precondition<'_>,
) -> Result<Updated> {
    Ok(update_with(kind, bytes, change, now, pre, true)?.map_document(Doc::into_value))
}

/// [`update`] whose result's document may be the merged read text ([`Doc::Text`]): a patch to
/// a JSON kind is merged, checked and written without building the document's tree
/// (`document::update_read`).
pub fn update_read(
    kind: &str,
    bytes: Option<&[u8]>,
    change: Change<'_>,
    now: &Value,
    pre: Precondition<'_>,
) -> Result<Updated<Doc>> {
    update_with(kind, bytes, change, now, pre, true)
}

/// [`update`] for a host that reads a text format's document from the new text only when its
/// caller asks for it (the wasm layer: the text crosses once, the document is not built
/// twice): such a result's `document` is `null`. A JSON kind's result is [`update`]'s.
pub fn update_unread(
    kind: &str,
    bytes: Option<&[u8]>,
    change: Change<'_>,
    now: &Value,
    pre: Precondition<'_>,
) -> Result<Updated<Doc>> {
    update_with(kind, bytes, change, now, pre, false)
}

fn update_with(
    kind: &str,
    bytes: Option<&[u8]>,
    change: Change<'_>,
    now: &Value,
    pre: Precondition<'_>,
    read_back: bool,
) -> Result<Updated<Doc>> {
    if let Change::Patch(patch, options) = &change {
        let checked = || patch_options(patch, options.clone(), now).map(std::borrow::Cow::Owned);
        if let Some(updated) = crate::document::tape_update(kind, bytes, patch, checked, pre)? {
            return Ok(Updated {
                document: updated.document,
                text: updated.text,
                etag: Some(updated.etag),
                changed: updated.changed,
                corrupt: updated.corrupt,
                warnings: updated.warnings,
                result: None,
                extra: None,
            });
        }
    }
    let mut loaded = load_for_update(kind, bytes, pre)?;
    let current = std::mem::take(&mut loaded.document);
    let (document, result, extra) = match apply(Target::File(kind), current, change, now)? {
        Applied::New {
            document,
            result,
            extra,
        } => (document, result, extra),
        Applied::Unchanged { document, result } => {
            return Ok(
                unchanged(kind, document, bytes, loaded.corrupt, result)?.map_document(Doc::Tree)
            )
        }
    };
    let finished = finish(kind, &loaded, document, bytes, read_back)?;
    Ok(Updated {
        document: Doc::Tree(finished.document),
        text: finished.text,
        etag: Some(finished.etag),
        changed: finished.changed,
        corrupt: finished.corrupt,
        warnings: finished.warnings,
        result,
        extra,
    })
}

/// What a change made of a document (not validated yet).
pub(crate) enum Applied {
    /// A new document, the operation's own result (a Hivemind outcome) and its extra field.
    New {
        /// The new document.
        document: Value,
        /// The operation's result when it is not the document.
        result: Option<Value>,
        /// The operation's extra field for its helper.
        extra: Option<(&'static str, Value)>,
    },
    /// A writer's outcome that changed nothing: the document given back, and the outcome.
    Unchanged {
        /// The document, as it was.
        document: Value,
        /// The operation's result.
        result: Value,
    },
}

/// Applies `change` to `current`, the document of `target` (the file update's step, and a
/// resident document's): a replacement, a patch merged with its options, or a writer of the
/// table for its kind given the document before its other arguments.
pub(crate) fn apply(
    target: Target<'_>,
    current: Value,
    change: Change<'_>,
    now: &Value,
) -> Result<Applied> {
    let kind = target.kind();
    let (document, result, extra) = match change {
        Change::Replace(document) => (document, None, None),
        Change::Set(pointer, value) => {
            json::check_limits(&value)?;
            let mut document = current;
            document.set_pointer(&pointer, value)?;
            (document, None, None)
        }
        Change::Patch(patch, options) => {
            let options = patch_options(&patch, options, now)?;
            (merge_owned(current, &patch, &options)?, None, None)
        }
        Change::Op(op, args) => {
            let Access::Writes(write) = op.access else {
                return Err(not_for(op, target, "writes no document"));
            };
            if write.kind != kind {
                return Err(not_for(op, target, &format!("writes {}", write.kind)));
            }
            let mut args = if write.takes_document {
                args.prepend(Arg::Value(current))
            } else {
                args
            };
            args.set_now(now);
            let out = super::call(op, args)?.into_value();
            let (document, result) = match write.document_at {
                None => (out, None),
                Some(field) => {
                    // The outcome holds the document (as it was, when nothing changed). A
                    // resident document's stays out of the outcome (it stays resident).
                    let mut out = out;
                    let document = match (target, &mut out) {
                        (Target::Resident(_), Value::Object(map)) => map.shift_remove(field),
                        _ => out.get(field).cloned(),
                    }
                    .unwrap_or(Value::Null);
                    if out.get("changed") == Some(&Value::Bool(false)) {
                        return Ok(Applied::Unchanged {
                            document,
                            result: out,
                        });
                    }
                    (document, Some(out))
                }
            };
            let extra = write.extra.map(|(name, pointer, _)| {
                (
                    name,
                    document.pointer(pointer).cloned().unwrap_or(Value::Null),
                )
            });
            (document, result, extra)
        }
    };
    Ok(Applied::New {
        document,
        result,
        extra,
    })
}

/// A writer's outcome that changed nothing: the file stays as it is.
fn unchanged(
    kind: &str,
    document: Value,
    bytes: Option<&[u8]>,
    corrupt: bool,
    result: Value,
) -> Result<Updated> {
    Ok(Updated {
        text: crate::document::encode(kind, &document, bytes.filter(|_| !corrupt))?,
        document,
        etag: bytes.map(json::etag),
        changed: false,
        corrupt,
        warnings: Vec::new(),
        result: Some(result),
        extra: None,
    })
}

/// Merge options read from JSON ([`MergeOptions::from_value`]), a key that belongs to the
/// update itself named as such.
pub(crate) fn merge_options(value: &Value) -> Result<MergeOptions> {
    MergeOptions::from_value_with(value, update_option)
}

/// The error of a key of merge options that is none of them but an option of the update
/// itself (`timeout`, `if_match`/`ifMatch`, `now`, `reset`), the message says
/// where it goes instead (`details.belongs_to`: `"update"`).
fn update_option(key: &str) -> Option<Error> {
    const KNOWN: [&str; 3] = crate::merge::OPTION_NAMES;
    let name = super::UPDATE_OPTIONS
        .field_names()
        .into_iter()
        .find(|name| *name == key || crate::options::camel(name) == key)?;
    let camel = crate::options::camel(name);
    let error = Error::new(
        Code::Options,
        crate::error::child_path("", key),
        format!(
            "{key:?} is not a merge option but an option of the update itself: pass it after \
             the merge options (JS: updateDocument(file, kind, patch, null, {{ {camel}: ... }}); \
             Python: update_document(file, kind, patch, {name}=...)); the merge options are \
             {}",
            KNOWN.join(", ")
        ),
    )
    .with_detail("option", key)
    .with_detail("belongs_to", "update")
    .with_detail("known", KNOWN.to_vec());
    Some(error)
}

/// Merge options whose stamp has no time get the host's `now`.
/// A patch's merge options (`now` fills a stamp's missing time), the patch checked against
/// the limits first.
pub(crate) fn patch_options(patch: &Value, options: Value, now: &Value) -> Result<MergeOptions> {
    json::check_limits(patch)?;
    merge_options(&stamped(options, now))
}

fn stamped(mut options: Value, now: &Value) -> Value {
    if let Some(stamp) = options.get_mut("stamp").and_then(Value::as_object_mut) {
        if stamp.get("now").is_none_or(Value::is_null) {
            stamp.insert("now".into(), now.clone());
        }
    }
    options
}

/// A read of a file's document by a reader of the table: the `bytes` (`None`: missing) read
/// as the operation's kind (the default when missing or unparseable; not validated), or
/// passed as they are to an operation that reads bytes; then the operation with its other
/// arguments.
pub fn query(
    kind: &str,
    bytes: Option<&[u8]>,
    op: &'static Op,
    args: Args<'_>,
    now: &Value,
) -> Result<Out> {
    let Access::Reads {
        kind: reads,
        bytes: raw,
        ..
    } = op.access
    else {
        return Err(not_for(op, Target::File(kind), "reads no document"));
    };
    if reads != kind {
        return Err(not_for(op, Target::File(kind), &format!("reads {reads}")));
    }
    let first = if raw {
        Arg::Bytes(bytes.map(std::borrow::Cow::Borrowed))
    } else {
        Arg::Value(load_with(kind, bytes, false, false, false)?.document)
    };
    let mut args = args.prepend(first);
    args.set_now(now);
    super::call(op, args)
}

/// What an operation is applied to: a file of a kind, or a resident document of a kind.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Target<'a> {
    /// A file (the one-crossing file update and query).
    File(&'a str),
    /// A resident document ([`super::Resident`]).
    Resident(&'a str),
}

impl Target<'_> {
    /// The document kind.
    pub(crate) fn kind(&self) -> &str {
        match self {
            Target::File(kind) | Target::Resident(kind) => kind,
        }
    }
}

/// `E_ARGUMENT`: `op` cannot be applied to `target`, because it `why`.
pub(crate) fn not_for(op: &Op, target: Target<'_>, why: &str) -> Error {
    let on = match target {
        Target::File(kind) => format!("applied to a {kind} file"),
        Target::Resident(kind) => format!("run on a resident {kind} document"),
    };
    Error::new(
        Code::Argument,
        "",
        format!("{} cannot be {on}: it {why}", op.name()),
    )
}
