//! [`Out`]: an operation's result as a binding passes it on, and its JSON form.

use crate::{Map, Value};

/// A core result as a binding passes it on.
#[derive(Debug)]
pub enum Out {
    /// A JSON value.
    Json(Value),
    /// Text.
    Text(String),
    /// Nothing.
    Nothing,
    /// An update result ([`Form::Update`]): the document, its canonical text, and the other
    /// fields (`etag`, `changed`, `corrupt`, `warnings`, ...) in order.
    Update {
        /// The document (a tree, or the merged read text it was checked and written from).
        document: crate::document::Doc,
        /// Its canonical text.
        text: String,
        /// The other fields.
        meta: Map,
        /// True when the text is the document's JSON (a host can parse the document from
        /// it); false for a text format (index.md).
        text_is_document: bool,
    },
    /// A reader's result ([`Form::Loaded`]): the document, the other fields (`etag`,
    /// `corrupt`, `valid`, `errors`, `warnings`) in order, and whether the document is the
    /// read bytes' own JSON as written ([`crate::document::Loaded::as_written`]).
    Loaded {
        /// The document (a tree, or the read text it was checked on).
        document: crate::document::Doc,
        /// The other fields.
        meta: Map,
        /// True when the bytes' own JSON is the document.
        as_written: bool,
    },
    /// A job ([`super::Form::Job`]), opened ([`crate::job::Job::opened`]): it has a first step.
    Job(Box<crate::job::Job>),
}

impl Out {
    /// The result as a JSON value (text as a string, nothing as `null`, an update as
    /// `{document, text, ...meta}`, a job as its first step).
    pub fn into_value(self) -> Value {
        match self {
            Out::Json(value) => value,
            Out::Text(text) => Value::from(text),
            Out::Nothing => Value::Null,
            Out::Update {
                document,
                text,
                meta,
                ..
            } => {
                let mut map = Map::with_capacity(meta.len().saturating_add(2));
                map.insert("document".into(), document.into_value());
                map.insert("text".into(), Value::from(text));
                map.extend(meta);
                Value::Object(map)
            }
            Out::Loaded { document, meta, .. } => {
                let mut map = Map::with_capacity(meta.len().saturating_add(1));
                map.insert("document".into(), document.into_value());
                map.extend(meta);
                Value::Object(map)
            }
            Out::Job(job) => job.first().cloned().unwrap_or_default(),
        }
    }

    /// A job's result: the job, or its own error when it ended at once (a setup it refused).
    pub fn job(job: crate::Result<crate::job::Job>) -> crate::Result<Out> {
        Ok(Out::Job(Box::new(job?.opened()?)))
    }

    /// A reader's result from what the core made of the bytes.
    pub fn loaded(loaded: crate::document::Loaded<crate::document::Doc>) -> Out {
        Out::Loaded {
            meta: loaded.meta(),
            as_written: loaded.as_written,
            document: loaded.document,
        }
    }

    /// An update result of a file of `kind` from its value `{document, text, ...}` (the form
    /// of [`crate::document::Updated::into_value`]).
    pub fn update(kind: &str, value: Value) -> Out {
        let text_is_document = crate::kinds::text_is_document(kind);
        let mut meta = match value {
            Value::Object(map) => map,
            other => return Out::Json(other),
        };
        let document = meta.shift_remove("document").unwrap_or_default();
        let text = match meta.shift_remove("text") {
            Some(Value::String(text)) => text.into_string(),
            _ => String::new(),
        };
        Out::Update {
            document: crate::document::Doc::Tree(document),
            text,
            meta,
            text_is_document,
        }
    }

    /// An update result of a file of `kind` from its parts: the document, its text and the
    /// other fields (the form of [`crate::document::Updated::into_parts`]).
    pub fn updated(kind: &str, (document, text, meta): (crate::document::Doc, String, Map)) -> Out {
        let text_is_document = crate::kinds::text_is_document(kind);
        Out::Update {
            document,
            text,
            meta,
            text_is_document,
        }
    }
}
