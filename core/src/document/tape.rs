//! The update on a read text (docs/performance.md § The document representation): the file's
//! bytes read into a [`json::Tape`], the patch merged into it without building either tree
//! (`crate::merge::tape`), the kind's rules and the writer run on the merged tape. The steps,
//! their order and their errors are those of the tree path ([`super::update`]), which takes
//! every case this one does not: a missing, unreadable or refused file, a text format, a kind
//! whose rules are written for trees only, a merge the tape sink does not splice. And
//! [`Doc`]: a document held as a tree or as read text (a read's, or an update's merged one).

use super::{check_if_match, Precondition, Updated};
use crate::error::Result;
use crate::kinds::{self, Format};
use crate::merge::MergeOptions;
use crate::report::invalid_error;
use crate::{json, Value};
use std::borrow::Cow;

/// The update of `bytes` (a file of `kind`) by `patch`, merged with the options `options`
/// gives (called where the tree path checks the patch and reads its options: after the
/// etag check), on the read text; `Ok(None)`: the tree path must make it (nothing was
/// refused yet).
pub(crate) fn update<'o>(
    kind: &str,
    bytes: Option<&[u8]>,
    patch: &Value,
    options: impl FnOnce() -> Result<Cow<'o, MergeOptions>>,
    pre: Precondition<'_>,
) -> Result<Option<Updated<Doc>>> {
    let spec = kinds::kind(kind)?;
    let (Some(bytes), Format::Json, Some(rules), None) = (
        bytes,
        &spec.format,
        spec.validate_read,
        spec.file.as_ref().and_then(|f| f.log),
    ) else {
        return Ok(None);
    };
    // A text that cannot be read (corrupt, or refused by a limit) takes the tree path,
    // which says why and decides what to do with it.
    let Ok((base, _)) = json::Tape::parse(bytes) else {
        return Ok(None);
    };
    let etag = pre.if_match.map(|_| json::etag(bytes));
    check_if_match(etag.as_deref(), pre.if_match)?;
    let options = options()?;
    let Some(merged) = crate::merge::merge_read(&base, patch, &options)? else {
        return Ok(None);
    };
    // The merged tape holds its own copy of what it took from the base: the base's nodes
    // are let go before the new text is written (docs/performance.md § The update's peak
    // memory).
    drop(base);
    let root = merged.root();
    let report = rules(root);
    if !report.valid() {
        return Err(invalid_error(kind, &report));
    }
    // The new text is about as long as the merged tape's text (the file's when a patch
    // changes little, much less when it replaces most of it): one buffer, rarely grown.
    let room = merged.text_bytes();
    let text = json::serialize_tape(&merged, room.saturating_add(room / 8));
    json::check_document_size(text.len(), "the new document")?;
    let etag = json::etag(text.as_bytes());
    let changed = bytes != text.as_bytes();
    Ok(Some(Updated {
        document: Doc::Text(merged),
        text,
        etag,
        changed,
        corrupt: false,
        warnings: report.warnings,
    }))
}

/// A document as [`super::read`] gives it: a tree, or the read text, on which the kind's rules ran
/// without building the tree ([`Doc::into_value`] builds it).
#[derive(Clone)]
pub enum Doc {
    /// A document tree.
    Tree(Value),
    /// The document's text as read.
    Text(json::Tape<'static>),
}

impl Doc {
    /// The document as a tree.
    pub fn into_value(self) -> Value {
        match self {
            Doc::Tree(value) => value,
            Doc::Text(tape) => crate::value::Json::to_value(tape.root()),
        }
    }
}

/// Equal when they hold the same document, however each holds it.
impl PartialEq for Doc {
    fn eq(&self, other: &Doc) -> bool {
        match (self, other) {
            (Doc::Tree(a), Doc::Tree(b)) => a == b,
            _ => self.clone().into_value() == other.clone().into_value(),
        }
    }
}

impl std::fmt::Debug for Doc {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Doc::Tree(value) => write!(f, "Tree({value:?})"),
            Doc::Text(_) => f.write_str("Text(..)"),
        }
    }
}
